/* A path that branches on every element of a large array of inputs: the loop compares each
 * element with the one before, and the claim after it is wrong where no element rises but
 * the first two differ. Depth-first search follows one path of N - 1 branches to the
 * violation, so each question is about a path condition up to N constraints long
 * (BENCHMARKS.md, "Long paths"). Scale it with `sed 's/100000/N/'`. */
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int a[100000];

int main(void) {
    for (int i = 0; i < 100000; i++)
        a[i] = __VERIFIER_nondet_int();
    int rises = 0;
    for (int i = 1; i < 100000; i++)
        if (a[i - 1] < a[i])
            rises++;
    if (rises == 0)
        assert(a[0] == a[1]);
    return 0;
}
