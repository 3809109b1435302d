/* Many cells, then many forks: what a fork and the end of a path pay for the memory a state
 * shares with others. 20,000 list nodes (a cell each), then 14 inputs that fork the run into
 * 2^14 paths, each writing one node. Larger: `sed 's/i < 20000/i < 200000/'`, and
 * `s/k < 14/k < 16/` for 2^16 paths (then `count > 14` is reachable: a violation). The
 * figures are in BENCHMARKS.md, "Forward engine: states of large memories". */
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

struct node {
    int value;
    struct node *next;
};

int main(void) {
    struct node *head = 0;
    for (int i = 0; i < 20000; i++) {
        struct node *n = malloc(sizeof *n);
        n->value = i;
        n->next = head;
        head = n;
    }
    int count = 0;
    for (int k = 0; k < 14; k++) {
        if (__VERIFIER_nondet_int()) {
            count++;
            head->value = count;
        }
    }
    if (count > 14)
        reach_error();
    return 0;
}
