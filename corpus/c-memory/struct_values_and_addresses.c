//! verdict: safe
//! run: input=3,4 output= result=0
//! run: input=-7,7 output= result=0
//! source: corpus (no seed listing): struct initializers, copies and members of nested structs, a swap through pointers to locals
//! note: a struct copy is a value (changing the copy leaves the original), and swap exchanges the two locals whatever their values
extern int __VERIFIER_nondet_int(void);
void reach_error(void);
struct point {
  int x;
  int y;
};
struct segment {
  struct point from;
  struct point to;
};
void swap(int *a, int *b) {
  int t = *a;
  *a = *b;
  *b = t;
}
int main() {
  int u = __VERIFIER_nondet_int();
  int v = __VERIFIER_nondet_int();
  struct segment s = {{u, v}, {.y = 1}};
  struct segment c = s;
  c.from.x = c.from.x + 1;
  swap(&u, &v);
  struct segment *q = u > 0 ? &c : 0;
  if (q) {
    q->to.y = 5;
  }
  if (s.from.x + 1 != c.from.x || u != s.from.y || v != s.from.x || s.to.y != 1) {
    reach_error();
  }
  return 0;
}
