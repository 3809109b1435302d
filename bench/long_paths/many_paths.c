/* Many long paths taking turns: 3,000 inputs that end the run where negative (a path of
 * 3,000 constraints), then 13 inputs that fork the state into 2^13 paths, then in every round
 * a question answered `unsat` (`b < -5` after `b >= 0`). Random-path search takes turns among
 * the 8,192 states, so the query layer's per-path structures are looked up for one path after
 * thousands of questions about others (BENCHMARKS.md, "Long paths: groups kept per path").
 * Fewer paths: `sed 's/j < 13/j < 8/'`. */
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
    int s = 0;
    for (int i = 0; i < 3000; i++) {
        int v = __VERIFIER_nondet_int();
        if (v < 0)
            return 0;
    }
    for (int j = 0; j < 13; j++) {
        int c = __VERIFIER_nondet_int();
        if (c > 0)
            s++;
    }
    for (int k = 0; k < 2000; k++) {
        int b = __VERIFIER_nondet_int();
        if (b < 0)
            return 0;
        if (b < -5)
            s = 1000;
    }
    assert(s != 1000);
    return s;
}
