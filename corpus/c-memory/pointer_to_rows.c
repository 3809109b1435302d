//! verdict: violated assert line 24
//! run: input=0 output= result=15
//! run: input=2 output= result=15
//! run: input=1 output= error=assert line 24
//! source: corpus (no seed listing): a pointer to the rows of a two-dimensional array (`int (*)[3]`) walked by `++`, summed by a function taking a pointer to arrays, and a row through `*p`
//! note: `rowsum(p)` adds the three elements of the row `p` points to; `p` walks the rows of `grid`. Row 1 is `{4, 5, 6}` (15); input 1 writes 9 over its last element, so its sum becomes 18 and the check fails
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int rowsum(int (*row)[3]) {
  int s = 0;
  for (int j = 0; j < 3; j++) s += (*row)[j];
  return s;
}
int main(void) {
  int grid[3][3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 2) return 0;
  int (*p)[3] = grid;
  p[k][2] = 9 * (k == 1) + p[k][2] * (k != 1);
  p++;
  int *row = *p;
  int total = rowsum(p);
  if (row[0] != 4) reach_error();
  if (total != 15) reach_error();
  return total;
}
