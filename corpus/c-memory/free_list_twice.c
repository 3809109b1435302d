//! verdict: violated invalid-free line 29
//! verdict: violated use-after-free line 26
//! run: input=0,0 output= result=3
//! run: input=1,0 output= error=use-after-free line 26
//! run: input=0,1 output= error=invalid-free line 29
//! source: corpus (no seed listing): a two-node list freed node by node; one input reads a freed node, another frees the head again
//! note: the state of a heap object survives copying the whole node out and back (`tmp = *head; *head = tmp;`)
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
extern void free(void *);
struct node {
  int value;
  struct node *next;
};
int main() {
  int late_read = __VERIFIER_nondet_int();
  int twice = __VERIFIER_nondet_int();
  struct node *head = malloc(sizeof(struct node));
  head->value = 1;
  head->next = malloc(sizeof(struct node));
  head->next->value = 2;
  head->next->next = 0;
  struct node tmp = *head;
  *head = tmp;
  free(head);
  int sum = late_read ? head->value : tmp.value;
  sum = sum + tmp.next->value;
  free(tmp.next);
  if (twice) free(head);
  return sum;
}
