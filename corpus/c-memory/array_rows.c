//! verdict: violated out-of-bounds line 25
//! run: input=1 output= result=0
//! run: input=3 output= result=0
//! run: input=2 output= error=out-of-bounds line 25
//! source: corpus (no seed listing): rows of a two-dimensional character array as strings (filled by `strcpy`, scanned by a pointer, measured by a defined function), a pointer to an element walking the whole array across its rows
//! note: `names[k]` is a pointer to the first character of row k; `&grid[0][0]` walks all 6 elements in row-major order. Row 2 ("cd") has 2 characters, so for k = 2 `grid[0][len + 1]` is `grid[0][3]`: out of bounds of its row (3 elements) although the array has 6 and its element 3 exists; the other rows (lengths 3 and 1) read the same element of row 1 twice, once through `cell`
extern int __VERIFIER_nondet_int(void);
extern char *strcpy(char *, const char *);
int length(const char *s) {
  int n = 0;
  while (s[n]) n++;
  return n;
}
int main(void) {
  char names[3][4];
  int grid[2][3];
  strcpy(names[0], "abc");
  strcpy(names[1], "x");
  strcpy(names[2], "cd");
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 2) return 0;
  int len = length(names[k]);
  int *cell = &grid[0][0];
  for (int i = 0; i < 6; i++) cell[i] = i;
  if (len == 2) return grid[0][len + 1];
  return grid[1][len - 1] - cell[3 + len - 1];
}
