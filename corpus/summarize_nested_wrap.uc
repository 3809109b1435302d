//! verdict: violated assert line 22
//! run: input=1 output= error=assert line 22
//! run: input=2 output= result=1705032704
//! run: input=0 output= result=0
//! source: corpus (no seed listing): nested loop summarization with 32-bit wrap-around
//! note: each outer iteration adds 3 * 1000000000 to s, which wraps to -1294967296 after the first one (with unbounded integers s would never be negative); two iterations give 6000000000 - 2^32 = 1705032704

main() {
  var i, j, n, s;
  n = input;
  assume(n >= 0);
  i = 0;
  s = 0;
  while (i < n) {
    j = 0;
    while (j < 3) {
      s = s + 1000000000;
      j = j + 1;
    }
    i = i + 1;
  }
  assert(s >= 0);
  return s;
}
