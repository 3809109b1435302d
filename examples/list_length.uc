// A bug reachable only when the list has a cycle of length 2 (from docs/microc.md).
length(l) {
  var n;
  n = 0;
  while (l != null && n < 10) { l = l->next; n = n + 1; }
  return n;
}

main() {
  var a, b;
  a = alloc {val: input, next: null};
  b = alloc {val: input, next: a};
  if ((*a).val > 5) { a->next = b; }
  assert(length(b) < 10);
  return 0;
}
