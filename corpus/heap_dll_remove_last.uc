//! verdict: violated null-deref line 15
//! verdict: violated null-deref line 17
//! verdict: violated null-deref line 18
//! entry: dll_remove_last
//! run: input= output=20,10,1,-1,10,0,-1,0 result=0
//! source: 003_2215bd6262288c25.txt digest 7.4 (jPOSE benchmark dll_removeLast: DoubleLinkedList.removeLast, unlink header.previous)
//! note: list {header, size}, entries {element, next, previous}; the header is assumed non-null. As the authors' removeLast: the element of header.previous is read, then removeE unlinks the entry (e.previous.next = e.next; e.next.previous = e.previous; size - 1) unless it is the header itself (an empty list, where java.util throws; here the header's element is returned and nothing changes). No loop, so no bound. Missing links of an arbitrary input list make the read or either write fail

dll_remove_last(list) {
  var h, e, r;
  assume(list != null);
  h = list->header;
  assume(h != null);
  e = h->previous;
  r = e->element;
  if (e != h) {
    e->previous->next = e->next;
    e->next->previous = e->previous;
    list->size = list->size - 1;
  }
  return r;
}

main() {
  var h, a, b, l;
  h = alloc {element: -1, next: null, previous: null};
  a = alloc {element: 10, next: null, previous: h};
  b = alloc {element: 20, next: h, previous: a};
  h->next = a;
  a->next = b;
  h->previous = b;
  l = alloc {header: h, size: 2};
  output dll_remove_last(l);
  output h->previous->element;
  output l->size;
  output a->next->element;
  output dll_remove_last(l);
  output l->size;
  output dll_remove_last(l);
  output l->size;
  return 0;
}
