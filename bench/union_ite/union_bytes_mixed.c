extern void *malloc(unsigned long);
extern void free(void *);
extern int __VERIFIER_nondet_int(void);
struct S0 { unsigned long f0; long f1; unsigned f2; };
union U { unsigned char m0[3]; long long m1[1]; struct S0 m2; unsigned char raw[24]; };
struct W { char tag; union U v; short z; };
int main(void) {
  int x = __VERIFIER_nondet_int() & 15;
  int y = __VERIFIER_nondet_int() & 15;
  union U u, v, ua[2]; struct W w; int i;
  union U *hp = malloc(sizeof(union U)); if (!hp) return 0;
  for (i = 0; i < 24; i++) u.raw[i] = (unsigned char)(i * 172 + 32);
  for (i = 0; i < 24; i++) v.raw[i] = (unsigned char)(i * 41 + 21);
  for (i = 0; i < 24; i++) ua[0].raw[i] = (unsigned char)(i * 78 + 15);
  for (i = 0; i < 24; i++) ua[1].raw[i] = (unsigned char)(i * 211 + 137);
  for (i = 0; i < 24; i++) (*hp).raw[i] = (unsigned char)(i * 122 + 198);
  for (i = 0; i < 24; i++) w.v.raw[i] = (unsigned char)(i * 183 + 218);
  if (u.m0[0] > 32) { ua[1].m2.f2 -= ua[1].m2.f2; ua[x & 1].raw[((unsigned)y % 24u)] = -1; } else { if ((x & 1)) { ua[1].raw[((unsigned)y % 24u)] = y; v.m0[1] += 70000; } else {  } ua[x & 1].m2.f2 -= u.m2.f0; }
  u.m2.f2 = v.m2.f1;
  ua[x & 1].m1[(x & 0)] = (255 - (0x1234 | 70000));
  if ((x & 8)) { u.m2.f1--; v.m0[((unsigned)y % 3u)] = 255; } else {  u.raw[11] = 0x1234; }
  ua[x & 1].m1[0] = ((256 + x) | v.m2.f0);
  ua[x & 1].m1[0]++;
  free(hp);
  return 0;
}

