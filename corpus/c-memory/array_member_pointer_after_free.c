//! verdict: violated use-after-free line 16
//! run: input=0 output= result=3
//! run: input=5 output= result=3
//! run: input=1 output= error=use-after-free line 16
//! source: corpus (no seed listing): a pointer into an array member of a heap struct (filled by `strcpy`, walked by a defined function) kept after the struct is freed, in a file that frees memory
//! note: `name` points into `rec->name`, the box of the struct's array member; `free(rec)` frees the box with its struct, so the read through `name` after it is a use of freed memory. Only input 1 frees before the read
#include <stdlib.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);
struct record {
  int id;
  char name[8];
};
int length(const char *s) {
  int n = 0;
  while (s[n]) n++;
  return n;
}
int main(void) {
  struct record *rec = malloc(sizeof *rec);
  if (!rec) return 0;
  rec->id = 7;
  strcpy(rec->name, "bob");
  char *name = rec->name;
  int k = __VERIFIER_nondet_int();
  if (k == 1) free(rec);
  int n = length(name);
  if (k != 1) free(rec);
  return n;
}
