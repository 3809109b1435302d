//! verdict: violated assert line 42
//! verdict: violated null-deref line 45
//! run: input=0,0 output= result=10
//! run: input=1,0 output= result=-10
//! run: input=2,0 output= result=48
//! run: input=0,3 output= result=10
//! run: input=1,3 output= error=assert line 42
//! run: input=0,4 output= error=null-deref line 45
//! source: corpus (no seed listing): callbacks through variables, struct members, a table declared with a typedef and a parameter, as C programs dispatch
//! note: a function pointer holds one of the file's functions of its type or null; a call through it calls that function (an input chooses which), and a call through null fails `null-deref` (SV-COMP's valid-deref)
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
typedef int (*binary)(int, int);
struct operation {
  binary apply;
  int (*finish)(int);
};
int add(int a, int b) { return a + b; }
int subtract(int a, int b) { return a - b; }
int multiply(int a, int b) { return a * b; }
int same(int a) { return a; }
int twice(int a) { return 2 * a; }
int fold(binary f, int start, int n) {
  int acc = start;
  for (int i = 1; i <= n; i++) acc = f(acc, i);
  return acc;
}
int main() {
  int choice = __VERIFIER_nondet_int();
  int mode = __VERIFIER_nondet_int();
  binary table[3] = {add, subtract, &multiply};
  if (choice < 0 || choice > 2) return 0;
  struct operation op;
  op.apply = table[choice];
  op.finish = choice == 2 ? twice : same;
  int r = (*op.finish)(fold(op.apply, choice == 2 ? 1 : 0, 4));
  if (op.apply == add && r != 10) reach_error();
  if (op.apply != subtract && op.apply != add && r != 48 && mode == 0) reach_error();
  if (mode == 3) {
    int (*pick)(int) = choice == 1 ? twice : 0;
    if (pick) r = pick(r);
    if (r == -20) reach_error();
  }
  int (*missing)(int) = mode == 4 ? 0 : same;
  return missing(r);
}
