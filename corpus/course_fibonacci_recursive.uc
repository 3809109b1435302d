//! verdict: safe
//! paths: 1
//! run: input= output=0,1,55 result=6765
//! source: corpus (course program)
//! note: doubly recursive Fibonacci of constants: fib(0), fib(1), fib(10), fib(20)

fib(n) {
  var r;
  if (n < 2) {
    r = n;
  } else {
    r = fib(n - 1) + fib(n - 2);
  }
  return r;
}

main() {
  output fib(0);
  output fib(1);
  output fib(10);
  return fib(20);
}
