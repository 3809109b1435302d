//! verdict: violated null-deref line 16
//! entry: f
//! run: input= output=1 result=0
//! note: `pp` points to a cell holding `↑α` (only ever null), `qq` to one holding `↑{val}`; the cells may be one, and only then is `r` null; the heap models once let input cells alias only on equal types and said safe
//! source: written for this project (session 8, from a review of the input-heap types)

// main passes two distinct cells: the run prints 1 and returns 0.

f(pp, qq) {
  var r;
  assume(pp != null);
  assume(qq != null);
  *qq = alloc {val: 1};
  *pp = null;
  r = *qq;
  output r->val;
  r->val = 2;
  return 0;
}

main() {
  var a, b;
  a = alloc null;
  b = alloc null;
  return f(a, b);
}
