//! verdict: violated out-of-bounds line 13
//! run: input=3,2 output= result=98
//! run: input=2,3 output= error=out-of-bounds line 13
//! run: input=5,1 output= result=0
//! run: input=4,0 output= result=0
//! source: corpus (no seed listing): a character buffer kept in a struct (a pointer into a malloc'ed array as a member) filled by a helper that forgets to check the buffer's size
//! note: `b->data` is a pointer into an array held by a struct member (lower/elements.rs keys members by name); appending more characters than the input-sized buffer holds writes one past its end
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
extern void free(void *);
struct buffer { char *data; int size; int used; };
void append(struct buffer *b, char c) {
  b->data[b->used] = c;
  b->used++;
}
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 4) return 0;
  struct buffer b;
  b.data = malloc(n * sizeof(char));
  b.size = n;
  b.used = 0;
  int k = __VERIFIER_nondet_int();
  for (int i = 0; i < k && i < 6; i++) append(&b, 'a' + i);
  char *last = b.data + b.used - 1;
  int r = b.used > 0 ? *last : 0;
  free(b.data);
  return r;
}
