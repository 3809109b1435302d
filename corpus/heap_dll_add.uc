//! verdict: violated null-deref line 14
//! entry: dll_add
//! run: input= output=1,5,7 result=2
//! source: 003_2215bd6262288c25.txt digest 7.4 (jPOSE benchmark dll_add: DoubleLinkedList.add of a header-sentinel doubly linked list)
//! note: list {header, size}, entries {element, next, previous}; add links a new entry before the header. The input list is arbitrary (no invariant is assumed), so a header whose previous is null makes the link fail

dll_add(list, x) {
  var h, last, e;
  assume(list != null);
  h = list->header;
  assume(h != null);
  last = h->previous;
  e = alloc {element: x, next: h, previous: last};
  last->next = e;
  h->previous = e;
  list->size = list->size + 1;
  return list->size;
}

main() {
  var h, l, r;
  h = alloc {element: 0, next: null, previous: null};
  h->next = h;
  h->previous = h;
  l = alloc {header: h, size: 0};
  r = dll_add(l, 5);
  output r;
  output h->next->element;
  r = dll_add(l, 7);
  output h->previous->element;
  return r;
}
