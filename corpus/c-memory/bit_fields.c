//! verdict: violated assert line 25
//! run: input=3 output= result=11
//! run: input=5 output= result=29
//! run: input=8 output= error=assert line 25
//! source: corpus (no seed listing): bit-fields wrap their stores to their width (`unsigned mode : 3` keeps the low three bits), a signed one sign-extends, and their values promote to `int`
//! note: `set(&r, k)` stores `k` into the 3-bit `mode` and `k - 4` into the signed 4-bit `delta`. For inputs 3 and 5 `mode` is `k` and `delta` is `k - 4` (results 3 + 16 - 8 and 5 + 16 + 8: `delta * 8` is -8 and 8, `(mode - 8 < 0) * 16` is 16 since `mode` promotes to `int`). Input 8 wraps `mode` to 0 although `k` is not 0: the assertion at line 25 fails, as gcc computes it
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
struct reg {
  unsigned mode : 3;
  int delta : 4;
  unsigned : 0;
  unsigned char ready : 1;
};
void set(struct reg *r, int k) {
  r->mode = k;
  r->delta = k - 4;
  r->ready = 1;
}
int main(void) {
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 15) return 0;
  struct reg r;
  set(&r, k);
  if (k != 0 && r.mode == 0) __assert_fail("mode", "bit_fields.c", 25, "main");
  return r.mode + (r.mode - 8 < 0) * 16 + r.delta * 8;
}
