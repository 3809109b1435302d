//! verdict: safe
//! paths: 16
//! run: input=1,1,1,1 output= result=4000
//! run: input=0,0,0,0 output= result=-4
//! run: input=1,0,0,1 output= result=1998
//! source: corpus (no seed listing): a review's program for issue 26, written in micro-c
//! note: every one of the 16 ways through the loop is safe. Under `--subsume` a pruned state at the header carries the header's annotation back, a disjunction over the explored suffixes with a universally quantified input each; carried back whole, the disjuncts for more iterations than the pruned state has left grew by one iteration at each one walked back, and the annotations grew without end (over 100 s, then `unknown`). Only the disjuncts the pruned state's values do not falsify are carried back now (docs/path-subsumption.md)
main() {
  var x, i, c;
  x = 0;
  i = 0;
  while (i < 4) {
    c = input;
    if (c) {
      x = x + 1000;
    } else {
      x = x - 1;
    }
    i = i + 1;
  }
  assert(x <= 4000);
  assert(x >= -4);
  return x;
}
