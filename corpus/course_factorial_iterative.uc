//! verdict: safe
//! paths: 1
//! run: input= output=120,479001600 result=3628800
//! source: corpus (course program)
//! note: iterative factorial of constants; 12! is the largest factorial that fits in 32 bits

fact(n) {
  var r;
  r = 1;
  while (n > 0) {
    r = r * n;
    n = n - 1;
  }
  return r;
}

main() {
  output fact(5);
  output fact(12);
  return fact(10);
}
