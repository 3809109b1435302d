//! verdict: violated assert line 18
//! bound: 22
//! run: input=22 output= error=assert line 18
//! run: input=21 output= result=2100000000
//! run: input=-1 output= result=0
//! source: corpus (no seed listing): a summarized sum that wraps around
//! note: s = 100000000 * iterations modulo 2^32; 22 iterations give 2200000000, which wraps to a negative number: the closed form must wrap exactly like the program

main() {
  var i, n, s;
  n = input;
  s = 0;
  i = 0;
  while (i < n) {
    s = s + 100000000;
    i = i + 1;
  }
  assert(s >= 0);
  return s;
}
