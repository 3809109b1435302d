//! verdict: safe
//! entry: avl_find
//! run: input= output=5,-1 result=0
//! source: 003_2215bd6262288c25.txt digest 7.4 (jPOSE benchmark avl_find: AvlTree.find, a search from the root)
//! note: nodes {element, height, left, right}, tree {root}; the search descends at most 4 levels (the authors' depthBound). Finding nothing returns -1

avl_find(t, x) {
  var n, d, r;
  assume(t != null);
  n = t->root;
  d = 0;
  r = -1;
  while (n != null && d < 4) {
    if (x < n->element) {
      n = n->left;
    } else {
      if (x > n->element) {
        n = n->right;
      } else {
        r = n->element;
        n = null;
      }
    }
    d = d + 1;
  }
  return r;
}

main() {
  var a, b, c, t;
  b = alloc {element: 1, height: 0, left: null, right: null};
  c = alloc {element: 5, height: 0, left: null, right: null};
  a = alloc {element: 3, height: 1, left: b, right: c};
  t = alloc {root: a};
  output avl_find(t, 5);
  output avl_find(t, 4);
  return 0;
}
