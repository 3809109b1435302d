//! verdict: violated null-deref line 17
//! verdict: violated null-deref line 24
//! entry: ncll_add
//! run: input= output=1,2,4,6 result=0
//! source: 003_2215bd6262288c25.txt digest 7.4 (jPOSE benchmark ncll_add: NodeCachingLinkedList.add, reusing a cached node when the cache is not empty)
//! note: list {header, size, modCount, firstCachedNode, cacheSize}, nodes {previous, next, value}; a positive cacheSize with a null firstCachedNode, or a header without previous, makes add fail

ncll_add(list, v) {
  var node, h, last;
  assume(list != null);
  h = list->header;
  assume(h != null);
  if (list->cacheSize == 0) {
    node = alloc {previous: null, next: null, value: v};
  } else {
    node = list->firstCachedNode;
    list->firstCachedNode = node->next;
    list->cacheSize = list->cacheSize - 1;
    node->value = v;
  }
  last = h->previous;
  node->next = h;
  node->previous = last;
  last->next = node;
  h->previous = node;
  list->size = list->size + 1;
  list->modCount = list->modCount + 1;
  return list->size;
}

main() {
  var h, c, l;
  h = alloc {previous: null, next: null, value: 0};
  h->next = h;
  h->previous = h;
  c = alloc {previous: null, next: null, value: 9};
  l = alloc {header: h, size: 0, modCount: 0, firstCachedNode: c, cacheSize: 1};
  output ncll_add(l, 4);
  output ncll_add(l, 6);
  output h->next->value;
  output h->previous->value;
  return l->cacheSize;
}
