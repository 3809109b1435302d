//! verdict: violated uninit line 20
//! verdict: violated assert line 21
//! verdict: violated uninit line 22
//! run: input=2,0,0,-1 output= error=uninit line 20
//! run: input=2,1,2,1,113,1,0,122 output= error=assert line 21
//! run: input=2,1,2,1,113,0,0 output= error=uninit line 22
//! run: input=2,1,2,1,113,1,7,10 output= result=7
//! run: input=1,5 output= result=1
//! source: corpus (no seed listing): a program that reads its input with `scanf` and `getchar`, and trusts it
//! note: `scanf` returns how many conversions it assigned (an input from -1, EOF, to their number; the input values follow), so a read that fails leaves its variable unassigned (`uninit` where it is read); `getchar` is an input from -1 to 255
int scanf(const char *format, ...);
int getchar(void);
void reach_error(void);
int main(void) {
  int n, m;
  char c;
  int a[3];
  if (scanf("%d %d", &n, &m) != 2) return 1;
  scanf(" %c", &c);
  if (c == 'q') scanf("%d", &a[1]);
  if (n > 0 && m == n * 2 && c == 'q' && getchar() == 'z') reach_error();
  return a[1];
}
