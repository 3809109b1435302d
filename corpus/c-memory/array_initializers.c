//! verdict: violated assert line 29
//! run: input=0,0 output= result=0
//! run: input=2,5 output= result=0
//! run: input=3,6 output= error=assert line 29
//! source: corpus (no seed listing): initializer lists of global arrays as C11 §6.7.9 gives them: nested lists of structs with a designator, brace elision into rows and into structs, a size counted from its list, strings for the rows of a `char` array
//! note: `corners[2]` is set by no item (zero); `grid[1]` takes 4 by elision and zeros; `flat[1]` is {3, 0}; `primes` has 7 elements (the designator `[6]` sets the last), 0 at 4 and 5; every check before the last holds, and the last reaches the error exactly when primes[j] + corners[k].y is 20: j = 6 and k = 3
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
struct pt { int x; int y; };
struct pt corners[4] = { {0, 0}, {4, 0}, [3] = {0, 3} };
int grid[2][3] = { 1, 2, 3, 4 };
struct pt flat[2] = { 1, 2, 3 };
int primes[] = { 2, 3, 5, 7, [6] = 17 };
char words[2][3] = { "ab", "c" };
int main(void) {
  int k = __VERIFIER_nondet_int();
  int j = __VERIFIER_nondet_int();
  if (k < 0 || k >= 4 || j < 0 || j >= 7) {
    return 0;
  }
  if (corners[k].x * corners[k].y != 0 || corners[2].y != 0) reach_error();
  if (grid[1][0] + grid[0][2] != 7 || grid[1][1] != 0) reach_error();
  if (flat[1].x != 3 || flat[1].y != 0 || flat[0].y != 2) reach_error();
  if (sizeof(primes) != 7 * sizeof(int)) reach_error();
  if (words[0][1] != 'b' || words[1][0] != 'c' || words[1][1] != 0) reach_error();
  if (primes[j] == 0 && j != 4 && j != 5) reach_error();
  struct pt local[2][2] = { { {1, 1}, {2, 2} }, [1] = { [1] = {9, 9} } };
  if (local[1][1].y != 9 || local[1][0].x != 0 || local[0][1].x != 2) reach_error();
  if (primes[j] + corners[k].y == 20) reach_error();
  return 0;
}
