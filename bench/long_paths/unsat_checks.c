/* no_rise.c with a question answered `unsat` in every round: each element comes with a
 * fresh input `b`, the round ends the run where `b` is negative, and then asks whether `b` is
 * below -5 (never, on that path). The `unsat` answers need only the constraints on `b`, but a
 * query layer that looks at the whole path condition pays its length for each of them
 * (BENCHMARKS.md, "Long paths: groups kept per path"). Scale it with `sed 's/100000/N/g'`. */
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int a[100000];

int main(void) {
    for (int i = 0; i < 100000; i++)
        a[i] = __VERIFIER_nondet_int();
    int rises = 0;
    for (int i = 1; i < 100000; i++) {
        int b = __VERIFIER_nondet_int();
        if (b < 0)
            return 0;
        if (b < -5)
            rises = 1000;
        if (a[i - 1] < a[i])
            rises++;
    }
    if (rises == 0)
        assert(a[0] == a[1]);
    return 0;
}
