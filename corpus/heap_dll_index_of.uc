//! verdict: violated null-deref line 16
//! entry: dll_index_of
//! run: input= output=0,1,-1 result=0
//! source: 003_2215bd6262288c25.txt digest 7.4 (jPOSE benchmark dll_indexOf: DoubleLinkedList.indexOf(o), the index of the first entry holding o, or -1)
//! note: list {header, size}, entries {element, next, previous}; the header is assumed non-null. As java.util's indexOf the walk starts at header.next and stops at the header; elements are numbers compared with == (the null-element branch of the original has no counterpart). At most 4 entries are visited (the literal 4 in `i < 4`; the authors' driver sets depthBound 8), a walk cut by the bound gives -1 as in the authors' version. An input list with a null next link before the walk returns to the header makes the comparison fail

dll_index_of(list, x) {
  var h, e, i, found;
  assume(list != null);
  h = list->header;
  assume(h != null);
  e = h->next;
  i = 0;
  found = 0;
  while (found == 0 && e != h && i < 4) {
    if (e->element == x) {
      found = 1;
    } else {
      e = e->next;
      i = i + 1;
    }
  }
  if (found == 0) {
    i = -1;
  }
  return i;
}

main() {
  var h, a, b, l;
  h = alloc {element: 0, next: null, previous: null};
  a = alloc {element: 10, next: null, previous: h};
  b = alloc {element: 20, next: h, previous: a};
  h->next = a;
  a->next = b;
  h->previous = b;
  l = alloc {header: h, size: 2};
  output dll_index_of(l, 10);
  output dll_index_of(l, 20);
  output dll_index_of(l, 30);
  return 0;
}
