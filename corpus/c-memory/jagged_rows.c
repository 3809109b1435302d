//! verdict: violated out-of-bounds line 25
//! run: input=2,0 output= result=3
//! run: input=3,1 output= result=2
//! run: input=2,5 output= error=out-of-bounds line 25
//! run: input=0,0 output= result=0
//! source: corpus (no seed listing): a triangular matrix whose rows are malloc'ed one by one (row i holds i + 1 ints), summed through a row pointer and then read at a column an input picks
//! note: `int **rows` points into an array of pointers into arrays (lower/elements.rs chooses each pointer level); row 1 has two columns (row 0, which `1 % n` picks for n = 1, one), so a column beyond is out of bounds
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
extern void free(void *);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 3) return 0;
  int **rows = (int **)malloc(n * sizeof(int *));
  for (int i = 0; i < n; i++) {
    rows[i] = malloc((i + 1) * sizeof(int));
    for (int j = 0; j <= i; j++) rows[i][j] = i + j;
  }
  int *last = rows[n - 1];
  int sum = 0;
  for (int j = 0; j < n; j++) sum += last[j];
  int c = __VERIFIER_nondet_int();
  int r = sum;
  if (c > 0)
    r = rows[1 % n][c] + rows[0][0];
  for (int i = 0; i < n; i++) free(rows[i]);
  free(rows);
  return r;
}
