// One generation of the game of life on a 4 x 4 board of inputs, checked for a pattern.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int b[4][4], n[4][4];
  for (int i = 0; i < 4; i++) for (int j = 0; j < 4; j++) b[i][j] = __VERIFIER_nondet_int() & 1;
  for (int i = 1; i < 3; i++)
    for (int j = 1; j < 3; j++) {
      int k = 0;
      for (int di = -1; di <= 1; di++) for (int dj = -1; dj <= 1; dj++)
        if (di || dj) k += b[i + di][j + dj];
      n[i][j] = k == 3 || (k == 2 && b[i][j]);
    }
  if (n[1][1] && n[1][2] && n[2][1] && !n[2][2] && !b[1][1]) reach_error();
  return 0;
}
