//! verdict: violated assert line 24
//! run: input=5 output= result=5
//! run: input=258 output= result=3
//! run: input=65543 output= result=9
//! run: input=16777223 output= error=assert line 24
//! source: corpus (no seed listing): a union is its bytes, so reading a member other than the one last written gives the bytes a real machine holds (x86, least significant first), also through a struct member and a copy passed by value
//! note: `p.word = k` writes four bytes; `p.header.kind` reads the low two and `p.header.length` the high two, `p.bytes[i]` each one, and `checksum` sums the bytes of a copy. Input 258 (0x102) has bytes 2 and 1: sum 3, length 0. Input 65543 (0x10007) has kind 7 but byte 3 is 0: sum 8, length 1. Input 16777223 (0x1000007) has kind 7 and byte 3 equal to 1: the assertion at line 24 fails, as gcc computes it
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
union packet {
  unsigned int word;
  unsigned char bytes[4];
  struct { unsigned short kind; unsigned short length; } header;
};
int checksum(union packet p) {
  int sum = 0;
  for (int i = 0; i < 4; i++) sum += p.bytes[i];
  return sum;
}
int main(void) {
  int k = __VERIFIER_nondet_int();
  union packet p;
  p.word = (unsigned)k;
  if (p.header.kind == 7 && p.bytes[3] == 1) __assert_fail("kind", "unions.c", 24, "main");
  return checksum(p) + p.header.length;
}
