//! verdict: violated div-by-zero line 14
//! run: input=30 output= error=div-by-zero line 14
//! run: input=20 output= result=-100
//! run: input=-3 output= result=0
//! source: corpus (no seed listing): a guard against wrong pruning by path subsumption
//! note: the division by c - 20 fails only in the 21st iteration of an input-bounded loop. No inductive invariant of the header is safe (every candidate that excludes c == 20 is broken by the step c = c + 1, and the vacuous `!(c < n)` covers no state that comes round), so the states must run on and find the error; a wrong invariant would hide it

main() {
  var n, c, q;
  n = input;
  c = 0;
  q = 0;
  while (c < n) {
    q = 100 / (c - 20);
    c = c + 1;
  }
  return q;
}
