//! verdict: safe
//! run: input=1,2,3 output=3 result=6
//! run: input= output=0 result=0
//! run: input=5,-1,7 output=1 result=5
//! source: corpus (interpreter semantics)
//! note: sums the input up to the first -1, which is also what `input` yields once the input list is exhausted (the course convention); no operation can fail, but the loop may run forever on symbolic input

main() {
  var x, n, s;
  s = 0;
  n = 0;
  x = input;
  while (x != -1) {
    s = s + x;
    n = n + 1;
    x = input;
  }
  output n;
  return s;
}
