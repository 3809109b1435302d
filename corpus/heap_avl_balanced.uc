//! verdict: safe
//! entry: avl_balanced
//! run: input= output=1,0,1 result=0
//! source: 003_2215bd6262288c25.txt digest 7.4 (jPOSE benchmark avl_balanced: AvlTree.balanced, the recursive balancedNode check from the root)
//! note: nodes {element, height, left, right}, tree {root}; as the authors' balancedNode, a node is balanced when the stored heights of its children (-1 for null) are equal or differ by one and both children are balanced. The recursion checks the nodes of depth 0 and 1 (the literal 2 in `depth < 2`, the authors' depthBound 1); deeper nodes count as balanced. Heights are arbitrary 32-bit numbers (`rh + 1` may wrap, as a Java int)

height(n) {
  var h;
  h = -1;
  if (n != null) {
    h = n->height;
  }
  return h;
}

balanced_node(n, depth) {
  var r, lh, rh;
  r = 1;
  if (n != null && depth < 2) {
    lh = height(n->left);
    rh = height(n->right);
    if (lh == rh || lh == rh + 1 || lh + 1 == rh) {
      if (balanced_node(n->left, depth + 1) == 0) {
        r = 0;
      } else {
        r = balanced_node(n->right, depth + 1);
      }
    } else {
      r = 0;
    }
  }
  return r;
}

avl_balanced(t) {
  assume(t != null);
  return balanced_node(t->root, 0);
}

main() {
  var a, b, c, x, y, z, t1, t2, t3;
  b = alloc {element: 1, height: 0, left: null, right: null};
  c = alloc {element: 5, height: 0, left: null, right: null};
  a = alloc {element: 3, height: 1, left: b, right: c};
  t1 = alloc {root: a};
  z = alloc {element: 1, height: 0, left: null, right: null};
  y = alloc {element: 2, height: 1, left: z, right: null};
  x = alloc {element: 3, height: 2, left: y, right: null};
  t2 = alloc {root: x};
  t3 = alloc {root: null};
  output avl_balanced(t1);
  output avl_balanced(t2);
  output avl_balanced(t3);
  return 0;
}
