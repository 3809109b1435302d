/* A loop bounded by an input that some earlier branch keeps large: each iteration forks on
 * `i < n`, and the exit side is infeasible until `i` reaches N, so depth-first search asks
 * the solver once per iteration about a path condition one bound longer each time
 * (BENCHMARKS.md, "Loops bounded by an input"). Scale it with `sed 's/100000/N/'`. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n < 100000 || n > 100000 + 2)
        return 0;
    int s = 0;
    for (int i = 0; i < n; i++)
        s += 1;
    if (s < 100000)
        reach_error();
    return 0;
}
