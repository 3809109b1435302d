//! verdict: safe
//! run: input=3,4 output= result=7
//! run: input=-5,9 output= result=4
//! source: corpus (no seed listing): pointers to struct members (`&s.f`, `&p->f`, of a nested struct too), written through, with struct copies and whole-struct stores around them
//! note: a copy of a struct has members of its own (a write through a pointer into the original leaves the copy), a whole-struct store keeps pointers into the target valid, and a pointer into a heap object reads what the member holds
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
void reach_error(void);
struct pair {
  int a;
  int b;
};
struct box {
  struct pair inner;
  int c;
};
void swap(int *x, int *y) {
  int t = *x;
  *x = *y;
  *y = t;
}
int sum(struct pair p) {
  int *pa = &p.a;
  *pa = *pa + p.b;
  return p.a;
}
int main() {
  struct pair s;
  s.a = __VERIFIER_nondet_int();
  s.b = __VERIFIER_nondet_int();
  int a0 = s.a;
  int b0 = s.b;
  swap(&s.a, &s.b);
  if (s.a != b0 || s.b != a0) reach_error();
  struct pair copy = s;
  int *pa = &s.a;
  *pa = 100;
  if (copy.a != b0 || s.a != 100) reach_error();
  s = copy;
  if (*pa != b0) reach_error();
  if (sum(s) != a0 + b0 || s.a != b0) reach_error();
  struct box *heap = malloc(sizeof(struct box));
  heap->inner = s;
  int *pb = &heap->inner.b;
  *pb = *pb + 1;
  heap->c = 0;
  if (heap->inner.b != a0 + 1) reach_error();
  return heap->inner.a + *pb - 1;
}
