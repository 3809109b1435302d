//! verdict: safe
//! run: input=0 output= result=9
//! run: input=5 output= result=14
//! run: input=-1 output= result=0
//! source: corpus (no seed listing): array members of structs copied, stored whole, indexed by an input
//! note: copying a struct (an argument, a return value, `*p = s`) copies its array member, so writing the copy leaves the original; a global's array starts zeroed; the index is checked before use
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
extern void free(void *);
void reach_error(void);
struct buffer {
  int length;
  int data[8];
  int grid[2][3];
};
struct buffer global;
struct buffer filled(struct buffer b, int value) {
  for (int k = 0; k < 8; k++) {
    b.data[k] = value + k;
  }
  b.grid[1][2] = value;
  b.length = 8;
  return b;
}
int main() {
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i >= 8) return 0;
  struct buffer original = {0};
  struct buffer copy = filled(original, 9);
  if (original.data[i] != 0 || original.grid[1][2] != 0) reach_error();
  struct buffer *heap = malloc(sizeof(struct buffer));
  *heap = copy;
  copy.data[i] = -1;
  if (heap->data[i] != 9 + i || global.data[i] != 0) reach_error();
  if (sizeof(struct buffer) != 4 + 8 * 4 + 6 * 4) reach_error();
  int result = heap->data[i] + heap->grid[1][2] - 9;
  free(heap);
  return result;
}
