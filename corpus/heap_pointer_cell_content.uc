//! verdict: violated null-deref line 13
//! verdict: violated null-deref line 15
//! verdict: violated assert line 17
//! entry: h
//! run: input= output=1 result=0
//! note: `*qq` reads a cell holding a pointer and `p->f` a field that holds a pointer here but a number in `{f, g}`; the backward engine put the closed-input constraint on pointer fields only, so a model could make `t` or `u` a positive (allocated) reference that no input heap has, and the assertion's witness did not replay
//! source: written for this project (session 9, from a review of the backward engine's witnesses)

// main passes cells holding 3 and 5: 3 + 5 != 7, the run prints 1 and returns 0.

h(qq, p) {
  var t, u;
  t = *qq;
  assume(t != null);
  u = p->f;
  assume(u != null);
  assert(*t + *u != 7);
  return 0;
}

main() {
  var a, b, c;
  a = alloc alloc 3;
  b = alloc {f: alloc 5};
  c = {f: 1, g: 2};
  output c.f;
  return h(a, b);
}
