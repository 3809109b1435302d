//! verdict: violated out-of-bounds line 22
//! run: input=3,2 output= result=5
//! run: input=5,5 output= result=15
//! run: input=2,3 output= error=out-of-bounds line 22
//! run: input=9,1 output= error=out-of-bounds line 22
//! run: input=9,0 output= result=0
//! source: corpus (no seed listing): a stack of ints in a struct that doubles its capacity with realloc as it grows, popped as often as an input says, without a check for an empty stack
//! note: `items` is a pointer into a heap array kept as a member and moved by `realloc` (lower/allocation.rs copies the old elements and frees the old array); popping more than was pushed reads index -1
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
extern void *realloc(void *, unsigned long);
extern void free(void *);
struct stack { int *items; int size; int cap; };
void push(struct stack *s, int x) {
  if (s->size == s->cap) {
    s->cap = s->cap * 2;
    s->items = realloc(s->items, s->cap * sizeof(int));
  }
  s->items[s->size] = x;
  s->size++;
}
int pop(struct stack *s) { s->size--; return s->items[s->size]; }
int main(void) {
  struct stack s;
  s.cap = 1;
  s.size = 0;
  s.items = malloc(sizeof(int));
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 5) n = 0;
  for (int i = 0; i < n; i++) push(&s, i + 1);
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 6) k = 0;
  int sum = 0;
  for (int j = 0; j < k; j++) sum += pop(&s);
  free(s.items);
  return sum;
}
