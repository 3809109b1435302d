//! verdict: violated assert line 16
//! run: input=0 output= error=assert line 16
//! run: input=256 output= error=assert line 16
//! run: input=101 output= result=2
//! run: input=108 output= result=1
//! source: corpus (no seed listing): `strstr` as C programs find a word in a string
//! note: an input character written into "hello" can end the string early (0, or 256 as a `char`), and then "ll" is not found; an `l` there finds "ll" one place earlier
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern char *strstr(const char *, const char *);
int main() {
  char h[6] = "hello";
  h[1] = (char)__VERIFIER_nondet_int();
  if (strstr(h, "") != h) reach_error();
  char *p = strstr(h, "ll");
  if (p == 0) reach_error();
  if (strstr(h, "lo") != h + 3) reach_error();
  return (int)(p - h);
}
