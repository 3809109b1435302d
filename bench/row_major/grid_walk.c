// A robot walks a 12 x 12 grid for 8 steps chosen by inputs; each cell counts visits.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int visits[12][12] = {0};
  int r = 0, c = 0;
  for (int step = 0; step < 8; step++) {
    int d = __VERIFIER_nondet_int();
    if (d == 0 && r < 11) r++;
    else if (d == 1 && c < 11) c++;
    else if (d == 2 && r > 0) r--;
    else if (c > 0) c--;
    visits[r][c]++;
  }
  if (visits[3][4] == 2 && visits[r][c] == 3) reach_error();
  return 0;
}
