//! verdict: safe
//! run: input=25 output= result=10
//! run: input=5 output= result=5
//! run: input=-3 output= result=0
//! source: corpus (no seed listing): a sequential multi-path loop (seed 002 §4.4.2.3, like listing 3.2)
//! note: the path with i < 10 runs first, then the other one until i == n; low counts the first phase and high three times the second, without wrap-around because n <= 1000000

main() {
  var i, n, low, high;
  n = input;
  assume(n <= 1000000);
  i = 0;
  low = 0;
  high = 0;
  while (i < n) {
    if (i < 10) {
      low = low + 1;
    } else {
      high = high + 3;
    }
    i = i + 1;
  }
  assert(low <= 10);
  assert(low + high / 3 == i);
  return low;
}
