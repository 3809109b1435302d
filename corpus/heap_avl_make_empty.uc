//! verdict: safe
//! entry: avl_make_empty
//! run: input= output=4,1 result=0
//! source: 003_2215bd6262288c25.txt digest 7.4 (jPOSE benchmark avl_makeEmpty: AvlTree.makeEmpty, root = null)
//! note: nodes {element, height, left, right}, tree {root}; the root is dropped (a write through the receiver only, nothing of the input tree is read). No loop, so no bound

avl_make_empty(t) {
  assume(t != null);
  t->root = null;
  return 0;
}

main() {
  var t, z, e;
  t = alloc {root: alloc {element: 4, height: 0, left: null, right: null}};
  output t->root->element;
  z = avl_make_empty(t);
  e = 0;
  if (t->root == null) {
    e = 1;
  }
  output e;
  return z;
}
