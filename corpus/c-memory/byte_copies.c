//! verdict: violated out-of-bounds line 31
//! run: input=0 output= result=0
//! run: input=4 output= result=0
//! run: input=5 output= error=out-of-bounds line 31
//! source: corpus (no seed listing): bytes copied between integers of different types (`memcpy(&x, buf, sizeof x)` of a character buffer into an `int`, `memcpy(out, &x, 4)` back, a `short` array filled from an `int`), a byte `memset` through a character view, and a checksum over a view passed to a function
//! note: the copy into the never-assigned `x` writes all four of its bytes, so it is modelled; the last copy reads bytes k to k + 3 of the 8-byte buffer, past its end for k = 5 or more (out-of-bounds)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *memcpy(void *, const void *, unsigned long);
extern void *memset(void *, int, unsigned long);
unsigned int checksum(const unsigned char *p, int n) {
  unsigned int sum = 0;
  for (int i = 0; i < n; i++) sum = sum * 31 + p[i];
  return sum;
}
int main() {
  unsigned char buf[8] = {0x78, 0x56, 0x34, 0x12, 0xff, 0xff, 0xff, 0xff};
  int x;
  memcpy(&x, buf, sizeof x);
  if (x != 0x12345678) reach_error();
  unsigned char out[4];
  memcpy(out, &x, 4);
  if (checksum(out, 4) != checksum((unsigned char *)&x, sizeof x)) reach_error();
  short s[2];
  memcpy(s, &x, sizeof x);
  if (s[0] != 0x5678 || s[1] != 0x1234) reach_error();
  memset((unsigned char *)&x + 1, 0, 2);
  if (x != 0x12000078) reach_error();
  int k = __VERIFIER_nondet_int();
  int y = 0;
  if (k >= 0) memcpy(&y, buf + k, 4);
  if (k == 4 && y != -1) reach_error();
  return 0;
}
