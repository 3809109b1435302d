//! verdict: violated null-deref line 41
//! entry: rbt_put
//! run: input= output=1,2,2,55,3 result=0
//! source: 003_2215bd6262288c25.txt digest 7.4 (jPOSE benchmark treemap_put: TreeMap.put, search, insert as a red leaf, first step of fixAfterInsertion)
//! note: the search descends at most 3 levels (a depth bound); an existing key has its value replaced; a new entry is linked to its parent, and if the parent is red and the uncle red too, both turn black and the grandparent red (colour 0 is red, 1 black). Without an invariant the grandparent may be missing

rbt_put(m, k, v) {
  var t, parent, e, d, done, g, u;
  assume(m != null);
  t = m->root;
  parent = null;
  d = 0;
  done = 0;
  while (t != null && d < 3 && done == 0) {
    parent = t;
    if (k < t->key) {
      t = t->left;
    } else {
      if (k > t->key) {
        t = t->right;
      } else {
        t->value = v;
        done = 1;
      }
    }
    d = d + 1;
  }
  if (done == 0 && t == null) {
    e = alloc {key: k, value: v, left: null, right: null, parent: parent, color: 0};
    if (parent == null) {
      e->color = 1;
      m->root = e;
    } else {
      if (k < parent->key) {
        parent->left = e;
      } else {
        parent->right = e;
      }
      if (parent->color == 0) {
        g = parent->parent;
        if (g->left == parent) {
          u = g->right;
        } else {
          u = g->left;
        }
        if (u != null && u->color == 0) {
          parent->color = 1;
          u->color = 1;
          g->color = 0;
        }
      }
    }
    m->size = m->size + 1;
  }
  return m->size;
}

main() {
  var a, m;
  m = alloc {root: null, size: 0};
  output rbt_put(m, 5, 50);
  output rbt_put(m, 3, 30);
  output rbt_put(m, 5, 55);
  a = m->root;
  output a->value;
  output a->left->key;
  return 0;
}
