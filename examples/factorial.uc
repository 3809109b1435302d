// Recursive factorial of the input; `symex run examples/factorial.uc --input 5` prints 120.
fac(n) {
  var r;
  if (n <= 1) {
    r = 1;
  } else {
    r = n * fac(n - 1);
  }
  return r;
}

main() {
  var n;
  n = input;
  output fac(n);
  return 0;
}
