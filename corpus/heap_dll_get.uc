//! verdict: violated null-deref line 16
//! verdict: violated null-deref line 19
//! entry: dll_get
//! run: input= output=10,20 result=0
//! source: 003_2215bd6262288c25.txt digest 7.4 (jPOSE benchmark dll_get: DoubleLinkedList.get(index) walking from the header)
//! note: the walk follows next from the header index + 1 times; size is at most 3 (the authors bound recursion with a depthBound field). An input list shorter than its size field makes the walk reach null

dll_get(list, index) {
  var e, i;
  assume(list != null);
  assume(list->size <= 3);
  assume(0 <= index && index < list->size);
  e = list->header;
  i = 0;
  while (i <= index) {
    e = e->next;
    i = i + 1;
  }
  return e->element;
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
  output dll_get(l, 0);
  output dll_get(l, 1);
  return 0;
}
