//! verdict: violated assert line 45
//! run: input=3,4 output= result=2
//! run: input=5,5 output= error=assert line 45
//! run: input=-1,7 output= result=2
//! source: corpus (no seed listing): a set of numbers in a doubly linked list of the Linux kind, whose entries are found from their links by container_of (the walk of SV-COMP's ldv-sets)
//! note: the walks end at the head, whose container_of points to no entry; erasing the only key empties the set
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
extern void free(void *);
void reach_error(void);
struct link { struct link *next, *prev; };
struct entry { int key; struct link node; };
static struct link set = { &set, &set };
int contains(int key) {
  struct entry *e;
  for (e = (struct entry *)((char *)set.next - __builtin_offsetof(struct entry, node));
       &e->node != &set;
       e = (struct entry *)((char *)e->node.next - __builtin_offsetof(struct entry, node)))
    if (e->key == key) return 1;
  return 0;
}
void insert(int key) {
  if (contains(key)) return;
  struct entry *e = malloc(sizeof(struct entry));
  e->key = key;
  e->node.next = set.next; e->node.prev = &set;
  set.next->prev = &e->node; set.next = &e->node;
}
void erase(int key) {
  struct entry *e, *n;
  for (e = (struct entry *)((char *)set.next - __builtin_offsetof(struct entry, node)),
       n = (struct entry *)((char *)e->node.next - __builtin_offsetof(struct entry, node));
       &e->node != &set;
       e = n, n = (struct entry *)((char *)n->node.next - __builtin_offsetof(struct entry, node)))
    if (e->key == key) {
      e->node.prev->next = e->node.next; e->node.next->prev = e->node.prev;
      free(e);
    }
}
int main() {
  int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int();
  insert(a); insert(b); erase(a);
  if (contains(a)) reach_error();
  if (a != b && !contains(b)) reach_error();
  if (set.next == &set) reach_error();
  erase(b);
  return 2;
}
