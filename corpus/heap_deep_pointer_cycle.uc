//! verdict: violated null-deref line 12
//! verdict: violated assert line 15
//! entry: f
//! run: input= output= error=assert line 15
//! note: `p : μα.↑α` (a cell holding a pointer to a cell like itself); pointers nested deeper than four had no cell kind, so the backward engine let `p` alias `q`'s record cell and its witness stopped on a runtime type error (exit 101) instead of the one-cell cycle that fails the assertion
//! source: written for this project (session 9, from a review of the backward engine's cell kinds)

// main builds the one-cell cycle `*x = x`: `r == p` and the assertion fails.

f(p, q) {
  var r;
  q->val = 4;
  assume(p != null);
  r = *p;
  assert(r != p);
  return 0;
}

main() {
  var x;
  x = alloc null;
  *x = x;
  return f(x, alloc {val: 1});
}
