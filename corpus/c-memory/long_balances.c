//! verdict: violated assert line 23
//! run: input=0 output= result=0
//! run: input=2,0,5,0,7 output= result=2
//! run: input=3,0,-1,0,-1,0,-1 output= result=0
//! run: input=3,0,-294967296,0,-294967296,0,-294967296 output= error=assert line 23
//! run: input=3,0,-294967296,0,-294967296,0,1 output= result=3
//! source: corpus (no seed listing): a balance in a `long` member summing up to three deposits of up to 4,000,000,000 each (64-bit inputs), checked against 10^10 and against going negative
//! note: a deposit is beyond 32 bits, so the sum is 64-bit arithmetic (docs/c-frontend.md, "64-bit integers are 64-bit IR numbers"); each `__VERIFIER_nondet_long` reads two inputs, the high half first; the balance never goes negative (line 24 is safe), and three deposits near the limit pass 10^10
extern int __VERIFIER_nondet_int(void);
extern long __VERIFIER_nondet_long(void);
extern void reach_error(void);
struct account { long balance; unsigned long deposits; };
int main(void) {
  struct account a = { 0, 0 };
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 3) return 0;
  for (int i = 0; i < n; i++) {
    long amount = __VERIFIER_nondet_long();
    if (amount <= 0 || amount > 4000000000L) continue;
    a.balance += amount;
    a.deposits++;
  }
  if (a.balance > 10000000000L) reach_error();
  if (a.balance < 0) reach_error();
  return (int)a.deposits;
}
