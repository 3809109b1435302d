//! verdict: violated assert line 23
//! run: input=1,0 output= result=10
//! run: input=0,0 output= result=20
//! run: input=1,7 output= error=assert line 23
//! source: corpus (no seed listing): seed 002 §5.4.3.1 (merged pointers keep their aliasing)
//! note: p aliases x on one side of the first if and y on the other; after a merge p is an ite of two cells, the write through p must change only the aliased one, and q = p must keep aliasing p; the assert fails only when x was written and the second input is 7

main() {
  var x, y, p, q, k;
  x = 0;
  y = 0;
  if (input > 0) {
    p = &x;
  } else {
    p = &y;
  }
  q = p;
  *q = 10;
  k = input;
  if (x == 10) {
    *p = *p + k;
  }
  assert(x != 17);
  return x + y + y;
}
