//! verdict: violated null-deref line 17
//! verdict: violated null-deref line 18
//! verdict: violated assert line 19
//! entry: g
//! run: input= output= error=assert line 19
//! note: `a[i]` at a symbolic index is one reference `ite(i = 0, p, q)` over two input references that nothing resolved yet; lazy initialization and lazier# resolved only a reference that is a plain symbol and stopped with an internal error at `r->val`. The assertion fails only when `p` and `q` are one object (main's run)
//! source: written for this project (2026-11-28, from a review of merged input references)

// The entry's parameters are input references; main passes one object twice, the only kind
// of input heap on which the assertion fails.

g(p, q, i) {
  var a, r;
  a = [p, q];
  if (i >= 0 && i < 2) {
    r = a[i];
    r->val = 7;
    q->val = 1;
    assert(i != 0 || p->val == 7);
  }
  return 0;
}

main() {
  var o;
  o = alloc {val: 0};
  return g(o, o, 0);
}
