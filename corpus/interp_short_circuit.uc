//! verdict: safe
//! paths: 1
//! run: input=7 output=2 result=10
//! run: input=0 output=2 result=10
//! source: corpus (interpreter semantics)
//! note: `&&` and `||` short-circuit: the divisions by b == 0 are never evaluated; as values they yield 0 or 1

main() {
  var a, b, r;
  a = input;
  b = 0;
  r = 0;
  if (b != 0 && a / b > 1) {
    r = 1;
  }
  if (b == 0 || a / b > 1) {
    r = r + 2;
  }
  output r;
  r = (b != 0 && a / b > 1) + 10 * (b == 0 || a / b > 0);
  return r;
}
