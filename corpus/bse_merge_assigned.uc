//! verdict: violated null-deref line 14
//! entry: f
//! run: input= output= result=0
//! source: found by the backward/forward differential test (crates/engine/tests/backward_differential.rs)
//! note: b is assigned on one branch only; conjunct combination once let the other branch's symbol for b (non-null by the assume) constrain the assigned branch too, and answered safe

f(p, q) {
  var b;
  b = q;
  assume(b != null);
  if (p != null) {
    b = p->next;
  }
  b->next = null;
  return 0;
}

main() {
  var x;
  x = alloc {val: 1, next: null};
  x->next = x;
  return f(x, x);
}
