//! verdict: violated assert line 26
//! entry: typed_cells
//! run: input= output=2,2 result=1
//! note: a list {val, next} and a tree {val, left, right} reached from two parameters, `val` a field name of both; the first two assertions fail only if one input cell were both a list node and a tree node (the untyped array heap once allowed that model); the third fails for a well-typed heap (l->next not null, t->left null)
//! source: issue 6 (typed input cells of the backward engine), written for this project

typed_cells(l, t) {
  var n, s, k;
  assume(l != null);
  assume(t != null);
  l->val = 1;
  t->val = 2;
  assert(l->val == 1);
  n = l->next;
  if (n != null) {
    n->val = 3;
    assert(t->val == 2);
  }
  s = t->left;
  k = 0;
  if (s == null) {
    k = 1;
  }
  n = l->next;
  if (n != null) {
    assert(n->val + k != 4);
  }
  return l->val + k;
}

main() {
  var a, b, r, x;
  a = alloc {val: 0, next: null};
  b = alloc {val: 7, next: null};
  a->next = b;
  r = alloc {val: 0, left: null, right: null};
  r->left = alloc {val: 5, left: null, right: null};
  x = typed_cells(a, r);
  output x + 1;
  output r->val;
  return x;
}
