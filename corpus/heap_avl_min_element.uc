//! verdict: safe
//! entry: avl_min_element
//! run: input= output=1,0,1 result=0
//! source: 003_2215bd6262288c25.txt digest 7.4 (jPOSE benchmark avl_minElement: AvlTree.minElement(x), the authors' minElementN: is x at most every element of the tree)
//! note: nodes {element, height, left, right}, tree {root}; as the authors' minElementN (jPOSE examples/avl.txt), not Weiss's findMin: 0 as soon as a node holds an element less than x, left subtree first, else 1. The recursion visits the nodes of depth 0 and 1 (the literal 2 in `depth < 2`; the authors' driver sets depthBound 2, i.e. `depth < 3`, which lazy initialization does not finish in minutes); deeper nodes are not compared

min_element_node(n, x, depth) {
  var r;
  r = 1;
  if (depth < 2 && n != null) {
    if (n->element < x) {
      r = 0;
    } else {
      if (min_element_node(n->left, x, depth + 1) == 0) {
        r = 0;
      } else {
        r = min_element_node(n->right, x, depth + 1);
      }
    }
  }
  return r;
}

avl_min_element(t, x) {
  assume(t != null);
  return min_element_node(t->root, x, 0);
}

main() {
  var a, b, c, t1, t2;
  b = alloc {element: 1, height: 0, left: null, right: null};
  c = alloc {element: 5, height: 0, left: null, right: null};
  a = alloc {element: 3, height: 1, left: b, right: c};
  t1 = alloc {root: a};
  t2 = alloc {root: null};
  output avl_min_element(t1, 1);
  output avl_min_element(t1, 2);
  output avl_min_element(t2, 0);
  return 0;
}
