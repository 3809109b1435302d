//! verdict: safe
//! entry: rbt_get
//! run: input= output=40,-1 result=0
//! source: 003_2215bd6262288c25.txt digest 7.4 (jPOSE benchmark treemap_get: TreeMap.get, the red-black tree search by key)
//! note: entries {key, value, left, right, parent, color}, map {root, size}; the search descends at most 4 levels. A missing key gives -1

rbt_get(m, k) {
  var p, d, r;
  assume(m != null);
  p = m->root;
  d = 0;
  r = -1;
  while (p != null && d < 4) {
    if (k < p->key) {
      p = p->left;
    } else {
      if (k > p->key) {
        p = p->right;
      } else {
        r = p->value;
        p = null;
      }
    }
    d = d + 1;
  }
  return r;
}

main() {
  var a, b, m;
  a = alloc {key: 2, value: 20, left: null, right: null, parent: null, color: 1};
  b = alloc {key: 4, value: 40, left: null, right: null, parent: a, color: 0};
  a->right = b;
  m = alloc {root: a, size: 2};
  output rbt_get(m, 4);
  output rbt_get(m, 3);
  return 0;
}
