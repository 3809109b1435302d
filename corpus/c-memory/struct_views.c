//! verdict: violated assert line 31
//! verdict: violated out-of-bounds line 34
//! run: input=0,0 output= result=0
//! run: input=7,0 output= error=assert line 31
//! run: input=1,8 output= error=out-of-bounds line 34
//! source: corpus (no seed listing): the bytes of structs of integers through character views: a hash over a record's bytes in a function, a copy into a byte buffer and back with `memcpy`, `memcmp` of two records, and one byte written through a view
//! note: `struct rec` has no padding (8 bytes: `id` at 0, `flags` at 4, `port` at 6); the write of byte 4 changes `flags` only, so the hashes differ for every `id`, and the assertion that reaches the error holds exactly when id is 7; the last read is byte k of the 8-byte record, past its end for k = 8 (out-of-bounds)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *memcpy(void *, const void *, unsigned long);
extern int memcmp(const void *, const void *, unsigned long);
struct rec { int id; unsigned short flags; unsigned short port; };
unsigned int hash(const struct rec *r) {
  const unsigned char *p = (const unsigned char *)r;
  unsigned int h = 5381;
  for (unsigned int i = 0; i < sizeof *r; i++) h = h * 33 + p[i];
  return h;
}
int main() {
  struct rec r;
  r.id = __VERIFIER_nondet_int();
  r.flags = 1;
  r.port = 80;
  unsigned char buf[8];
  memcpy(buf, &r, sizeof r);
  struct rec copy;
  memcpy(&copy, buf, sizeof copy);
  if (memcmp(&copy, &r, sizeof r) != 0 || hash(&copy) != hash(&r)) reach_error();
  ((unsigned char *)&r)[4] = 2;
  if (r.flags != 2 || r.port != 80) reach_error();
  if (r.id == 7 && hash(&r) != hash(&copy)) reach_error();
  int k = __VERIFIER_nondet_int();
  if (k < 0) return 0;
  return ((unsigned char *)&copy)[k] * 0;
}
