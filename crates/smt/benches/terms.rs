//! Term construction and simplification throughput (criterion).
//!
//! * `hash-consing/new`: constructing nodes that do not exist yet (target: ≥ 5 M/s);
//! * `hash-consing/hit`: constructing nodes that already exist (target: ≥ 20 M/s);
//!   each at 100,000 and 1,000,000 nodes, in a simplifying and a plain store;
//! * `simplify/fold`: constant folding through the simplifying constructors;
//! * `simplify/rebuild`: `TermStore::simplify` over a plain (unsimplified) DAG.
//!
//! Run: `cargo bench -p symex-smt --bench terms`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use std::hint::black_box;
use symex_smt::{TermId, TermStore};

const N: u64 = 100_000;

/// A store with one 32-bit variable.
fn store_with_var(simplify: bool) -> (TermStore, TermId) {
    let mut st = if simplify {
        TermStore::new()
    } else {
        TermStore::without_simplification()
    };
    let x = st.bv_var("x", 32).expect("var");
    (st, x)
}

/// `n` new nodes: a chain `((x + x) + x) + ...`, every node distinct.
fn chain(st: &mut TermStore, x: TermId, n: u64) -> TermId {
    let mut t = x;
    for _ in 0..n {
        t = st.bv_add(t, x).expect("add");
    }
    t
}

fn hash_consing(c: &mut Criterion) {
    let mut g = c.benchmark_group("hash-consing");
    // 100,000 nodes (the index fits in cache) and 1,000,000 (it does not).
    for (n, size) in [(N, "100k"), (10 * N, "1M")] {
        g.throughput(Throughput::Elements(n));
        for (label, simplify) in [("simplifying", true), ("plain", false)] {
            g.bench_function(format!("new/{size}/{label}"), |b| {
                b.iter_batched(
                    || store_with_var(simplify),
                    |(mut st, x)| black_box(chain(&mut st, x, n)),
                    BatchSize::LargeInput,
                )
            });
            let (mut st, x) = store_with_var(simplify);
            chain(&mut st, x, n);
            g.bench_function(format!("hit/{size}/{label}"), |b| {
                b.iter(|| black_box(chain(&mut st, x, n)))
            });
        }
    }
    g.finish();
}

fn simplification(c: &mut Criterion) {
    let mut g = c.benchmark_group("simplify");
    g.throughput(Throughput::Elements(N));
    // Constant folding: ((1 * 3 + 7) xor 5) ... all constants, folded as built.
    g.bench_function("fold", |b| {
        b.iter_batched(
            TermStore::new,
            |mut st| {
                let mut t = st.bv_val(32, 1).expect("c");
                for i in 0..N {
                    let k = st.bv_val(32, u128::from(i % 97 + 1)).expect("c");
                    t = match i % 4 {
                        0 => st.bv_mul(t, k),
                        1 => st.bv_add(t, k),
                        2 => st.bv_xor(t, k),
                        _ => st.bv_sdiv(t, k),
                    }
                    .expect("op");
                }
                black_box(t)
            },
            BatchSize::LargeInput,
        )
    });
    // Rebuild: a plain DAG full of neutral elements, simplified in one pass.
    g.bench_function("rebuild", |b| {
        b.iter_batched(
            || {
                let (mut st, x) = store_with_var(false);
                let zero = st.bv_val(32, 0).expect("c");
                let one = st.bv_val(32, 1).expect("c");
                let mut t = x;
                for i in 0..N {
                    t = match i % 3 {
                        0 => st.bv_add(t, zero),
                        1 => st.bv_mul(t, one),
                        _ => st.bv_add(t, x),
                    }
                    .expect("op");
                }
                (st, t)
            },
            |(mut st, t)| black_box(st.simplify(t).expect("simplify")),
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = hash_consing, simplification
}
criterion_main!(benches);
