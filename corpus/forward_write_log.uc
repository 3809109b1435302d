//! verdict: violated assert line 30
//! run: input=3,3,3,3 output= error=assert line 30
//! run: input=3,3,2,3 output= result=2
//! run: input=5 output= result=-1
//! run: input=0,1,0,0 output= result=2
//! run: input=1,2,3,39 output= result=0
//! run: input=1,2,3,40 output= result=-1
//! source: corpus (no seed listing): counters in an array of 40 numbers, raised at input indices and read at another input index
//! note: an array of 40 numbers written at an input index becomes a write log in the forward engine (`forward/write_log.rs`): a read at `j` is a chain over the (at most three) writes, not over the 40 elements. The counter at `j` reaches 3 only when all three inputs are `j`. The writes' indices are below 4 so that `--index-mode fork` forks 4 ways per write, not 40
main() {
  var a, k, i, j, r, ok;
  a = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  ok = 1;
  k = 0;
  while (k < 3) {
    i = input;
    if (i < 0 || i >= 4) {
      ok = 0;
      k = 3;
    } else {
      a[i] = a[i] + 1;
      k = k + 1;
    }
  }
  r = -1;
  if (ok == 1) {
    j = input;
    if (j >= 0 && j < 40) {
      r = a[j];
      assert(r < 3);
    }
  }
  return r;
}
