//! verdict: violated assert line 22
//! entry: f
//! run: input= output=7,3 result=0
//! note: a write through `n` (read from `a`) comes before `b` is first dereferenced; where `b` is `n` its field reads the written 7 (POSE replays the write over the slot it initializes later; the assert of line 20 holds), and the assert of line 22 fails only where they alias or `b.val` was 7 already
//! source: written for this project (session 54, POSE's aliasing clauses and replayed writes)

// main passes a list a -> n and a distinct b holding 3: the run prints 7 and 3, returns 0.

f(a, b) {
  var n, x;
  assume(a != null);
  n = a->next;
  assume(n != null);
  n->val = 7;
  output n->val;
  assume(b != null);
  x = b->val;
  output x;
  if (b == n) {
    assert(x == 7);
  }
  assert(x != 7);
  return 0;
}

main() {
  var a, n, b;
  n = alloc {val: 1, next: null};
  a = alloc {val: 0, next: n};
  b = alloc {val: 3, next: null};
  return f(a, b);
}
