//! verdict: violated assert line 29
//! run: input=0,0 output= result=0
//! run: input=1,9 output= result=0
//! run: input=2,3 output= error=assert line 29
//! source: corpus (no seed listing): an array of structs whose members are arrays and a member whose address is taken; each element has boxes of its own, so writing one element's name never changes another's, and a whole-element copy copies the name
//! note: `roster[k].name[0]` is 'a' + k and `roster[i].name[1]` becomes 'z'; `roster[0] = roster[2]` copies the name into roster[0]'s own box, so the later write to roster[2].name[0] leaves roster[0] alone; `&grades[i].score` points into element i's box. The last check fails exactly when i = 2 and j = 3 (grades[2].score = 3 + 20, roster[0].name[1] = 'z')
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
struct student { char name[4]; int year; };
struct grade { int score; int weight; };
struct student roster[3];
int main(void) {
  int i = __VERIFIER_nondet_int();
  int j = __VERIFIER_nondet_int();
  if (i < 0 || i > 2 || j < 0 || j > 9) return 0;
  struct grade grades[3] = {{10, 1}, {20, 2}};
  for (int k = 0; k < 3; k++) {
    roster[k].name[0] = 'a' + k;
    roster[k].year = 2000 + k;
  }
  roster[i].name[1] = 'z';
  int *score = &grades[i].score;
  *score = j + 20;
  roster[0] = roster[2];
  roster[2].name[0] = 'q';
  if (roster[0].name[0] != 'c' || roster[0].year != 2002) reach_error();
  if (roster[1].name[1] == 'z' && i != 1) reach_error();
  if (grades[0].score == 10 && i == 0) reach_error();
  if (grades[2].score == 23 && roster[0].name[1] == 'z') reach_error();
  return 0;
}
