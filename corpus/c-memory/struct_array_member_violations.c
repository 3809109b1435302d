//! verdict: violated out-of-bounds line 26
//! verdict: violated uninit line 26
//! verdict: violated assert line 29
//! run: input=0,1 output= result=6
//! run: input=16,0 output= error=out-of-bounds line 26
//! run: input=3,0 output= error=uninit line 26
//! run: input=1,0 output= error=assert line 29
//! source: corpus (no seed listing): ldv-regression/test23-1's `struct dummy` (an array inside a struct) without its pointer into the array
//! note: a local struct's array member starts indeterminate; elements 0 and 1 are written through a pointer to the struct; an index of 16 is out of bounds, element 3 was never assigned, and element 1 holds 2 where the check wants 1
extern int __VERIFIER_nondet_int(void);
void reach_error(void);
struct dummy {
  int a, b;
  int array[16];
};
int main() {
  struct dummy d;
  struct dummy *p = &d;
  int i = __VERIFIER_nondet_int();
  int j = __VERIFIER_nondet_int();
  p->array[0] = 1;
  p->array[1] = 2;
  if (j) return d.array[0] + d.array[1] + 3;
  if (i < 0 || i > 16) return 0;
  if (i > 1) {
    return d.array[i];
  }
  if (d.array[i] != 1) {
    reach_error();
  }
  return 0;
}
