//! verdict: violated null-deref line 15
//! verdict: violated null-deref line 17
//! verdict: violated null-deref line 18
//! entry: dll_remove_first
//! run: input= output=10,20,1,-1,20,0,-1,0 result=0
//! source: 003_2215bd6262288c25.txt digest 7.4 (jPOSE benchmark dll_removeFirst: DoubleLinkedList.removeFirst, unlink header.next)
//! note: list {header, size}, entries {element, next, previous}; the header is assumed non-null. As the authors' removeFirst: the element of header.next is read, then removeE unlinks the entry (e.previous.next = e.next; e.next.previous = e.previous; size - 1) unless it is the header itself (an empty list, where java.util throws; here the header's element is returned and nothing changes). No loop, so no bound. Missing links of an arbitrary input list make the read or either write fail

dll_remove_first(list) {
  var h, e, r;
  assume(list != null);
  h = list->header;
  assume(h != null);
  e = h->next;
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
  output dll_remove_first(l);
  output h->next->element;
  output l->size;
  output b->previous->element;
  output dll_remove_first(l);
  output l->size;
  output dll_remove_first(l);
  output l->size;
  return 0;
}
