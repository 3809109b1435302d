//! verdict: violated assert line 30
//! run: input=2,0 output= result=0
//! run: input=4,1 output= result=0
//! run: input=9,2 output= result=0
//! run: input=3,2 output= error=assert line 30
//! source: corpus (no seed listing): a heap array of structs with an array member (each element with a box of its own), of a computed length, filled by `strcpy` and a defined function through pointers into the members, then searched
//! note: `table[i].name` is "r" followed by the letter 'a' + i; the element whose name ends in 'c' is element 2, so the search finds it exactly when n > 2 and k = 2
#include <stdlib.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
struct record {
  int id;
  char name[4];
};
void label(char *s, int i) {
  s[1] = 'a' + i;
  s[2] = 0;
}
int main(void) {
  int n = __VERIFIER_nondet_int();
  int k = __VERIFIER_nondet_int();
  if (n < 1 || n > 8) return 0;
  struct record *table = malloc(n * sizeof(struct record));
  for (int i = 0; i < n; i++) {
    table[i].id = i;
    strcpy(table[i].name, "r");
    label(table[i].name, i);
  }
  if (k >= 0 && k < n && table[k].name[1] == 'c') reach_error();
  free(table);
  return 0;
}
