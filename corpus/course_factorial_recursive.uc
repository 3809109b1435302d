//! run: input=5 output= result=120
//! run: input=0 output= result=1
//! run: input=-3 output= result=1
//! run: input=12 output= result=479001600
//! run: input=13 output= result=1932053504
//! run: input= output= result=1
//! source: corpus (course program)
//! note: recursive factorial of an input; 13! = 6227020800 wraps to 1932053504 as a 32-bit (JVM) Int; an exhausted input reads -1
//! note: no verdict: the recursion depth follows the input, so an unbounded analysis does not terminate

fact(n) {
  var r;
  if (n <= 0) {
    r = 1;
  } else {
    r = n * fact(n - 1);
  }
  return r;
}

main() {
  return fact(input);
}
