//! verdict: safe
//! run: input=3,2 output= result=43
//! run: input=0,5 output= result=16
//! source: corpus (no seed listing): seed 002 §6.3.3's generated programs with heap records and an array
//! note: a record pointer assigned only fresh cells (never null) and an array local assigned only a 4-element literal, read with literal indices inside input-bounded nested loops; the values read from memory are unknown to the proof (any value), the null and bounds checks are decided by what the locals can hold. `--subsume` proves both headers
main() {
  var h, a, s, i, j, n, m;
  n = input;
  m = input;
  h = alloc {val: 7, next: null};
  a = [1, 2, 3, 4];
  s = 0;
  i = 0;
  while (i < n) {
    j = 0;
    while (j < m) {
      if (h->val > a[2]) {
        a[1] = s;
      }
      h->val = h->val + a[3];
      j = j + 1;
    }
    s = s + a[0];
    i = i + 1;
  }
  return s + h->val + a[3] * 2 + a[0];
}
