//! verdict: violated out-of-bounds line 27
//! run: input=258,3 output= result=0
//! run: input=258,4 output= error=out-of-bounds line 27
//! run: input=-1,0 output= result=0
//! source: corpus (no seed listing): character views, `unsigned char *` made by a cast from a pointer to integers (`(unsigned char *)&x`, of an array of `short`s, of a `long long`), read and written byte by byte
//! note: bytes are little-endian as on x86; the view of the one `int` x has bytes 0 to 3, so reading byte 4 is out of bounds (input k = 4)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
unsigned int reversed(unsigned int v) {
  unsigned char *b = (unsigned char *)&v;
  unsigned char t = b[0];
  b[0] = b[3];
  b[3] = t;
  t = b[1];
  b[1] = b[2];
  b[2] = t;
  return v;
}
int main() {
  int x = __VERIFIER_nondet_int();
  int k = __VERIFIER_nondet_int();
  unsigned char *p = (unsigned char *)&x;
  unsigned int sum = p[0] + p[1] + p[2] + p[3];
  if (x == 258 && sum != 3) reach_error();
  if (x == -1 && sum != 4 * 255) reach_error();
  if (reversed(reversed((unsigned int)x)) != (unsigned int)x) reach_error();
  if (k >= 0 && k < 8 && p[k] > 255) reach_error();
  short s[3] = {1, -2, 300};
  unsigned char *q = (unsigned char *)s;
  unsigned char *end = q + sizeof s;
  int total = 0;
  while (q < end) total += *q++;
  if (total != 1 + 254 + 255 + 44 + 1) reach_error();
  signed char *h = (signed char *)&s[1];
  h[1] += 1;
  if (s[1] != 254) reach_error();
  long long l = -2;
  unsigned char *lb = (unsigned char *)&l;
  lb[7] = 0x7f;
  if (l != 0x7ffffffffffffffeLL) reach_error();
  return 0;
}
