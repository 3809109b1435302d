//! verdict: violated out-of-bounds line 27
//! run: input=1 output= error=out-of-bounds line 27
//! run: input=0 output= result=0
//! source: corpus (no seed listing): `strcpy`, `strcmp`, `strlen` and `memmove` as C programs copy, compare and shift strings and arrays
//! note: `strcpy` into a buffer of 3 characters of a string of 3 characters and its 0 writes past the buffer (out-of-bounds); `strcmp` gives the sign C requires; `memmove` shifts an array both ways over itself
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern char *strcpy(char *, const char *);
extern int strcmp(const char *, const char *);
extern unsigned long strlen(const char *);
extern void *memmove(void *, const void *, unsigned long);
int main() {
  char a[8] = "abc";
  char b[8];
  strcpy(b, a);
  if (strcmp(a, b) != 0) reach_error();
  if (strlen(b) != 3) reach_error();
  if (strcmp("abd", a) <= 0) reach_error();
  if (strcmp(a, "abcd") >= 0) reach_error();
  int v[6] = {1, 2, 3, 4, 5, 6};
  memmove(v + 1, v, 4 * sizeof(int));
  if (v[1] != 1 || v[4] != 4 || v[5] != 6) reach_error();
  memmove(v, v + 2, 3 * sizeof(int));
  if (v[0] != 2 || v[2] != 4) reach_error();
  int k = __VERIFIER_nondet_int();
  char small[3];
  if (k == 1) strcpy(small, a);
  return 0;
}
