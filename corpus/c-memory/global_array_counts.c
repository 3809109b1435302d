//! verdict: violated assert line 22
//! verdict: violated out-of-bounds line 13
//! run: input=1,2 output= result=11
//! run: input=3,3 output= error=assert line 22
//! run: input=4,0 output= error=out-of-bounds line 13
//! source: corpus (no seed listing): a global array of counters, zero at the start, bumped by a function that shares it with `main`
//! note: a global array starts with every element 0 and assigned (no `uninit` read), and the function that indexes it is inlined into `main`
extern int __VERIFIER_nondet_int(void);
void reach_error(void);
int counts[4];
int total;
void bump(int i) {
  counts[i] = counts[i] + 1;
  total++;
}
int main() {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  if (a < 0 || b < 0 || b > 3) return 0;
  bump(a);
  bump(b);
  if (counts[a] == 2) reach_error();
  return counts[1] * 10 + counts[2] + counts[0] * 100 + total - 2;
}
