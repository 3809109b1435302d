//! run: input=1,2,3 output=3,2,1 result=3
//! run: input= output= result=0
//! run: input=4,-1,5 output=4 result=1
//! run: input=-7,0,2147483647 output=2147483647,0,-7 result=3
//! source: corpus (course program)
//! note: builds a linked list of heap records {val, next} from the input up to -1 (or its end), reverses it in place, prints it and returns its length

build() {
  var head, tail, x, node;
  head = null;
  tail = null;
  x = input;
  while (x != -1) {
    node = alloc {val: x, next: null};
    if (tail == null) {
      head = node;
    } else {
      tail->next = node;
    }
    tail = node;
    x = input;
  }
  return head;
}

reverse(l) {
  var prev, next;
  prev = null;
  while (l != null) {
    next = l->next;
    l->next = prev;
    prev = l;
    l = next;
  }
  return prev;
}

main() {
  var l, n;
  l = reverse(build());
  n = 0;
  while (l != null) {
    output l->val;
    n = n + 1;
    l = l->next;
  }
  return n;
}
