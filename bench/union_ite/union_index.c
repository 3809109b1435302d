extern int __VERIFIER_nondet_int(void);
union U { long long l; unsigned char raw[8]; };
int main(void){ int x = __VERIFIER_nondet_int() & 15;
  union U ua[2]; ua[x & 1].l = x;
  ua[x & 1].l += x;
  ua[x & 1].l += x;
  ua[x & 1].l += x;
  ua[x & 1].l += x;
  return (int)ua[1].l; }
