//! verdict: violated div-by-zero line 19
//! bound: 2
//! run: input=1,-3 output= error=div-by-zero line 19
//! run: input=1,2 output= result=20
//! run: input=0,-3 output= result=100
//! source: corpus (no seed listing): a value with no closed form that IS read after the loop
//! note: y = y * 3 + x has no closed form and the division after the loop reads it, so its value must stay exact: the loop is not summarized (replacing y by a fresh value would be wrong), and plain execution finds n = 1, x = -3 (y = 0)

main() {
  var i, n, x, y;
  n = input;
  x = input;
  y = 1;
  i = 0;
  while (i < n) {
    y = y * 3 + x;
    i = i + 1;
  }
  return 100 / y;
}
