/* Rebuilds an SMT-LIB query through Z3's C API in a chosen creation order and times one check
 * with the backward engine's Z3 parameters. Used for BENCHMARKS.md, "Why in-process Z3 was
 * slower than the `z3` binary". Not part of the build: a measuring tool.
 *
 *   cc -O2 order.c -o order -lz3
 *   ./order QUERY.smt2 MODE [SEED]
 *
 * MODE: engine     each assertion children first, in file order (the engine's order)
 *       consts     the constants first, then as `engine`
 *       shared     subterms used twice or more first, then as `engine`
 *       parser     the ids Z3_parse_smtlib2_string gave (sorted by id)
 *       reversed   as `engine`, assertions in reverse order
 *       perm       as `engine`, assertions translated in a permutation (SEED), asserted in order
 *       assert-perm  assertions translated and asserted in a permutation (SEED)
 * Environment: MAX_CONFLICTS=N (Z3's `max_conflicts`), RLIMIT=N (context `rlimit`).
 * Prints: MODE, Z3's answer (1 sat, -1 unsat, 0 unknown), seconds, the reason for unknown. */
#include <z3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_IDS 4000000
static Z3_context src, dst;
static Z3_ast *made;   /* by source id: the rebuilt AST */
static Z3_ast *by_id;  /* by source id: the source AST (mode parser) */
static unsigned *uses; /* by source id: parents seen (mode shared) */

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static Z3_sort sort_of(Z3_sort s) {
  switch (Z3_get_sort_kind(src, s)) {
  case Z3_BOOL_SORT: return Z3_mk_bool_sort(dst);
  case Z3_BV_SORT: return Z3_mk_bv_sort(dst, Z3_get_bv_sort_size(src, s));
  case Z3_ARRAY_SORT:
    return Z3_mk_array_sort(dst, sort_of(Z3_get_array_sort_domain(src, s)),
                            sort_of(Z3_get_array_sort_range(src, s)));
  default: fprintf(stderr, "unsupported sort\n"); exit(2);
  }
}

static unsigned num_args(Z3_ast a) {
  return Z3_get_ast_kind(src, a) == Z3_APP_AST ? Z3_get_app_num_args(src, Z3_to_app(src, a)) : 0;
}

static Z3_ast arg(Z3_ast a, unsigned i) { return Z3_get_app_arg(src, Z3_to_app(src, a), i); }

/* The AST of `a` in `dst`, children first. */
static Z3_ast rebuild(Z3_ast a) {
  unsigned id = Z3_get_ast_id(src, a);
  if (made[id]) return made[id];
  Z3_ast r, x[16];
  if (Z3_get_ast_kind(src, a) == Z3_NUMERAL_AST) {
    r = Z3_mk_numeral(dst, Z3_get_numeral_string(src, a), sort_of(Z3_get_sort(src, a)));
  } else {
    Z3_func_decl d = Z3_get_app_decl(src, Z3_to_app(src, a));
    unsigned n = num_args(a);
    if (n > 16) { fprintf(stderr, "too many arguments\n"); exit(2); }
    for (unsigned i = 0; i < n; i++) x[i] = rebuild(arg(a, i));
    switch (Z3_get_decl_kind(src, d)) {
    case Z3_OP_UNINTERPRETED: {
      Z3_symbol name = Z3_mk_string_symbol(dst, Z3_get_symbol_string(src, Z3_get_decl_name(src, d)));
      r = Z3_mk_const(dst, name, sort_of(Z3_get_range(src, d)));
      break;
    }
    case Z3_OP_TRUE: r = Z3_mk_true(dst); break;
    case Z3_OP_FALSE: r = Z3_mk_false(dst); break;
    case Z3_OP_AND: r = Z3_mk_and(dst, n, x); break;
    case Z3_OP_OR: r = Z3_mk_or(dst, n, x); break;
    case Z3_OP_NOT: r = Z3_mk_not(dst, x[0]); break;
    case Z3_OP_IMPLIES: r = Z3_mk_implies(dst, x[0], x[1]); break;
    case Z3_OP_EQ: r = Z3_mk_eq(dst, x[0], x[1]); break;
    case Z3_OP_ITE: r = Z3_mk_ite(dst, x[0], x[1], x[2]); break;
    case Z3_OP_SELECT: r = Z3_mk_select(dst, x[0], x[1]); break;
    case Z3_OP_STORE: r = Z3_mk_store(dst, x[0], x[1], x[2]); break;
    case Z3_OP_BADD: r = Z3_mk_bvadd(dst, x[0], x[1]); break;
    case Z3_OP_SLEQ: r = Z3_mk_bvsle(dst, x[0], x[1]); break;
    case Z3_OP_SLT: r = Z3_mk_bvslt(dst, x[0], x[1]); break;
    case Z3_OP_SGT: r = Z3_mk_bvsgt(dst, x[0], x[1]); break;
    case Z3_OP_SGEQ: r = Z3_mk_bvsge(dst, x[0], x[1]); break;
    default: fprintf(stderr, "unsupported operator %d\n", Z3_get_decl_kind(src, d)); exit(2);
    }
  }
  Z3_inc_ref(dst, r);
  made[id] = r;
  return r;
}

static void constants_first(Z3_ast a) {
  if (made[Z3_get_ast_id(src, a)] || Z3_get_ast_kind(src, a) != Z3_APP_AST) return;
  unsigned n = num_args(a);
  if (n == 0) { rebuild(a); return; }
  for (unsigned i = 0; i < n; i++) constants_first(arg(a, i));
}

static void count_uses(Z3_ast a) {
  unsigned id = Z3_get_ast_id(src, a);
  if (uses[id]++) return;
  for (unsigned i = 0; i < num_args(a); i++) count_uses(arg(a, i));
}

static void shared_first(Z3_ast a) {
  if (made[Z3_get_ast_id(src, a)]) return;
  unsigned n = num_args(a);
  for (unsigned i = 0; i < n; i++) shared_first(arg(a, i));
  if (n > 0 && uses[Z3_get_ast_id(src, a)] >= 2) rebuild(a);
}

static void collect(Z3_ast a) {
  unsigned id = Z3_get_ast_id(src, a);
  if (by_id[id]) return;
  by_id[id] = a;
  for (unsigned i = 0; i < num_args(a); i++) collect(arg(a, i));
}

static void permute(unsigned *order, unsigned n, unsigned seed) {
  unsigned long long s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (unsigned i = n - 1; i > 0; i--) {
    s ^= s << 13; s ^= s >> 7; s ^= s << 17;
    unsigned j = s % (i + 1), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
}

int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: %s QUERY.smt2 MODE [SEED]\n", argv[0]); return 2; }
  const char *mode = argv[2];
  unsigned seed = argc > 3 ? (unsigned)atoi(argv[3]) : 1;
  FILE *f = fopen(argv[1], "r");
  if (!f) { perror(argv[1]); return 2; }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  rewind(f);
  char *text = malloc(size + 1);
  if (fread(text, 1, size, f) != (size_t)size) { perror(argv[1]); return 2; }
  text[size] = 0;
  made = calloc(MAX_IDS, sizeof *made);
  by_id = calloc(MAX_IDS, sizeof *by_id);
  uses = calloc(MAX_IDS, sizeof *uses);

  Z3_config cfg = Z3_mk_config();
  Z3_set_param_value(cfg, "model", "true");
  src = Z3_mk_context_rc(cfg);
  dst = Z3_mk_context_rc(cfg);
  Z3_ast_vector v = Z3_parse_smtlib2_string(src, text, 0, 0, 0, 0, 0, 0);
  Z3_ast_vector_inc_ref(src, v);
  unsigned n = Z3_ast_vector_size(src, v);
  unsigned *order = malloc(n * sizeof *order);
  for (unsigned i = 0; i < n; i++) order[i] = !strcmp(mode, "reversed") ? n - 1 - i : i;
#define ASSERTION(i) Z3_ast_vector_get(src, v, (i))

  if (!strcmp(mode, "consts"))
    for (unsigned i = 0; i < n; i++) constants_first(ASSERTION(i));
  if (!strcmp(mode, "shared")) {
    for (unsigned i = 0; i < n; i++) count_uses(ASSERTION(i));
    for (unsigned i = 0; i < n; i++) shared_first(ASSERTION(i));
  }
  if (!strcmp(mode, "parser")) {
    for (unsigned i = 0; i < n; i++) collect(ASSERTION(i));
    for (unsigned id = 0; id < MAX_IDS; id++)
      if (by_id[id]) rebuild(by_id[id]);
  }
  if (!strcmp(mode, "perm")) {
    unsigned *p = malloc(n * sizeof *p);
    for (unsigned i = 0; i < n; i++) p[i] = i;
    permute(p, n, seed);
    for (unsigned i = 0; i < n; i++) rebuild(ASSERTION(p[i]));
  }
  if (!strcmp(mode, "assert-perm")) permute(order, n, seed);

  Z3_solver s = Z3_mk_solver(dst);
  Z3_solver_inc_ref(dst, s);
  for (unsigned i = 0; i < n; i++) Z3_solver_assert(dst, s, rebuild(ASSERTION(order[i])));
  /* The backward engine's settings (crates/engine/src/backward/driver.rs). */
  Z3_params p = Z3_mk_params(dst);
  Z3_params_inc_ref(dst, p);
  Z3_params_set_uint(dst, p, Z3_mk_string_symbol(dst, "timeout"), 100000);
  Z3_params_set_bool(dst, p, Z3_mk_string_symbol(dst, "smt.bv.eq_axioms"), 0);
  Z3_params_set_uint(dst, p, Z3_mk_string_symbol(dst, "smt.phase_selection"), 0);
  if (getenv("MAX_CONFLICTS"))
    Z3_params_set_uint(dst, p, Z3_mk_string_symbol(dst, "max_conflicts"), atoi(getenv("MAX_CONFLICTS")));
  Z3_solver_set_params(dst, s, p);
  if (getenv("RLIMIT")) Z3_update_param_value(dst, "rlimit", getenv("RLIMIT"));

  double start = now();
  Z3_lbool r = Z3_solver_check_assumptions(dst, s, 0, 0);
  printf("%s %d %.2f s %s\n", mode, r, now() - start, r == Z3_L_UNDEF ? Z3_solver_get_reason_unknown(dst, s) : "");
  return 0;
}
