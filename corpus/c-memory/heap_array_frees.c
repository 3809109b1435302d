//! verdict: violated invalid-free line 21
//! verdict: violated invalid-free line 24
//! run: input=0 output= result=10
//! run: input=1 output= error=invalid-free line 21
//! run: input=2 output= error=invalid-free line 24
//! source: corpus (no seed listing): a zeroed array of structs made by calloc, walked by a moving pointer; one input frees the moved pointer, another frees the array twice
//! note: free needs the pointer malloc or calloc returned (the first element of a live array): a pointer moved into the array, or a second free, is SV-COMP's valid-free
extern int __VERIFIER_nondet_int(void);
extern void *calloc(unsigned long, unsigned long);
extern void free(void *);
struct pair { int key; int value; };
int main(void) {
  struct pair *t = calloc(5, sizeof(struct pair));
  struct pair *p = t;
  int sum = 0;
  for (int i = 0; i < 5; i++) { p->value = i; sum += p->key + p->value; p++; }
  int c = __VERIFIER_nondet_int();
  p = p - 5;
  if (c == 1) {
    p++;
    free(p);
  } else if (c == 2) {
    free(t);
    free(p);
    return 0;
  }
  free(t);
  return sum;
}
