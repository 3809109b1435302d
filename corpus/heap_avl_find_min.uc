//! verdict: safe
//! entry: avl_find_min
//! run: input= output=1,-1,5 result=0
//! source: 003_2215bd6262288c25.txt digest 7.4 (jPOSE benchmark avl_findMin: AvlTree.findMin, elementAt(findMinNode(root)))
//! note: nodes {element, height, left, right}, tree {root}; findMinNode follows left links from the root and returns the first node without a left child, elementAt gives -1 for null (an empty tree). The walk visits at most 4 nodes (the literal 4 in `d < 4`; the authors' driver sets depthBound 10, i.e. `d < 11`); as in the authors' findMinNode, a walk cut by the bound returns null, hence -1

find_min_node(n) {
  var r, d;
  r = null;
  d = 0;
  while (n != null && d < 4) {
    if (n->left == null) {
      r = n;
      n = null;
    } else {
      n = n->left;
    }
    d = d + 1;
  }
  return r;
}

element_at(n) {
  var r;
  r = -1;
  if (n != null) {
    r = n->element;
  }
  return r;
}

avl_find_min(t) {
  assume(t != null);
  return element_at(find_min_node(t->root));
}

main() {
  var a, b, c, d, t1, t2, t3;
  b = alloc {element: 1, height: 0, left: null, right: null};
  c = alloc {element: 3, height: 1, left: b, right: null};
  d = alloc {element: 9, height: 0, left: null, right: null};
  a = alloc {element: 5, height: 2, left: c, right: d};
  t1 = alloc {root: a};
  t2 = alloc {root: null};
  t3 = alloc {root: alloc {element: 5, height: 1, left: null, right: d}};
  output avl_find_min(t1);
  output avl_find_min(t2);
  output avl_find_min(t3);
  return 0;
}
