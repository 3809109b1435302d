//! verdict: violated out-of-bounds line 12
//! run: input=0 output= result=3
//! run: input=1 output= error=out-of-bounds line 12
//! source: corpus (no seed listing): string literals as read-only character arrays, walked through a pointer, with a walk that misses the terminating 0
//! note: "abc" has four characters, its 0 last; the first walk stops at the 0, the second skips it when the input asks and reads past the end of the literal
extern int __VERIFIER_nondet_int(void);
int length(const char *s) { int n = 0; while (*s) { s++; n++; } return n; }
int main(void) {
  const char *word = "abc";
  int skip = __VERIFIER_nondet_int();
  const char *p = word + length(word);
  if (skip) { p++; return *p; }
  return p - word;
}
