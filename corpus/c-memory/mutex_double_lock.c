//! verdict: violated assert line 12
//! run: input= output= error=assert line 12
//! source: corpus (no seed listing): SV-COMP's ldv-regression/mutex_lock_struct, a struct local locked twice through pointers
//! note: the second lock finds is_locked == 1; the struct lives in memory because its address is taken
void reach_error(void);
extern void abort(void);
struct mutex {
  int is_locked;
};
void lock(struct mutex *m) {
  if (m->is_locked == 1) {
    reach_error();
    abort();
  }
  m->is_locked = 1;
}
void unlock(struct mutex *m) {
  m->is_locked = 0;
}
int main() {
  struct mutex m;
  m.is_locked = 0;
  lock(&m);
  unlock(&m);
  lock(&m);
  lock(&m);
  return 0;
}
