//! Functions whose inputs are heaps: `f(p, q)` over lists `{val, next}` that may be null,
//! aliased or cyclic (reads and writes through aliases, null fields, assertions over values and
//! aliasing), and a `main` that fixes the record type; `g(p, t)` over a list and a tree
//! `{val, left, right}` (two record types sharing `val`, for typed input cells); and `f(p, q)`
//! with no `main` to fix its types, so that its pointers keep *open* record types (`{val}`,
//! `{data, next}`, …) that may still be one input object. The input-heap engines are tested on
//! them (heap models against each other and against concrete runs, the backward engine against
//! the forward one).
//!
//! Deterministic (a SplitMix64 stream per seed) and small: the body has 4 to 6 statements, one
//! level of `if`. Every program type-checks; nothing here runs them.

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const POINTERS: [&str; 4] = ["p", "q", "a", "b"];

/// One statement over `p, q, a, b` and `n`; with `data`, also statements on a third field that
/// only some pointers meet and a write-write-read that fails only through an alias (the draws
/// of the other statements are the same either way).
fn statement(rng: &mut Rng, depth: u32, out: &mut String, indent: &str, data: bool) {
    if data && rng.below(4) == 0 {
        let x = rng.pick(&POINTERS);
        let y = rng.pick(&POINTERS);
        let field = rng.pick(&["val", "data"]);
        let line = match rng.below(3) {
            0 => format!("{x}->data = {};", rng.below(3)),
            1 => format!("n = n + {x}->data;"),
            // Fails exactly when `x` and `y` are one object, which nothing else relates.
            _ => format!("{x}->{field} = 1; {y}->{field} = 2; assert({x}->{field} == 1);"),
        };
        out.push_str(&format!("{indent}{line}\n"));
        return;
    }
    let x = rng.pick(&POINTERS);
    let y = rng.pick(&POINTERS);
    let k = rng.below(5) as i32 - 1;
    let choice = if depth == 0 {
        rng.below(7)
    } else {
        rng.below(10)
    };
    let line = match choice {
        0 => format!("{x} = {y}->next;"),
        1 => format!("{x}->val = {k};"),
        2 => format!("{x}->next = {y};"),
        3 => format!("{x}->next = null;"),
        4 => format!("n = n + {x}->val;"),
        5 => format!("assert({x}->val != {k} || n < {k});"),
        6 => format!("assert({x} != {y} || n != {k});"),
        _ => {
            let cond = match rng.below(3) {
                0 => format!("{x} != null"),
                1 => format!("{x} == {y}"),
                _ => format!("{x} != null && {x}->val > {k}"),
            };
            out.push_str(&format!("{indent}if ({cond}) {{\n"));
            let inner = format!("{indent}  ");
            for _ in 0..1 + rng.below(2) {
                statement(rng, depth - 1, out, &inner, data);
            }
            out.push_str(&format!("{indent}}}\n"));
            return;
        }
    };
    out.push_str(&format!("{indent}{line}\n"));
}

const LISTS: [&str; 2] = ["p", "a"];
const TREES: [&str; 2] = ["t", "c"];

fn two_kind_statement(rng: &mut Rng, depth: u32, out: &mut String, indent: &str) {
    let x = rng.pick(&LISTS);
    let y = rng.pick(&LISTS);
    let t = rng.pick(&TREES);
    let u = rng.pick(&TREES);
    let side = rng.pick(&["left", "right"]);
    let k = rng.below(5) as i32 - 1;
    let choice = if depth == 0 {
        rng.below(9)
    } else {
        rng.below(11)
    };
    let line = match choice {
        0 => format!("{x} = {y}->next;"),
        1 => format!("{t} = {u}->{side};"),
        2 => format!("{x}->val = {k};"),
        3 => format!("{t}->val = {k};"),
        4 => format!("{t}->{side} = {u};"),
        5 => format!("n = n + {x}->val - {t}->val;"),
        6 => format!("assert({x}->val != {t}->val || n < {k});"),
        7 => format!("assert({t} != {u} || n != {k});"),
        8 => format!("{x}->next = null;"),
        _ => {
            let cond = match rng.below(3) {
                0 => format!("{x} != null"),
                1 => format!("{t} != null"),
                _ => format!("{t} != null && {t}->val > {k}"),
            };
            out.push_str(&format!(
                "{indent}if ({cond}) {{
"
            ));
            let inner = format!("{indent}  ");
            for _ in 0..1 + rng.below(2) {
                two_kind_statement(rng, depth - 1, out, &inner);
            }
            out.push_str(&format!("{indent}}}\n"));
            return;
        }
    };
    out.push_str(&format!("{indent}{line}\n"));
}

/// `g(p, t)` over a list `{val, next}` and a tree `{val, left, right}` (each possibly null,
/// aliased within its type or cyclic), and a `main` that fixes both record types.
pub fn two_kind_entry_program(seed: u64) -> String {
    let mut rng = Rng(seed);
    let mut body = String::new();
    for _ in 0..4 + rng.below(3) {
        two_kind_statement(&mut rng, 1, &mut body, "  ");
    }
    format!(
        "g(p, t) {{\n  var a, c, n;\n  n = 0;\n  a = p;\n  c = t;\n{body}  return n;\n}}\n\n\
         main() {{\n  var x, y;\n  x = alloc {{val: 1, next: null}};\n  x->next = x;\n  \
         y = alloc {{val: 2, left: null, right: null}};\n  y->left = y;\n  y->right = y;\n  \
         return g(x, y);\n}}\n"
    )
}

/// `f(p, q)` over lists `{val, next}` (possibly null, aliased or cyclic), and a `main` that
/// fixes the record type.
pub fn pointer_entry_program(seed: u64) -> String {
    two_pointer_function(
        seed,
        false,
        "var x;\n  x = alloc {val: 1, next: null};\n  x->next = x;\n  return f(x, x);",
    )
}

/// `f(p, q)` over records with fields among `val`, `next` and `data`, whose types only the body
/// constrains (`main` does not call `f`): pointers that no statement relates keep different open
/// record types, yet a well-typed input heap may make them one object.
pub fn open_record_program(seed: u64) -> String {
    two_pointer_function(seed, true, "return 0;")
}

/// `f(p, q)` with 4 to 6 statements (`data`: also on the third field) and `main` doing `main_body`.
fn two_pointer_function(seed: u64, data: bool, main_body: &str) -> String {
    let mut rng = Rng(seed);
    let mut body = String::new();
    for _ in 0..4 + rng.below(3) {
        statement(&mut rng, 1, &mut body, "  ", data);
    }
    format!(
        "f(p, q) {{\n  var a, b, n;\n  n = 0;\n  a = p;\n  b = q;\n{body}  return n;\n}}\n\n\
         main() {{\n  {main_body}\n}}\n"
    )
}
