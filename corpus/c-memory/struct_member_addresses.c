//! verdict: violated use-after-free line 38
//! run: input=0 output= result=153
//! run: input=1 output= result=252
//! run: input=2 output= error=use-after-free line 38
//! source: corpus (no seed listing): the addresses of struct-typed members (`&r->a`, `&it->link`) passed to functions, written whole through, and kept past the `free` of their struct
//! note: `shift(&r->a, k)` moves the member point `a` of the heap rectangle; `link(&it->link, &other)` writes the intrusive list node inside the heap item, whose `next` then points to the local node `other` (value 100 + k). The result is `r->a.x * 10 + it->link.data + it->link.next->data` as gcc computes it: 0 + 53 + 100 for input 0, 10 + 42 + 200 for input 1 (`k` 1 makes the item's data 42). With input 2 the program frees the item and then reads through `n`, the pointer to its member: a `use-after-free` at line 38
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
extern void free(void *);
struct point { int x; int y; };
struct rect { struct point a; struct point b; };
struct node { int data; struct node *next; };
struct item { int key; struct node link; };
void shift(struct point *p, int k) {
  p->x += k;
  p->y -= k;
}
void link(struct node *n, struct node *next) {
  struct node fresh = {n->data, next};
  *n = fresh;
}
int main(void) {
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 2) return 0;
  struct rect *r = malloc(sizeof *r);
  struct item *it = malloc(sizeof *it);
  if (!r || !it) return 0;
  r->a.x = 0;
  r->a.y = 0;
  shift(&r->a, k);
  struct node *n = &it->link;
  n->data = k == 1 ? 42 : 53;
  struct node other = {100 * (k + 1), 0};
  link(&it->link, &other);
  int result = r->a.x * 10 + it->link.data + it->link.next->data;
  free(r);
  free(it);
  if (k == 2) return n->data;
  return result;
}
