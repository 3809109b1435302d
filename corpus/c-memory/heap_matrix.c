//! verdict: violated out-of-bounds line 19
//! run: input=2 output= result=3
//! run: input=3 output= result=9
//! run: input=0 output= result=0
//! run: input=4 output= error=out-of-bounds line 19
//! source: corpus (no seed listing): a heap array of rows (`int (*rows)[3] = malloc(n * sizeof *rows)`) filled by a loop and read back one past the rows the program allocated
//! note: the program allocates `n` rows of three and sums the first column (0, 3, 6, ...); for n from 1 to 3 it then adds the last row's middle element less what it holds (0); for n = 4 it reads row 4, one past the four rows allocated: `out-of-bounds` at line 19. Input 0 allocates nothing and returns 0
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
extern void free(void *);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 4) return 0;
  int (*rows)[3] = malloc(n * sizeof *rows);
  int total = 0;
  for (int i = 0; i < n; i++) for (int j = 0; j < 3; j++) rows[i][j] = 3 * i + j;
  for (int i = 0; i < n; i++) total += rows[i][0];
  int last = n < 4 ? n - 1 : n;
  total += rows[last][1] - 3 * last - 1;
  free(rows);
  return total;
}
