//! verdict: violated assert line 30
//! run: input=0 output= result=20
//! run: input=1 output= result=20
//! run: input=2 output= error=assert line 30
//! source: corpus (no seed listing): the textbook forms of a two-dimensional array: `*(m + i)` and `**m` of a variable, a moved `int m[][3]` parameter walked by `m++`, a `char s[]` parameter walked by `s++`, and `&s.a` of an array member
//! note: `diagonal` walks the rows with `m++` and adds `(*m)[i]`: 1 + 5 + 9 = 15; `length("abcde")` is 5, so 20 is returned where nothing was changed. Input 2 stores 7 through `*(grid + 2)`, which makes the diagonal 13 and the check fail
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
struct triple { int a[3]; };
int diagonal(int m[][3], int rows) {
  int s = 0;
  for (int i = 0; i < rows; i++, m++) s += (*m)[i];
  return s;
}
int length(char s[]) {
  int n = 0;
  while (*s++) n++;
  return n;
}
int main(void) {
  int grid[3][3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  struct triple t = {{1, 1, 2}};
  int (*whole)[3] = &t.a;
  char word[8] = "abcde";
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 2) return 0;
  int *row = *(grid + k);
  row[(*whole)[k]] = **grid * 7;
  if (k < 2) row[(*whole)[k]] = 3 * k + (*whole)[k] + 1;
  if (diagonal(grid, 3) != 15) reach_error();
  return diagonal(grid, 3) + length(word);
}
