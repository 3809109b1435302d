//! verdict: safe
//! run: input=5,2,7 output= result=9
//! run: input=0,1,1 output= result=100
//! run: input=-3,4,4 output= result=100
//! source: corpus (no seed listing): loop summarization with a value nobody reads (seed 002 §4.4.1, category (a) widened)
//! note: y changes in no closed form (y * a[1] + x), but nothing after the loop and no condition or check reads it, so the summary gives it a fresh value; r grows by the loop-invariant a[0] - 1 = 2 (a read of memory the loop never writes), so r + 1 is odd and never 0; the loop runs n times, up to 2^31 - 1: plain execution cannot finish, --summarize proves it

main() {
  var i, n, x, y, r, a;
  n = input;
  x = input;
  y = input;
  a = [3, x, 5];
  r = 0;
  i = 0;
  while (i < n) {
    y = y * a[1] + x;
    r = r + a[0] - 1;
    i = i + 1;
  }
  return 100 / (r + 1);
}
