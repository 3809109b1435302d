//! verdict: violated assert line 20
//! run: input=1,7,7 output= error=assert line 20
//! run: input=1,3,3 output= result=0
//! run: input=1,3,4 output= result=0
//! run: input=0,0,0 output= result=0
//! source: project (a query of a generated program where Z3 spent seconds)
//! note: the bounds 0 < x < 2 fix x to 1, and x == s then fixes s = 2y - 2z + 1 to 1, so the first assertion is 1 * 1 * 0 == 0; the second fails when y = z = 7
//! note: the forward engine rewrites both assertions with the values the path fixes (the first becomes true without a solver); an engine that substitutes s for x instead faces a 32-bit cubic product

main() {
  var x, y, z, s;
  x = input;
  y = input;
  z = input;
  s = 2 * y - 2 * z + 1;
  if (x > 0) {
    if (x < 2) {
      if (x == s) {
        assert(s * s * (-s / -2) == 0);
        assert(y * s != 7 * s);
      }
    }
  }
  return 0;
}
