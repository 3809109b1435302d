//! verdict: safe
//! run: input=0,2 output= result=19
//! run: input=1,0 output= result=17
//! source: corpus (no seed listing): pointers into arrays (an array's decay, `&a[i]`, `p + k`, `p++`, `*p++`, `p[i]`, `p - q`, `p < q`, `p->f` over an array of structs, `?:`), passed to functions of their own and compared
//! note: every access stays inside its array: the string walk stops at the 0, the half-open range ends one past the last element (which is computed, never read), the input index is clamped, and the struct walk writes each element once
extern int __VERIFIER_nondet_int(void);
void reach_error(void);
struct point { int x; int y; };
int length(char *s) { int n = 0; while (*s++) n++; return n; }
int sum(int *from, int *to) { int s = 0; for (; from < to; from++) s += *from; return s; }
int main(void) {
  char word[8] = "abc";
  char *w = word;
  if (length(w) != 3 || length(w + 1) != 2) reach_error();
  int a[4] = {1, 2, 3, 4};
  if (sum(a, a + 4) != 10) reach_error();
  struct point pts[3];
  struct point *q = pts;
  for (int i = 0; i < 3; i++) { q->x = i; q->y = 2 * i; q++; }
  if (q - pts != 3) reach_error();
  q = &pts[1];
  if (q->y != 2 || q[1].x != 2) reach_error();
  int *r = 0;
  if (r) reach_error();
  r = __VERIFIER_nondet_int() ? a : a + 2;
  if (*r != 1 && *r != 3) reach_error();
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 3) k = 3;
  int *end = &a[k];
  *end-- = 9;
  if (end != a + k - 1) reach_error();
  return *r + a[k] + (int)(end - a);
}
