//! verdict: violated assert line 27
//! run: input=0 output= result=0
//! run: input=9 output= result=0
//! run: input=2 output= error=assert line 27
//! source: corpus (no seed listing): functions that return pointers into an array (a loop and a recursion that give null or an element's address), a pointer through them written and compared, and a global whose address is taken in a function that also declares a local of its name in a block
//! note: `find` returns &v[i] of the first element equal to `k` or null; `lastof` the last one, recursively. The last check fails exactly when k is 2 (arr[2] is 2, found by both; the global `x` then holds 41 + 2)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int x = 40;
int *find(int *v, int n, int k) {
  for (int i = 0; i < n; i++)
    if (v[i] == k) return &v[i];
  return 0;
}
int *lastof(int *v, int n, int k) {
  if (n == 0) return 0;
  if (v[n - 1] == k) return v + n - 1;
  return lastof(v, n - 1, k);
}
int main(void) {
  int k = __VERIFIER_nondet_int();
  int arr[4] = {5, 9, 2, 9};
  int *q = &x;
  *q += 1;
  { int x = k; *q += x; }
  int *first = find(arr, 4, k), *last = lastof(arr, 4, k);
  if (first != 0 && first == last && *first == 2 && x == 43) reach_error();
  if (first != 0 && first > last) reach_error();
  return 0;
}
