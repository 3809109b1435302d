//! verdict: violated div-by-zero line 26
//! verdict: violated null-deref line 29
//! verdict: violated out-of-bounds line 32
//! verdict: violated uninit line 35
//! verdict: violated assert line 38
//! run: input=0 output=0 result=0
//! run: input=1 output=1 error=div-by-zero line 26
//! run: input=2 output=2 error=null-deref line 29
//! run: input=3 output=3 error=out-of-bounds line 32
//! run: input=4 output=4 error=uninit line 35
//! run: input=5 output=5 error=assert line 38
//! run: input=6 output=6 result=0
//! run: input= output=-1 result=0
//! source: corpus (interpreter semantics)
//! note: the input selects which of the five runtime errors happens; each site is reachable for exactly one input

main() {
  var k, z, p, a, u, r;
  k = input;
  output k;
  z = 0;
  p = null;
  a = [1, 2, 3];
  r = 0;
  if (k == 1) {
    r = 10 / z;
  }
  if (k == 2) {
    r = *p;
  }
  if (k == 3) {
    r = a[k];
  }
  if (k == 4) {
    r = u;
  }
  if (k == 5) {
    assert(r == 1);
  }
  return r;
}
