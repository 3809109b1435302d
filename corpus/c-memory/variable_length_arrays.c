//! verdict: violated out-of-bounds line 28
//! run: input=1 output= result=0
//! run: input=3 output= result=6
//! run: input=5 output= result=20
//! run: input=0 output= result=0
//! run: input=4 output= error=out-of-bounds line 28
//! source: corpus (no seed listing): variable-length arrays (`int squares[n]`, `int grid[n][2]`) filled by a loop, one passed to a function as a pointer, and read one past their length
//! note: a variable-length array is storage for `n` elements on the stack and a pointer to it, so a subscript is checked against the length computed at the declaration; the program sums the squares 0..n-1 in two ways (equal for every n), then reads element `last` of both arrays, which is n - 1 except for n = 4, where it is 4: one past the end (`out-of-bounds` at line 28). Inputs outside 1..5 return 0
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int total(int *v, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  return s;
}
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 5) return 0;
  int squares[n];
  int grid[n][2];
  for (int i = 0; i < n; i++) {
    squares[i] = i * i;
    grid[i][0] = i;
    grid[i][1] = squares[i];
  }
  if (total(squares, n) != grid[n - 1][1] + (n > 1 ? total(squares, n - 1) : 0)) reach_error();
  int last = n == 4 ? n : n - 1;
  return grid[last][0] + squares[last];
}
