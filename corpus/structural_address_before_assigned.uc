//! verdict: violated uninit line 8
//! run: input=0 output= error=uninit line 8
//! run: input=1 output=5 result=5
//! source: corpus (no seed listing): the address of a variable taken before it is assigned
//! note: the structural engine keeps "assigned" flags for cells only in programs like this one, where `&x` may come before `x = …`; the read through the pointer in `peek` fails when main's `x` was not assigned first

peek(p) {
  return *p;
}

main() {
  var x, c, r;
  c = input;
  if (c) { x = 5; }
  r = peek(&x);
  output r;
  return r;
}
