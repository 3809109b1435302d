//! verdict: violated out-of-bounds line 25
//! run: input=3 output= error=out-of-bounds line 25
//! run: input=5 output= result=0
//! run: input=0 output= result=0
//! source: corpus (no seed listing): character buffers allocated by a number of bytes (`malloc(n + 1)`, `realloc(t, 8)`), as C programs make strings
//! note: an allocation whose size has no `sizeof` makes that many `char`s; writing a string of 10 characters and its 0 into 8 writes past the buffer (out-of-bounds)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void *realloc(void *, unsigned long);
extern void free(void *);
extern char *strcpy(char *, const char *);
extern unsigned long strlen(const char *);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 10) return 0;
  char *s = malloc(n + 1);
  for (int i = 0; i < n; i++) s[i] = 'a';
  s[n] = 0;
  if (strlen(s) != n) reach_error();
  char *t = malloc(4);
  strcpy(t, "abc");
  t = realloc(t, 8);
  if (t[2] != 'c') reach_error();
  if (n == 3) strcpy(t, "0123456789");
  free(s);
  free(t);
  return 0;
}
