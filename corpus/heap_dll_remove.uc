//! verdict: violated null-deref line 25
//! verdict: violated null-deref line 26
//! entry: dll_remove
//! run: input= output=1,10,0,1 result=0
//! source: 003_2215bd6262288c25.txt digest 7.4 (jPOSE benchmark dll_remove: DoubleLinkedList.remove(o), the first entry holding o is unlinked)
//! note: the search visits at most 3 entries (a depth bound as in the authors' drivers); unlinking dereferences the neighbours, which an arbitrary input list may lack

dll_remove(list, x) {
  var h, e, i, found;
  assume(list != null);
  h = list->header;
  assume(h != null);
  e = h->next;
  i = 0;
  found = 0;
  while (found == 0 && i < 3 && e != h && e != null) {
    if (e->element == x) {
      found = 1;
    } else {
      e = e->next;
      i = i + 1;
    }
  }
  if (found == 1) {
    e->previous->next = e->next;
    e->next->previous = e->previous;
    list->size = list->size - 1;
  }
  return found;
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
  output dll_remove(l, 20);
  output h->previous->element;
  output dll_remove(l, 30);
  output l->size;
  return 0;
}
