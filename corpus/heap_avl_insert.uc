//! verdict: safe
//! entry: avl_insert
//! run: input= output=0,1,1,3 result=0
//! source: 003_2215bd6262288c25.txt digest 7.4 (jPOSE benchmark avl_insertElem: AvlTree.insert with height updates and single rotations)
//! note: recursion is bounded by a depth argument (1 level below the root, as the authors' depthBound); inserting into a left-left or right-right heavy subtree rotates it. Heights of the input are arbitrary (no invariant is assumed)

height(n) {
  var h;
  h = -1;
  if (n != null) {
    h = n->height;
  }
  return h;
}

fix_height(n) {
  var l, r;
  l = height(n->left);
  r = height(n->right);
  if (l > r) {
    n->height = l + 1;
  } else {
    n->height = r + 1;
  }
  return 0;
}

rotate_left_child(k2) {
  var k1, z;
  k1 = k2->left;
  k2->left = k1->right;
  k1->right = k2;
  z = fix_height(k2);
  z = fix_height(k1);
  return k1;
}

rotate_right_child(k1) {
  var k2, z;
  k2 = k1->right;
  k1->right = k2->left;
  k2->left = k1;
  z = fix_height(k1);
  z = fix_height(k2);
  return k2;
}

insert(x, n, depth) {
  var r, z;
  r = n;
  if (n == null) {
    r = alloc {element: x, height: 0, left: null, right: null};
  } else {
    if (depth > 0) {
      if (x < n->element) {
        n->left = insert(x, n->left, depth - 1);
        if (height(n->left) - height(n->right) == 2) {
          r = rotate_left_child(n);
        }
      } else {
        if (x > n->element) {
          n->right = insert(x, n->right, depth - 1);
          if (height(n->right) - height(n->left) == 2) {
            r = rotate_right_child(n);
          }
        }
      }
      z = fix_height(r);
    }
  }
  return r;
}

avl_insert(t, x) {
  assume(t != null);
  t->root = insert(x, t->root, 1);
  return height(t->root);
}

main() {
  var t;
  t = alloc {root: null};
  output avl_insert(t, 3);
  output avl_insert(t, 2);
  output avl_insert(t, 1);
  output t->root->element;
  return 0;
}
