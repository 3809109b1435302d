// Symbolic reads of a 16 x 16 table filled by loops.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int t[16][16];
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++) t[i][j] = (i * 7 + j * 13) % 31;
  int s = 0;
  for (int k = 0; k < 6; k++) {
    int i = __VERIFIER_nondet_int(), j = __VERIFIER_nondet_int();
    if (i < 0 || i >= 16 || j < 0 || j >= 16) return 0;
    s += t[i][j];
    t[j][i] = s;
  }
  if (s == 150) reach_error();
  return 0;
}
