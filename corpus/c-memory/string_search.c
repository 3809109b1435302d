//! verdict: violated null-deref line 30
//! run: input=1 output= error=null-deref line 30
//! run: input=117 output= result=0
//! run: input=373 output= result=0
//! run: input=0 output= result=0
//! source: corpus (no seed listing): `strchr` and `strrchr` as C programs split paths
//! note: the pointers they return point into the string's array, at its 0 too; a character that is not in the string gives null, and writing through it is a null dereference (input 373 is `'u' + 256`, the same `char`)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern char *strchr(const char *, int);
extern char *strrchr(const char *, int);
int main() {
  char path[16] = "usr/lib/x.c";
  char *slash = strchr(path, '/');
  if (slash != path + 3) reach_error();
  char *last = strrchr(path, '/');
  if (last - path != 7) reach_error();
  if (strchr(path, 'z') != 0) reach_error();
  if (strrchr(path, 'z') != 0) reach_error();
  if (strchr(path, 0) != path + 11) reach_error();
  if (strrchr(path, 0) != path + 11) reach_error();
  char *dot = strrchr(path, '.');
  *dot = 0;
  if (strchr(path, '.') != 0) reach_error();
  if (strchr(last + 1, 'x') != last + 1) reach_error();
  if (strchr("abc", 'c') == 0) reach_error();
  int c = __VERIFIER_nondet_int();
  char *hit = strchr(path, c);
  if (hit != 0 && *hit != (char)c) reach_error();
  *hit = 'X';
  return 0;
}
