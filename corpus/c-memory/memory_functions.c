//! verdict: violated out-of-bounds line 32
//! verdict: violated uninit line 40
//! verdict: violated out-of-bounds line 44
//! run: input=6,0 output= error=out-of-bounds line 32
//! run: input=2,1 output= error=uninit line 40
//! run: input=2,2 output= error=out-of-bounds line 44
//! run: input=2,0 output= result=8
//! source: corpus (no seed listing): `memset`, `memcpy` and `strlen` over a struct, arrays and a string, as C programs clear, copy and measure memory
//! note: `memset` of too many bytes writes past the array (out-of-bounds); `memcpy` copies a member never assigned as it is, so reading the copy is the `uninit` read; `strlen` of characters without a 0 reads past the array; every byte 1 makes an `int` 0x01010101
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void free(void *);
extern void *memset(void *, int, unsigned long);
extern void *memcpy(void *, const void *, unsigned long);
extern unsigned long strlen(const char *);
struct pair {
  int a;
  short b;
  struct pair *next;
};
int main() {
  int n = __VERIFIER_nondet_int();
  int mode = __VERIFIER_nondet_int();
  if (n < 0 || n > 6) return 0;
  struct pair p;
  memset(&p, 0, sizeof(p));
  if (p.a != 0 || p.b != 0 || p.next != 0) reach_error();
  int counts[5];
  memset(counts, 1, sizeof(counts));
  if (counts[4] != 16843009) reach_error();
  memset(counts, 0, n * sizeof(int));
  int copy[5];
  memcpy(copy, counts, sizeof(copy));
  if (copy[0] != 0 && n > 0) reach_error();
  struct pair *heap = malloc(sizeof(struct pair));
  heap->a = 3;
  memcpy(&p, heap, sizeof(struct pair));
  int a = p.a;
  if (mode == 1) a = a + p.b;
  free(heap);
  char word[6] = "hello";
  if (mode == 2) word[5] = 'x';
  unsigned long length = strlen(word);
  if (length != 5) reach_error();
  return a + (int)length;
}
