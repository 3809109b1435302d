//! verdict: violated invalid-pointer line 24
//! verdict: violated invalid-free line 27
//! run: input=0,0 output= result=0
//! run: input=0,7 output= result=2
//! run: input=1,7 output= error=invalid-pointer line 24
//! run: input=2,7 output= error=invalid-free line 27
//! run: input=1,0 output= result=0
//! source: corpus (no seed listing): the end of SV-COMP's `list-ext_2`, a list whose last link is an integer converted to a pointer
//! note: an integer converted to a pointer is null when it is 0 and otherwise points to no object: it is not null, every access through it is invalid (`invalid-pointer`, SV-COMP's `valid-deref`) and `free` rejects it (`invalid-free`)
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
extern void free(void *);
struct node {
  int h;
  struct node *n;
};
int main() {
  int mode = __VERIFIER_nondet_int();
  struct node *a = malloc(sizeof(struct node));
  a->h = 1;
  a->n = (void *)__VERIFIER_nondet_int();
  int links = 0;
  if (a->n != 0) {
    if (mode == 1) links = a->n->h;
    links = links + 2;
  }
  if (mode == 2) free(a->n);
  free(a);
  return links;
}
