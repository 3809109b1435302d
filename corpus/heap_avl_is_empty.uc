//! verdict: safe
//! entry: avl_is_empty
//! run: input= output=1,0 result=0
//! source: 003_2215bd6262288c25.txt digest 7.4 (jPOSE benchmark avl_isEmpty: AvlTree.isEmpty, root == null)
//! note: nodes {element, height, left, right}, tree {root}; 1 for an empty tree, 0 otherwise. No loop, so no bound

avl_is_empty(t) {
  var r;
  assume(t != null);
  r = 0;
  if (t->root == null) {
    r = 1;
  }
  return r;
}

main() {
  var t1, t2;
  t1 = alloc {root: null};
  t2 = alloc {root: alloc {element: 4, height: 0, left: null, right: null}};
  output avl_is_empty(t1);
  output avl_is_empty(t2);
  return 0;
}
