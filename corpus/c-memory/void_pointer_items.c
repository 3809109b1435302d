//! verdict: violated assert line 47
//! run: input=5,1 output= error=assert line 47
//! run: input=8,0 output= error=assert line 47
//! run: input=1,1 output= result=6
//! run: input=1,0 output= result=3
//! source: corpus (no seed listing): a list whose items point to their data through `void *`, data of two struct types told apart by a kind field, as generic C containers are written
//! note: a `void *` holds a pointer to an object of any type and converts back to the object's own type unchanged (to another type the run would stop `unmodelled`); the items and their data are freed through `void *` too
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
extern void free(void *);
extern void reach_error(void);
struct item {
  int kind;
  void *data;
  struct item *next;
};
struct point { int x; int y; };
struct name { char first; char last; };
struct item *push(struct item *list, int kind, void *data) {
  struct item *it = malloc(sizeof(struct item));
  it->kind = kind;
  it->data = data;
  it->next = list;
  return it;
}
int weight(struct item *it) {
  if (it->kind == 0) {
    struct point *p = it->data;
    return p->x + p->y;
  }
  struct name *n = it->data;
  return n->last - n->first;
}
int main() {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  struct point *p = malloc(sizeof(struct point));
  p->x = a;
  p->y = 2;
  struct name *n = malloc(sizeof(struct name));
  n->first = 'a';
  n->last = 'd';
  struct item *list = push(0, 0, p);
  if (b) list = push(list, 1, n);
  int total = 0;
  for (struct item *it = list; it; it = it->next) total += weight(it);
  if (total == 10) reach_error();
  while (list) {
    struct item *next = list->next;
    free(list->data);
    free(list);
    list = next;
  }
  if (!b) free(n);
  return total;
}
