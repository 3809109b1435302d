// Divides by an input-dependent value: `--input 7` divides by zero.
main() {
  var x, y;
  x = input;
  y = 100 / (x - 7);
  output y;
  return y;
}
