//! verdict: safe
//! paths: 1
//! run: input= output=1,2,10,2,1,20,1 result=119
//! source: corpus (interpreter semantics)
//! note: records are values: `s = r` copies, `alloc r` stores a copy in a fresh cell, `r = *p` copies out of the cell; writes to one copy never show in another

main() {
  var r, s, p;
  r = {a: 1, b: 2};
  s = r;
  s.a = 10;
  p = alloc r;
  p->b = 20;
  output r.a;
  output r.b;
  output s.a;
  output s.b;
  output (*p).a;
  output p->b;
  r = *p;
  r.a = 99;
  output p->a;
  return r.a + r.b;
}
