//! verdict: safe
//! run: input=1,2,3 output= result=6
//! run: input=2147483647,1,0 output= result=-2147483648
//! source: corpus (no seed listing): a list of three nodes built from inputs, summed by a walk and by the loop that built it
//! note: both sums wrap alike; the walk follows next pointers until null
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
void reach_error(void);
typedef struct node {
  int value;
  struct node *next;
} Node;
int main() {
  Node *head = 0;
  int built = 0;
  for (int i = 0; i < 3; i++) {
    Node *n = malloc(sizeof(Node));
    n->value = __VERIFIER_nondet_int();
    n->next = head;
    built += n->value;
    head = n;
  }
  int walked = 0;
  for (Node *p = head; p; p = p->next) {
    walked += p->value;
  }
  if (walked != built) {
    reach_error();
  }
  return walked;
}
