//! verdict: safe
//! run: input=2 output= result=3
//! run: input=0 output= result=1
//! source: corpus (no seed listing): a pointer into an array passed to functions of their own (not inlined: the argument is an expression), moved in their loops
//! note: `skip` moves its parameter without reading through it (the structural engine once stopped with an internal error on such a loop); `first` reads one element; the input is clamped to the array
extern int __VERIFIER_nondet_int(void);
int *skip(int *p, int n) { while (n-- > 0) { p++; } return 0; }
int first(int *p, int n) { while (n-- > 0) p++; return *p; }
int main(void) {
  int a[3] = {1, 2, 3};
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 2) k = 0;
  skip(a + 0, k);
  return first(a + 0, k);
}
