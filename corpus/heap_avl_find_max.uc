//! verdict: safe
//! entry: avl_find_max
//! run: input= output=7,-1,3 result=0
//! source: 003_2215bd6262288c25.txt digest 7.4 (jPOSE benchmark avl_findMax: AvlTree.findMax, elementAt(findMaxNode(root)))
//! note: nodes {element, height, left, right}, tree {root}; findMaxNode follows right links from the root and returns the first node without a right child, elementAt gives -1 for null (an empty tree). The walk visits at most 4 nodes (the literal 4 in `d < 4`; the authors' driver sets depthBound 10, i.e. `d < 11`); as in the authors' findMaxNode, a walk cut by the bound returns null, hence -1

find_max_node(n) {
  var r, d;
  r = null;
  d = 0;
  while (n != null && d < 4) {
    if (n->right == null) {
      r = n;
      n = null;
    } else {
      n = n->right;
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

avl_find_max(t) {
  assume(t != null);
  return element_at(find_max_node(t->root));
}

main() {
  var a, b, c, d, t1, t2, t3;
  b = alloc {element: 1, height: 0, left: null, right: null};
  d = alloc {element: 7, height: 0, left: null, right: null};
  c = alloc {element: 5, height: 1, left: null, right: d};
  a = alloc {element: 3, height: 2, left: b, right: c};
  t1 = alloc {root: a};
  t2 = alloc {root: null};
  t3 = alloc {root: alloc {element: 3, height: 1, left: b, right: null}};
  output avl_find_max(t1);
  output avl_find_max(t2);
  output avl_find_max(t3);
  return 0;
}
