//! verdict: violated out-of-bounds line 19
//! run: input=3,1,2,0 output= result=1
//! run: input=2,9,4,2 output= result=9
//! run: input=1,2,3,3 output= error=out-of-bounds line 19
//! source: corpus (no seed listing): an array sorted in place by a function that takes it as a parameter, then read through a pointer parameter at an input index
//! note: an array argument names the caller's array (C passes a pointer to its first element): the sort's swaps reach `main`'s array, so it is sorted for all inputs; only the index read can fail
extern int __VERIFIER_nondet_int(void);
void reach_error(void);
void sort(int a[], int n) {
  int i, j;
  for (i = 0; i < n; i++)
    for (j = 0; j + 1 < n - i; j++)
      if (a[j] > a[j + 1]) {
        int t = a[j];
        a[j] = a[j + 1];
        a[j + 1] = t;
      }
}
int at(int *a, int i) { return a[i]; }
int main() {
  int a[3];
  int k;
  for (k = 0; k < 3; k++) a[k] = __VERIFIER_nondet_int();
  int probe = __VERIFIER_nondet_int();
  sort(a, 3);
  if (a[0] > a[1] || a[1] > a[2]) reach_error();
  return at(a, probe);
}
