//! The paper's worked examples as golden states (seed 003 §3.1, Figures 2 and 3), built with
//! the heap model's own refinement, read and write steps, and compared term for term (the
//! store hash-conses, so equal terms are the same id; names aside, this is the figure); and
//! the case analysis of lazy initialization and the witness builder on small heaps.

use symex_smt::{PathCondition, TermId, TermStore};

use crate::common::options::{CheckOptions, HeapModel};
use crate::common::terms;
use crate::forward::value::{Step, SymValue};
use crate::heap::{Access, HeapContext, HeapState, Refined, Resolution};

struct Fixture {
    ctx: HeapContext,
    store: TermStore,
    heap: HeapState,
    pc: PathCondition,
    field: Step,
}

impl Fixture {
    /// The entry `entry` of `source` with its pointer parameters as input symbols.
    fn new(source: &str, entry: &str, params: &[&str]) -> (Fixture, Vec<TermId>) {
        Fixture::with_model(source, entry, params, HeapModel::Pose)
    }

    fn with_model(
        source: &str,
        entry: &str,
        params: &[&str],
        model: HeapModel,
    ) -> (Fixture, Vec<TermId>) {
        let front = symex_syntax::analyze(source).expect("parses");
        let types = front.types.expect("types");
        let module = symex_ir::lower(&front.program);
        let options = CheckOptions {
            heap: model,
            ..CheckOptions::default()
        };
        let mut ctx = HeapContext::new(&module, &options);
        let mut store = TermStore::new();
        let symbols = params
            .iter()
            .map(|p| {
                let ty = types
                    .local_type(entry, p)
                    .expect("typed")
                    .pointee()
                    .expect("pointer");
                let key = ctx.intern_type(&ty);
                ctx.reference(&mut store, p, key, 0).expect("symbol")
            })
            .collect();
        let f = module
            .fields
            .iter()
            .position(|n| n == "f")
            .expect("field f");
        let fixture = Fixture {
            ctx,
            store,
            heap: HeapState::default(),
            pc: PathCondition::new(),
            field: Step::Field(symex_ir::cfg::FieldId(f as u32)),
        };
        (fixture, symbols)
    }

    fn read(&mut self, t: TermId) -> TermId {
        let steps = [self.field];
        let cut = (self.ctx)
            .refine(
                &mut self.store,
                &mut self.heap,
                &mut self.pc,
                t,
                &steps,
                Access::Read,
            )
            .expect("refines");
        assert_eq!(cut, Refined::Whole);
        match self
            .ctx
            .read(&mut self.store, &self.heap, t, &steps)
            .expect("reads")
        {
            Some(SymValue::Int(v)) => v,
            other => panic!("a number, not {other:?}"),
        }
    }

    fn write(&mut self, t: TermId, n: i32) {
        let steps = [self.field];
        let access = Access::DirectWrite;
        let cut = (self.ctx)
            .refine(
                &mut self.store,
                &mut self.heap,
                &mut self.pc,
                t,
                &steps,
                access,
            )
            .expect("refines");
        assert_eq!(cut, Refined::Whole);
        let value = SymValue::Int(self.num(n));
        let always = self.store.bool_val(true).expect("true");
        (self.ctx)
            .write(&mut self.store, &mut self.heap, always, t, &steps, value)
            .expect("writes");
    }

    fn num(&mut self, n: i32) -> TermId {
        terms::int_const(&mut self.store, n).expect("constant")
    }

    fn slot(&self, ident: TermId) -> Option<TermId> {
        let i = self.heap.object_by_ident(ident)?;
        let Step::Field(f) = self.field else {
            return None;
        };
        match self.heap.objects[i].slot(Some(f)) {
            Some(SymValue::Int(v)) => Some(*v),
            _ => None,
        }
    }

    fn ite_eq(&mut self, a: TermId, b: TermId, then: TermId, other: TermId) -> TermId {
        let c = self.store.eq(a, b).expect("eq");
        self.store.ite(c, then, other).expect("ite")
    }

    /// `a = b → x = y`, as the heap model builds it.
    fn alias_clause(&mut self, a: TermId, b: TermId, x: TermId, y: TermId) -> TermId {
        let alias = self.store.eq(a, b).expect("eq");
        let apart = self.store.not(alias).expect("not");
        let agree = self.store.eq(x, y).expect("eq");
        self.store.or(apart, agree).expect("or")
    }

    fn var(&mut self, name: &str) -> TermId {
        self.ctx.symbol(&mut self.store, name).expect("symbol")
    }
}

const P1: &str = "p1(a0, a1, a2) { var v; v = a0->f + a1->f + a2->f; return v; }
main() { var x; x = alloc {f: 1}; return p1(x, x, x); }";

const P2: &str = "p2(b0, b1, b2) { b2->f = 2; b1->f = 1; b0->f = 0; return b0->f + b1->f + b2->f; }
main() { var x; x = alloc {f: 1}; return p2(x, x, x); }";

/// Figure 2(b), with the aliasing of the initial heap as clauses instead of `assume` chains
/// (docs/heap-models.md, deviation 3): after line 3 of p1 each slot holds its own symbol, and
/// each initialization adds one constraint, `ident = other → initial = other's initial`,
/// over the objects read before it. No fork.
#[test]
fn figure_2_reads_tie_aliases_by_clauses() {
    let (mut fx, a) = Fixture::new(P1, "p1", &["a0", "a1", "a2"]);
    let f0 = fx.read(a[0]);
    let f1 = fx.read(a[1]);
    let f2 = fx.read(a[2]);
    let (i0, i1, i2) = (fx.var("a0.f"), fx.var("a1.f"), fx.var("a2.f"));
    assert_eq!((f0, f1, f2), (i0, i1, i2));
    let a1_clause = fx.alias_clause(a[1], a[0], i1, i0);
    let a2_clause = {
        let with_a0 = fx.alias_clause(a[2], a[0], i2, i0);
        let with_a1 = fx.alias_clause(a[2], a[1], i2, i1);
        fx.store.and(with_a0, with_a1).expect("and")
    };
    assert_eq!(fx.pc.to_vec(), vec![a1_clause, a2_clause]);
    // Reading again returns the stored values (Getfield c1), without new symbols or clauses.
    assert_eq!(fx.read(a[1]), i1);
    assert_eq!(fx.heap.initial.len(), 3);
    assert_eq!(fx.pc.len(), 2);
}

/// A slot initialized after a write replays it over its initial value (what the write gave
/// the slots initialized before it); the clause ties the initial values all the same.
#[test]
fn writes_are_replayed_over_slots_initialized_after_them() {
    let (mut fx, a) = Fixture::new(P1, "p1", &["a0", "a1", "a2"]);
    let i0 = fx.read(a[0]);
    fx.write(a[0], 5);
    let f1 = fx.read(a[1]);
    let (five, i1) = (fx.num(5), fx.var("a1.f"));
    assert_eq!(f1, fx.ite_eq(a[1], a[0], five, i1));
    let clause = fx.alias_clause(a[1], a[0], i1, i0);
    assert_eq!(fx.pc.to_vec(), vec![clause]);
    // A slot first written directly has no initial value: no clause, only the chain.
    let (mut fy, b) = Fixture::new(P1, "p1", &["a0", "a1", "a2"]);
    fy.write(b[0], 5);
    let g1 = fy.read(b[1]);
    let (five, j1) = (fy.num(5), fy.var("a1.f"));
    assert_eq!(g1, fy.ite_eq(b[1], b[0], five, j1));
    assert!(fy.pc.is_empty());
}

/// Figure 3(b)-(d): writes materialize without reading (no initial value), update the
/// initialized aliases with `ite(Y'=Y, v, old)`, and leave ⊥ fields alone.
#[test]
fn figure_3_writes_update_the_aliases() {
    let (mut fx, b) = Fixture::new(P2, "p2", &["b0", "b1", "b2"]);
    let (zero, one, two) = (fx.num(0), fx.num(1), fx.num(2));
    fx.write(b[2], 2);
    assert_eq!(fx.slot(b[2]), Some(two)); // (b)
    assert_eq!(fx.heap.objects.len(), 1);
    fx.write(b[1], 1);
    let b2f = fx.ite_eq(b[2], b[1], one, two);
    assert_eq!((fx.slot(b[2]), fx.slot(b[1])), (Some(b2f), Some(one))); // (c)
    fx.write(b[0], 0);
    let b2f = fx.ite_eq(b[2], b[0], zero, b2f);
    let b1f = fx.ite_eq(b[1], b[0], zero, one);
    assert_eq!(
        (fx.slot(b[2]), fx.slot(b[1]), fx.slot(b[0])),
        (Some(b2f), Some(b1f), Some(zero))
    ); // (d)
    assert!(fx.heap.initial.is_empty(), "no initial value was read");
    // Line 6: the sum is exactly the figure's condition term.
    let sum = {
        let (x, y, z) = (fx.read(b[0]), fx.read(b[1]), fx.read(b[2]));
        let xy = fx.store.bv_add(x, y).expect("add");
        fx.store.bv_add(xy, z).expect("add")
    };
    let expected = {
        let zb = fx.store.bv_add(zero, b1f).expect("add");
        fx.store.bv_add(zb, b2f).expect("add")
    };
    assert_eq!(sum, expected);
}

/// A read and a write through an `ite` reference: both compare the reference with each
/// identity it may denote (one chain, not `c`'s structure copied), the write updating each
/// object under "the reference denotes it".
#[test]
fn ite_references_read_and_write_by_identity() {
    let (mut fx, b) = Fixture::new(P2, "p2", &["b0", "b1", "b2"]);
    let c = fx.store.bool_var("c").expect("var");
    let both = fx.store.ite(c, b[0], b[1]).expect("ite");
    let read = fx.read(both);
    let (i0, i1) = (fx.var("b0.f"), fx.var("b1.f"));
    let expected = fx.ite_eq(both, b[0], i0, i1);
    assert_eq!(read, expected);
    let seven = SymValue::Int(fx.num(7));
    let always = fx.store.bool_val(true).expect("true");
    let steps = [fx.field];
    (fx.ctx)
        .write(&mut fx.store, &mut fx.heap, always, both, &steps, seven)
        .expect("writes");
    let seven = fx.num(7);
    let b0f = fx.ite_eq(b[0], both, seven, i0);
    assert_eq!(fx.slot(b[0]), Some(b0f));
    let b1f = fx.ite_eq(b[1], both, seven, i1);
    assert_eq!(fx.slot(b[1]), Some(b1f));
}

/// Lazy initialization: null, each compatible object in order, fresh; a resolution replaces the
/// symbol in the objects' slots; lazier# splits a null comparison in two.
#[test]
fn lazy_initialization_enumerates_null_aliases_and_fresh() {
    let (mut fx, b) = Fixture::with_model(P2, "p2", &["b0", "b1", "b2"], HeapModel::Li);
    let cases = fx.ctx.alternatives(&fx.heap, b[0], true);
    assert_eq!(cases, vec![Resolution::Null, Resolution::Fresh]);
    let replaced = (fx.ctx)
        .apply(
            &mut fx.store,
            &mut fx.heap,
            &mut fx.pc,
            b[0],
            Resolution::Fresh,
        )
        .expect("applies")
        .expect("no bound");
    let first = fx.heap.objects[0].ident;
    assert_eq!(replaced, vec![(b[0], first)]);
    assert_eq!(fx.store.as_bv(first).map(|c| c.bits()), Some(1));
    let cases = fx.ctx.alternatives(&fx.heap, b[1], true);
    assert_eq!(
        cases,
        vec![Resolution::Null, Resolution::Alias(0), Resolution::Fresh]
    );
    fx.heap.objects[0].set_slot(None, SymValue::Ref(b[2]));
    let replaced = (fx.ctx)
        .apply(
            &mut fx.store,
            &mut fx.heap,
            &mut fx.pc,
            b[2],
            Resolution::Null,
        )
        .expect("applies")
        .expect("no bound");
    let zero = fx.num(0);
    assert_eq!(replaced, vec![(b[2], zero)]);
    assert_eq!(fx.heap.objects[0].slot(None), Some(&SymValue::Ref(zero)));
    assert_eq!(
        fx.ctx.alternatives(&fx.heap, b[1], false),
        vec![Resolution::Null, Resolution::NonNull]
    );
}

/// Two POSE objects at the same address are one input object whose field comes from the first
/// initialization; an unbound non-null reference gets an object of its own.
#[test]
fn witnesses_merge_aliases_and_keep_the_first_initialization() {
    let (mut fx, a) = Fixture::new(P1, "p1", &["a0", "a1", "a2"]);
    fx.read(a[0]);
    fx.read(a[1]);
    let (i0, i1) = (fx.var("a0.f"), fx.var("a1.f"));
    let (a0, a1, a2) = (a[0], a[1], a[2]);
    let model = move |t: TermId| -> Option<i32> {
        Some(if t == a0 || t == a1 {
            100
        } else if t == a2 {
            200
        } else if t == i0 {
            7
        } else if t == i1 {
            9
        } else {
            0
        })
    };
    let args: Vec<(String, SymValue)> = ["a0", "a1", "a2"]
        .iter()
        .zip(&a)
        .map(|(n, t)| (n.to_string(), SymValue::Ref(*t)))
        .collect();
    let witness = fx.ctx.witness(&fx.store, &fx.heap, &args, &model);
    let heap = &witness.heap;
    assert_eq!(heap["args"]["a0"], heap["args"]["a1"], "{heap}");
    assert_ne!(heap["args"]["a0"], heap["args"]["a2"], "{heap}");
    let id = heap["args"]["a0"]["ref"].as_str().expect("a ref");
    assert_eq!(heap["objects"][id]["record"]["f"], 7, "{heap}");
    let other = heap["args"]["a2"]["ref"].as_str().expect("a ref");
    assert_eq!(heap["objects"][other]["record"]["f"], 0, "{heap}");
}

/// The memoized leaves of a reference term are `leaves`' (same order, null left out), also
/// for a DAG whose walk as a tree would be exponential.
#[test]
fn reference_leaves_are_memoized_in_first_occurrence_order() {
    let mut s = TermStore::new();
    let refs: Vec<TermId> = (0..4)
        .map(|k| s.bv_var(format!("r{k}"), 32).unwrap())
        .collect();
    let null = terms::int_const(&mut s, 0).unwrap();
    let mut t = null;
    for (k, &r) in refs.iter().enumerate() {
        let c = s.bool_var(format!("c{k}")).unwrap();
        t = s.ite(c, r, t).unwrap();
    }
    let memo = crate::heap::access::ReferenceLeaves::default();
    let expected: Vec<TermId> = refs.iter().rev().copied().collect();
    assert_eq!(*memo.of(&s, t), *expected);
    assert_eq!(crate::heap::access::leaves(&s, t), expected);
    let mut dag = t;
    for k in 0..64 {
        let c = s.bool_var(format!("d{k}")).unwrap();
        let other = s.ite(c, refs[0], dag).unwrap();
        let c2 = s.bool_var(format!("e{k}")).unwrap();
        dag = s.ite(c2, other, dag).unwrap();
    }
    // The then-branch of the outermost `ite` reaches `r0` first, the rest come after it.
    let expected_dag = [refs[0], refs[3], refs[2], refs[1]];
    assert_eq!(*memo.of(&s, dag), expected_dag);
}
