//! verdict: safe
//! paths: 1
//! run: input= output=7,40 result=47
//! source: corpus (interpreter semantics)
//! note: `&x` of locals: a callee increments the caller's x through a pointer (twice), then a write through `&y` changes y

inc(p) {
  *p = *p + 1;
  return 0;
}

main() {
  var x, y, p, q;
  x = 5;
  p = &x;
  y = inc(p);
  y = inc(&x);
  output x;
  q = &y;
  *q = 40;
  output y;
  return x + y;
}
