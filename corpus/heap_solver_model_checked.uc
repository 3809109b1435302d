//! verdict: violated null-deref line 19
//! verdict: violated assert line 22
//! entry: f
//! bound: 3
//! run: input= output= result=2
//! note: under `disj-set` with `--unwind 3`, Z3 4.8.12 in process (with the backward engine's search settings) answered the assertion's query `sat` with a model that falsifies the query (`p1 != p2` and `n == 2 * p2->val == 3`); the witness did not replay (exit 101) until the engine began checking every model against its query and restarting on a bad one
//! source: written for this project (session 9, reduced by a review from a generated heap program)

// main passes a two-node list whose values never sum to 3: the run returns 2.

f(p1, p2, s) {
  var x, n, k;
  assume(p1 != null);
  assume(s != null);
  x = p1;
  n = 0;
  k = 0;
  while (x != null && k < 2) { p1->val = x->val + 1; x = x->next; k = k + 1; }
  n = n + p2->val;
  if (p2 != p1) { n = n + p2->val; }
  p1->next = p2;
  assert(n != 3);
  return n;
}

main() {
  var a, b;
  a = alloc {val: 0, next: null};
  b = alloc {val: 1, next: a};
  return f(a, b, alloc {val: alloc 2, w: 0});
}
