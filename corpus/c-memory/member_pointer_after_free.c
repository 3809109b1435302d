//! verdict: violated use-after-free line 23
//! run: input=0 output= result=5
//! run: input=1 output= error=use-after-free line 23
//! source: corpus (no seed listing): a pointer into a heap object outlives the object
//! note: freeing a struct frees its members: reading one through a pointer taken before the `free` is a use after free
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
extern void free(void *);
struct node {
  int value;
  struct node *next;
};
int main() {
  int late = __VERIFIER_nondet_int();
  struct node *n = malloc(sizeof(struct node));
  n->value = 5;
  n->next = 0;
  int *pv = &n->value;
  struct node **pn = &n->next;
  *pn = 0;
  int result = *pv;
  free(n);
  if (late) result = *pv;
  return result;
}
