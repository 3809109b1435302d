//! verdict: violated null-deref line 15
//! entry: dll_get_last
//! run: input= output=20,-1 result=0
//! source: 003_2215bd6262288c25.txt digest 7.4 (jPOSE benchmark dll_getLast: DoubleLinkedList.getLast, header.previous.element)
//! note: list {header, size}, entries {element, next, previous}; the header is assumed non-null (a final field set by the constructor). java.util's getLast throws on size == 0; like the authors' jPOSE version this port guards it and returns -1 (null) instead. No loop, so no bound. An input list whose header has no previous entry makes the read fail

dll_get_last(list) {
  var h, e, r;
  assume(list != null);
  h = list->header;
  assume(h != null);
  r = -1;
  if (list->size != 0) {
    e = h->previous;
    r = e->element;
  }
  return r;
}

main() {
  var h, a, b, l, m, g;
  h = alloc {element: 0, next: null, previous: null};
  a = alloc {element: 10, next: null, previous: h};
  b = alloc {element: 20, next: h, previous: a};
  h->next = a;
  a->next = b;
  h->previous = b;
  l = alloc {header: h, size: 2};
  output dll_get_last(l);
  g = alloc {element: 0, next: null, previous: null};
  g->next = g;
  g->previous = g;
  m = alloc {header: g, size: 0};
  output dll_get_last(m);
  return 0;
}
