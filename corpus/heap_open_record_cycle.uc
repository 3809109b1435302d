//! verdict: violated assert line 16
//! entry: g
//! run: input= output= result=0
//! note: `q = p->next` gives `q` the open record type {val}, which never meets `p`'s record type in the program, yet `p->next == p` is a well-typed input heap (a one-node cycle) and the only one that fails the assertion; the heap models and the backward engine once let input objects alias only on equal types and said safe
//! source: written for this project (session 8, open record types in input heaps)

// main's list is acyclic: the run returns 0.

g(p) {
  var q;
  if (p != null) {
    q = p->next;
    if (q != null) {
      p->val = 1;
      q->val = 2;
      assert(p->val == 1);
    }
  }
  return 0;
}

main() {
  var o;
  o = alloc {val: 0, next: null};
  return g(o);
}
