//! verdict: violated uninit line 27
//! verdict: violated assert line 30
//! run: input=3,3,-1,3 output= result=1
//! run: input=7,7,7,7 output= error=assert line 30
//! run: input=-1,0 output= error=uninit line 27
//! run: input=0,1,2,1 output= result=1
//! run: input=5,40 output= result=0
//! source: corpus (no seed listing): counters of a global array and marks of a heap array written at input indices, then read at another input index
//! note: both arrays are long enough (48 and 40 elements) that the forward engine keeps them as write logs after the first write at an input index (`forward/write_log.rs`): a read at `j` is a chain over the three writes, not over the elements. `count[j]` reaches 3 only when all three inputs are `j` (the assert); `mark[j]` of a heap array `malloc` leaves indeterminate is read before it is written unless some input was `j` (uninit)
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
extern void free(void *);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
int count[48];
int main(void) {
  int *mark = malloc(40 * sizeof(int));
  if (!mark) return 0;
  for (int k = 0; k < 3; k++) {
    int i = __VERIFIER_nondet_int();
    if (i < 0 || i >= 40) break;
    count[i] = count[i] + 1;
    mark[i] = k;
  }
  int j = __VERIFIER_nondet_int();
  int r = 0;
  if (j >= 0 && j < 40) {
    r = mark[j];
    free(mark);
    if (count[j] > 2)
      __assert_fail("count[j] <= 2", "arrays_written_at_inputs.c", 30, "main");
    return r;
  }
  free(mark);
  return r;
}
