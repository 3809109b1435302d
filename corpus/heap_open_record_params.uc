//! verdict: violated assert line 14
//! entry: h
//! run: input= output= result=0
//! note: the two parameters have the record types {val} and {next, val}, which never meet in the program; both may point to one input object, and only then does the assertion fail (`q->next` is read only to give `q` the larger type)
//! source: written for this project (session 8, open record types in input heaps)

h(p, q) {
  var n;
  assume(p != null);
  assume(q != null);
  p->val = 1;
  q->val = 2;
  n = q->next;
  assert(p->val == 1);
  return 0;
}

main() {
  return 0;
}
