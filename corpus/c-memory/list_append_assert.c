//! verdict: violated assert line 28
//! bound: 3
//! run: input=0 output= result=0
//! run: input=5,0 output= error=assert line 28
//! source: corpus (no seed listing): SV-COMP's list-properties/simple-1 pattern, a list built by a nondeterministic loop
//! note: every node but the last gets h = 1, the head first gets 2; with one appended node the walk meets an h of 1
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
extern void abort(void);
void reach_error(void);
struct node {
  int h;
  struct node *n;
};
int main() {
  struct node *a = malloc(sizeof(struct node));
  struct node *p = a;
  a->h = 2;
  while (__VERIFIER_nondet_int()) {
    p->h = 1;
    p->n = malloc(sizeof(struct node));
    p = p->n;
  }
  p->h = 2;
  p->n = 0;
  for (p = a; p != 0; p = p->n) {
    if (p->h != 2) {
      reach_error();
      abort();
    }
  }
  return 0;
}
