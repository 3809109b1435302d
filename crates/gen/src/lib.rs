//! A deterministic generator of well-typed, terminating micro-c programs.
//!
//! Used by property tests (every generated program must type-check, lower, verify and run without
//! a crash) and by benchmarks (large programs for the front end). Every variable is assigned
//! before it is read, every loop is bounded by a dedicated counter and calls only go to earlier
//! functions, so concrete runs terminate; runtime errors (division by zero, null dereference, out
//! of bounds, failed assertions) are possible on purpose. The same [`GenConfig`] and seed give the
//! same program on every machine and every version of the dependencies (see [`rng`]).
//! `symex gen` exposes every knob; `docs/generator.md` describes what each one generates.
//! [`lists`] generates functions whose inputs are list heaps (pointer parameters); [`calls`]
//! generates call trees in the shape of seed 004's Example 6 (the structural engine's scale
//! benchmark). [`mutate`] changes program text for the front ends' fuzz tests.

pub mod calls;
pub mod degree;
pub mod lists;
pub mod mutate;
mod rng;

pub use rng::Rng;
use std::fmt::Write;

/// What to generate. Probabilities are in percent; `docs/generator.md` shows what each knob
/// generates and how the knobs map to the parameters of seed 002's generator (§6.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenConfig {
    /// Functions besides `main`.
    pub functions: usize,
    /// Number variables `x0 …` of each function; `None` draws 2 to 4 per function (the
    /// generator's original shape: programs generated without this knob stay byte-identical).
    /// The thesis's programs have 16 to 30 variables, so that a loop body's few assignments
    /// mostly touch variables nothing else reads.
    pub variables: Option<usize>,
    /// Statements at the top level of each function body (guaranteed errors come on top).
    pub statements: usize,
    /// Maximum statements in a nested block (`if`/`while` bodies); each block has 1 to this many.
    pub nested_statements: usize,
    /// Maximum nesting of blocks (`if`, loops, guards); 0 makes every body flat.
    pub max_block_depth: usize,
    /// Maximum nesting of loops (of either kind), within the block-depth limit.
    pub max_loop_depth: usize,
    /// Chance that a statement is a general `while` loop: a random condition over program
    /// values, bounded by a hidden fuel counter (the thesis's `loopGenProb`).
    pub loop_percent: u32,
    /// Chance that a statement is a counting loop `c = 0; while (c < b) { …; c = c + 1; }`
    /// (the thesis's `forLoopGenProb`).
    pub for_percent: u32,
    /// Chance that a counting loop runs up to an input-dependent limit instead of a constant:
    /// `n = x; c = 0; while (c < n) { …; c = c + 1; }`, with `n` a snapshot of a program
    /// variable that the body cannot see (the thesis's "for" loops compare two variables).
    /// Such a loop has up to 2^31 − 1 iterations, so concrete runs still terminate but plain
    /// symbolic execution cannot exhaust it.
    pub input_bound_percent: u32,
    /// Chance that a statement is an `if`.
    pub if_percent: u32,
    /// Maximum iterations of a generated loop.
    pub max_loop_bound: i32,
    /// Statements in `main` that certainly fail when reached, each under its own test of the
    /// first input, so every one is reachable for some input.
    pub errors: usize,
    /// Allow `/` and `%` by arbitrary expressions.
    pub divisions: bool,
    /// Use heap records `{val, next}` and pointers.
    pub heap: bool,
    /// Let pointers become `null` on some paths (`p = q->next`, `p = null`) and dereference
    /// them, guarded or not.
    pub null_pointers: bool,
    /// Use an array.
    pub arrays: bool,
    /// The array's elements (4 by default; from 32 on, the forward engine keeps an array
    /// written at a symbolic index as a write log, which differential tests exercise so).
    pub array_length: usize,
    /// Index arrays by values computed from inputs, guarded by a bounds test or not; without
    /// this, indices are in-bounds literals (as in the thesis).
    pub symbolic_indices: bool,
    /// Call earlier functions (calls only go backwards, so there is no recursion).
    pub calls: bool,
    /// Emit `assert`s over computed values.
    pub asserts: bool,
    /// Keep arithmetic linear: products get a constant factor and divisions a constant
    /// dividend, so solvers decide the generated queries quickly (differential tests).
    pub linear: bool,
}

impl Default for GenConfig {
    fn default() -> GenConfig {
        GenConfig {
            functions: 3,
            variables: None,
            statements: 8,
            nested_statements: 4,
            max_block_depth: 2,
            max_loop_depth: 2,
            loop_percent: 10,
            for_percent: 15,
            input_bound_percent: 0,
            if_percent: 20,
            max_loop_bound: 4,
            errors: 0,
            divisions: true,
            heap: true,
            null_pointers: true,
            arrays: true,
            array_length: 4,
            symbolic_indices: true,
            calls: true,
            asserts: true,
            linear: false,
        }
    }
}

/// Generates a program from `config` and `seed`.
pub fn generate(config: &GenConfig, seed: u64) -> String {
    let mut g = Generator {
        rng: Rng::new(seed),
        config,
        out: String::new(),
        arities: Vec::new(),
    };
    for index in 0..config.functions {
        g.function(&format!("f{index}"), false);
    }
    g.function("main", true);
    g.out
}

/// A program of about `lines` lines spread over many functions (for scale tests and benchmarks).
pub fn program_with_lines(lines: usize, seed: u64) -> String {
    sized(
        lines,
        |functions| GenConfig {
            functions,
            statements: 24,
            ..GenConfig::default()
        },
        seed,
    )
}

/// A program of about `lines` lines almost all in `main`: the shape that exposes anything
/// quadratic in the size of one function.
pub fn single_function_with_lines(lines: usize, seed: u64) -> String {
    sized(
        lines,
        |statements| GenConfig {
            functions: 0,
            statements,
            ..GenConfig::default()
        },
        seed,
    )
}

/// Scales the size knob of `config` until the program is within 10 % of `lines` lines (a few
/// rounds of proportional correction; sizes grow about linearly with the knob).
fn sized(lines: usize, config: impl Fn(usize) -> GenConfig, seed: u64) -> String {
    let mut knob = 20;
    let mut text = generate(&config(knob), seed);
    for _ in 0..6 {
        let got = text.lines().count().max(1);
        if got.abs_diff(lines) * 10 <= lines {
            break;
        }
        knob = (knob * lines).div_ceil(got).max(1);
        text = generate(&config(knob), seed);
    }
    text
}

/// The variables of the function being generated, by type.
struct Scope {
    /// Integer variables that statements may assign.
    ints: Vec<String>,
    /// Integer variables that may be read here but not assigned: the counters of the enclosing
    /// counting loops.
    readonly: Vec<String>,
    pointers: Vec<String>,
    arrays: Vec<String>,
    /// Loop counters and fuel variables declared so far.
    loop_vars: Vec<String>,
}

struct Generator<'a> {
    rng: Rng,
    config: &'a GenConfig,
    out: String,
    /// Arity of each generated function so far (all parameters are ints, results are ints).
    arities: Vec<usize>,
}

/// The variable holding main's first input, which selects the guaranteed error to trigger.
const SELECTOR: &str = "sel";

/// The kinds of statement [`Generator::statement`] chooses between.
enum Kind {
    While,
    For,
    If,
    Simple,
}

impl Generator<'_> {
    fn function(&mut self, name: &str, is_main: bool) {
        let arity = if is_main {
            0
        } else {
            self.rng.below(4) as usize
        };
        let params: Vec<String> = (0..arity).map(|i| format!("p{i}")).collect();
        let mut scope = Scope {
            ints: params.clone(),
            readonly: Vec::new(),
            pointers: Vec::new(),
            arrays: Vec::new(),
            loop_vars: Vec::new(),
        };
        let mut locals = Vec::new();
        let mut init = String::new();
        let errors = if is_main { self.config.errors } else { 0 };
        if errors > 0 {
            // Read first, so the first input selects the error; never read anywhere else.
            let _ = writeln!(init, "  {SELECTOR} = input;");
            locals.push(SELECTOR.to_string());
        }
        // A fixed count consults no random number, so the stream after it is the same for
        // every count; a drawn count is what programs before the knob used.
        let variables = match self.config.variables {
            Some(count) => count as u64,
            None => 2 + self.rng.below(3),
        };
        for i in 0..variables {
            let v = format!("x{i}");
            let value = if is_main {
                "input".to_string()
            } else {
                self.int_expr(&scope, 1)
            };
            let _ = writeln!(init, "  {v} = {value};");
            locals.push(v.clone());
            scope.ints.push(v);
        }
        if self.config.heap {
            for i in 0..1 + self.rng.below(2) {
                let v = format!("h{i}");
                let next = scope
                    .pointers
                    .last()
                    .cloned()
                    .unwrap_or_else(|| "null".into());
                let value = self.int_expr(&scope, 1);
                let _ = writeln!(init, "  {v} = alloc {{val: {value}, next: {next}}};");
                locals.push(v.clone());
                scope.pointers.push(v);
            }
        }
        if self.config.arrays {
            let v = "a0".to_string();
            let length = self.config.array_length;
            let elems: Vec<String> = (0..length).map(|_| self.int_expr(&scope, 1)).collect();
            let _ = writeln!(init, "  {v} = [{}];", elems.join(", "));
            locals.push(v.clone());
            scope.arrays.push(v);
        }
        let mut body: Vec<String> = Vec::new();
        for _ in 0..self.config.statements {
            let mut text = String::new();
            self.statement(&mut scope, &mut text, 1, 0);
            body.push(text);
        }
        for k in 0..errors {
            let at = self.rng.below(body.len() as u64 + 1) as usize;
            let error = self.guaranteed_error(&scope, k);
            body.insert(at, error);
        }
        locals.append(&mut scope.loop_vars);
        let _ = writeln!(self.out, "{name}({}) {{", params.join(", "));
        if !locals.is_empty() {
            let _ = writeln!(self.out, "  var {};", locals.join(", "));
        }
        self.out.push_str(&init);
        for text in body {
            self.out.push_str(&text);
        }
        let result = self.pick(&scope.ints);
        let _ = writeln!(self.out, "  return {result};\n}}\n");
        if !is_main {
            self.arities.push(arity);
        }
    }

    /// The `k`-th guaranteed error of `main`: a top-level `if` on the selector (a distinct
    /// constant per error) around a statement that certainly fails.
    fn guaranteed_error(&mut self, scope: &Scope, k: usize) -> String {
        let constant = 10 * k as u64 + 1 + self.rng.below(9);
        let mut kinds = vec!["assert(0);".to_string(), "output 1 / 0;".to_string()];
        if let Some(a) = scope.arrays.first() {
            kinds.push(format!("output {a}[{}];", self.config.array_length));
        }
        if let Some(p) = scope.pointers.first() {
            kinds.push(format!("{p} = null;\n    output {p}->val;"));
        }
        let failing = &kinds[self.rng.below(kinds.len() as u64) as usize];
        format!("  if ({SELECTOR} == {constant}) {{\n    {failing}\n  }}\n")
    }

    /// One statement at nesting `depth` (1 = the function body) inside `loops` loops.
    fn statement(&mut self, scope: &mut Scope, out: &mut String, depth: usize, loops: usize) {
        let indent = "  ".repeat(depth);
        let nested_ok = depth <= self.config.max_block_depth;
        let loop_ok = nested_ok && loops < self.config.max_loop_depth;
        let roll = self.rng.below(100) as u32;
        let config = self.config;
        let kind = if roll < config.loop_percent {
            Kind::While
        } else if roll < config.loop_percent + config.for_percent {
            Kind::For
        } else if roll < config.loop_percent + config.for_percent + config.if_percent {
            Kind::If
        } else {
            Kind::Simple
        };
        match kind {
            Kind::While if loop_ok => {
                let fuel = format!("w{}", scope.loop_vars.len());
                scope.loop_vars.push(fuel.clone());
                let bound = self.loop_bound();
                let cond = self.condition(scope);
                let _ = writeln!(out, "{indent}{fuel} = {bound};");
                let _ = writeln!(out, "{indent}while ({fuel} > 0 && ({cond})) {{");
                self.block(scope, out, depth + 1, loops + 1);
                let _ = writeln!(out, "{indent}  {fuel} = {fuel} - 1;");
                let _ = writeln!(out, "{indent}}}");
            }
            Kind::For if loop_ok => {
                let index = scope.loop_vars.len();
                let counter = format!("c{index}");
                scope.loop_vars.push(counter.clone());
                // Rolled only when the knob is on, so programs without it stay as they were.
                let input_bounded = config.input_bound_percent > 0
                    && !scope.ints.is_empty()
                    && (self.rng.below(100) as u32) < config.input_bound_percent;
                let guard = if input_bounded {
                    let limit = format!("n{index}");
                    scope.loop_vars.push(limit.clone());
                    let value = self.pick(&scope.ints);
                    let _ = writeln!(out, "{indent}{limit} = {value};");
                    format!("{counter} < {limit}")
                } else {
                    self.constant_guard(scope, &counter)
                };
                let _ = writeln!(out, "{indent}{counter} = 0;");
                let _ = writeln!(out, "{indent}while ({guard}) {{");
                scope.readonly.push(counter.clone());
                self.block(scope, out, depth + 1, loops + 1);
                scope.readonly.pop();
                let _ = writeln!(out, "{indent}  {counter} = {counter} + 1;");
                let _ = writeln!(out, "{indent}}}");
            }
            Kind::If if nested_ok => {
                let cond = self.condition(scope);
                let _ = writeln!(out, "{indent}if ({cond}) {{");
                self.block(scope, out, depth + 1, loops);
                if self.rng.below(2) == 0 {
                    let _ = writeln!(out, "{indent}}} else {{");
                    self.block(scope, out, depth + 1, loops);
                }
                let _ = writeln!(out, "{indent}}}");
            }
            _ => self.simple_statement(scope, out, &indent, nested_ok),
        }
    }

    /// The guard of a counting loop bounded by a constant, half of the time also by a variable.
    fn constant_guard(&mut self, scope: &Scope, counter: &str) -> String {
        let bound = self.loop_bound();
        if !scope.ints.is_empty() && self.rng.below(2) == 0 {
            let limit = self.pick(&scope.ints);
            format!("{counter} < {limit} && {counter} < {bound}")
        } else {
            format!("{counter} < {bound}")
        }
    }

    fn loop_bound(&mut self) -> i32 {
        1 + self.rng.below(self.config.max_loop_bound.max(1) as u64) as i32
    }

    fn block(&mut self, scope: &mut Scope, out: &mut String, depth: usize, loops: usize) {
        let count = 1 + self.rng.below(self.config.nested_statements.max(1) as u64) as usize;
        for _ in 0..count {
            self.statement(scope, out, depth, loops);
        }
    }

    /// A statement without a loop; `guard_ok` allows a one-statement `if` around a risky access.
    fn simple_statement(&mut self, scope: &Scope, out: &mut String, indent: &str, guard_ok: bool) {
        let config = self.config;
        let line = match self.rng.below(12) {
            0 => format!("output {};", self.int_expr(scope, 2)),
            1 if config.asserts => format!("assert({});", self.condition(scope)),
            2 if !scope.pointers.is_empty() => {
                let p = self.pick(&scope.pointers);
                format!("{p}->val = {};", self.int_expr(scope, 2))
            }
            3 if !scope.pointers.is_empty() => {
                let p = self.pick(&scope.pointers);
                let q = self.pick(&scope.pointers);
                match self.rng.below(3) {
                    0 => format!(
                        "{p} = alloc {{val: {}, next: {q}}};",
                        self.int_expr(scope, 1)
                    ),
                    1 => format!("{p}->next = {q};"),
                    _ => format!("{p} = {q};"),
                }
            }
            4 if !scope.arrays.is_empty() => {
                let a = self.pick(&scope.arrays);
                let i = self.index(scope, true);
                format!("{a}[{i}] = {};", self.int_expr(scope, 2))
            }
            5 if config.null_pointers && !scope.pointers.is_empty() => {
                let p = self.pick(&scope.pointers);
                let q = self.pick(&scope.pointers);
                match self.rng.below(4) {
                    0 => format!("{p} = null;"),
                    1 | 2 if guard_ok => {
                        let action = if self.rng.below(2) == 0 {
                            format!("{p}->val = {};", self.int_expr(scope, 1))
                        } else {
                            format!("{p} = {p}->next;")
                        };
                        format!("if ({p} != null) {{\n{indent}  {action}\n{indent}}}")
                    }
                    _ => format!("{p} = {q}->next;"),
                }
            }
            7 if config.symbolic_indices && guard_ok && !scope.arrays.is_empty() => {
                let a = self.pick(&scope.arrays);
                let i = self.readable(scope);
                let action = match self.rng.below(3) {
                    0 => format!("{a}[{i}] = {};", self.int_expr(scope, 1)),
                    1 => format!("output {a}[{i}];"),
                    _ => format!("{} = {a}[{i}];", self.pick(&scope.ints)),
                };
                let length = self.config.array_length;
                format!("if (0 <= {i} && {i} < {length}) {{\n{indent}  {action}\n{indent}}}")
            }
            _ => {
                let x = self.pick(&scope.ints);
                format!("{x} = {};", self.int_expr(scope, 3))
            }
        };
        let _ = writeln!(out, "{indent}{line}");
    }

    /// An array index: an in-bounds literal, or with symbolic indices sometimes a variable or
    /// (when `computed`) an expression reduced modulo the length; the last two may be out of
    /// bounds (a negative remainder, a counter past the length, an input).
    fn index(&mut self, scope: &Scope, computed: bool) -> String {
        if self.config.symbolic_indices {
            match self.rng.below(4) {
                0 if computed => {
                    let length = self.config.array_length;
                    return format!("({}) % {length}", self.int_expr(scope, 1));
                }
                1 => return self.readable(scope),
                _ => {}
            }
        }
        self.rng.below(self.config.array_length as u64).to_string()
    }

    fn condition(&mut self, scope: &Scope) -> String {
        let ops = ["<", "<=", ">", ">=", "==", "!="];
        let op = ops[self.rng.below(ops.len() as u64) as usize];
        let lhs = self.int_expr(scope, 1);
        let rhs = self.int_expr(scope, 1);
        match self.rng.below(6) {
            0 => format!("{lhs} {op} {rhs} && {}", self.int_expr(scope, 0)),
            1 => format!("{lhs} {op} {rhs} || !{}", self.int_expr(scope, 0)),
            2 if !scope.pointers.is_empty() => {
                let p = self.pick(&scope.pointers);
                if self.config.null_pointers {
                    format!("{p} != null && {p}->val {op} {rhs}")
                } else {
                    format!("{p}->next != null && {lhs} {op} {rhs}")
                }
            }
            _ => format!("{lhs} {op} {rhs}"),
        }
    }

    fn int_expr(&mut self, scope: &Scope, depth: usize) -> String {
        if depth == 0 || self.rng.below(3) == 0 {
            return self.int_atom(scope);
        }
        match self.rng.below(8) {
            0 if self.config.calls && !self.arities.is_empty() => {
                let f = self.rng.below(self.arities.len() as u64) as usize;
                let args: Vec<String> = (0..self.arities[f])
                    .map(|_| self.int_expr(scope, depth - 1))
                    .collect();
                format!("f{f}({})", args.join(", "))
            }
            1 if self.config.divisions => {
                let op = if self.rng.below(2) == 0 { "/" } else { "%" };
                let dividend = if self.config.linear {
                    self.constant()
                } else {
                    self.int_expr(scope, depth - 1)
                };
                format!("({dividend} {op} {})", self.int_expr(scope, depth - 1))
            }
            2 => format!("-({})", self.int_expr(scope, depth - 1)),
            3 if self.config.linear => {
                format!(
                    "({} * {})",
                    self.constant(),
                    self.int_expr(scope, depth - 1)
                )
            }
            _ => {
                let ops: &[&str] = if self.config.linear {
                    &["+", "-"]
                } else {
                    &["+", "-", "*", "+", "-"]
                };
                let op = ops[self.rng.below(ops.len() as u64) as usize];
                format!(
                    "({} {op} {})",
                    self.int_expr(scope, depth - 1),
                    self.int_expr(scope, depth - 1)
                )
            }
        }
    }

    /// A small constant in `-10..=10`.
    fn constant(&mut self) -> String {
        (self.rng.below(21) as i32 - 10).to_string()
    }

    fn int_atom(&mut self, scope: &Scope) -> String {
        match self.rng.below(6) {
            0 => self.constant(),
            1 if !scope.pointers.is_empty() => format!("{}->val", self.pick(&scope.pointers)),
            2 if !scope.arrays.is_empty() => {
                let a = self.pick(&scope.arrays);
                format!("{a}[{}]", self.index(scope, false))
            }
            _ if !scope.ints.is_empty() || !scope.readonly.is_empty() => self.readable(scope),
            _ => self.constant(),
        }
    }

    /// An integer variable that may be read here (a constant if there is none).
    fn readable(&mut self, scope: &Scope) -> String {
        let total = scope.ints.len() + scope.readonly.len();
        if total == 0 {
            return self.constant();
        }
        let i = self.rng.below(total as u64) as usize;
        match scope.ints.get(i) {
            Some(v) => v.clone(),
            None => scope.readonly[i - scope.ints.len()].clone(),
        }
    }

    fn pick(&mut self, names: &[String]) -> String {
        names[self.rng.below(names.len() as u64) as usize].clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_program() {
        let config = GenConfig::default();
        assert_eq!(generate(&config, 7), generate(&config, 7));
        assert_ne!(generate(&config, 7), generate(&config, 8));
    }

    #[test]
    fn size_scales_with_the_config() {
        let small = generate(&GenConfig::default(), 1);
        let big = generate(
            &GenConfig {
                functions: 30,
                statements: 40,
                ..GenConfig::default()
            },
            1,
        );
        assert!(big.lines().count() > 5 * small.lines().count());
        assert!(big.contains("main() {"));
    }

    /// The deepest nesting of blocks (within a function body) and of loops in `text`, read
    /// from the generator's layout: a block opens on a line ending in `{` and closes on a line
    /// starting with `}`.
    fn nesting(text: &str) -> (usize, usize) {
        let mut stack: Vec<bool> = Vec::new();
        let (mut blocks, mut loops) = (0, 0);
        for line in text.lines().map(str::trim) {
            if line.starts_with('}') {
                stack.pop();
            }
            if line.ends_with('{') {
                stack.push(line.starts_with("while"));
            }
            blocks = blocks.max(stack.len().saturating_sub(1));
            loops = loops.max(stack.iter().filter(|&&is_loop| is_loop).count());
        }
        (blocks, loops)
    }

    /// Programs for seeds `0..20` of `config`.
    fn programs(config: &GenConfig) -> Vec<String> {
        (0..20).map(|seed| generate(config, seed)).collect()
    }

    fn any_contains(config: &GenConfig, needle: &str) -> bool {
        programs(config).iter().any(|p| p.contains(needle))
    }

    /// Loops everywhere they are allowed, to exercise the nesting limits.
    fn loopy() -> GenConfig {
        GenConfig {
            functions: 1,
            statements: 6,
            nested_statements: 3,
            max_block_depth: 5,
            max_loop_depth: 5,
            loop_percent: 40,
            for_percent: 40,
            if_percent: 10,
            max_loop_bound: 2,
            ..GenConfig::default()
        }
    }

    #[test]
    fn general_while_loops_have_fuel_and_counting_loops_a_counter() {
        let only_while = GenConfig {
            for_percent: 0,
            ..loopy()
        };
        assert!(any_contains(&only_while, "while (w0 > 0 && ("));
        assert!(!any_contains(&only_while, "while (c"));
        let only_for = GenConfig {
            loop_percent: 0,
            ..loopy()
        };
        assert!(any_contains(&only_for, "c0 = 0;\n"));
        assert!(any_contains(&only_for, "while (c0 < "));
        assert!(!any_contains(&only_for, "while (w"));
        let none = GenConfig {
            loop_percent: 0,
            for_percent: 0,
            ..loopy()
        };
        assert!(!any_contains(&none, "while"));
    }

    #[test]
    fn input_bounded_counting_loops_only_when_enabled() {
        let only_for = GenConfig {
            loop_percent: 0,
            ..loopy()
        };
        assert!(!any_contains(&only_for, "n0 = "));
        let input_bounded = GenConfig {
            input_bound_percent: 100,
            ..only_for.clone()
        };
        for text in programs(&input_bounded) {
            for line in text.lines().map(str::trim) {
                if let Some(guard) = line.strip_prefix("while (c") {
                    // `while (cK < nK) {`: the counter against its own snapshot, nothing else.
                    let (counter, rest) = guard.split_once(" < n").expect("input-bounded guard");
                    assert_eq!(rest, format!("{counter}) {{"), "{line}");
                }
            }
        }
        assert!(any_contains(&input_bounded, "n0 = x"));
    }

    #[test]
    fn the_variables_knob_fixes_the_number_variables_of_every_function() {
        for count in [1, 5, 16] {
            let config = GenConfig {
                variables: Some(count),
                ..GenConfig::default()
            };
            for p in programs(&config) {
                for function in p.split("\n}\n").filter(|f| f.contains("var ")) {
                    let declared = function
                        .lines()
                        .find(|l| l.trim_start().starts_with("var "))
                        .unwrap_or("");
                    let last = format!(" x{},", count - 1);
                    let beyond = format!(" x{},", count);
                    assert!(declared.contains(&last), "{declared}");
                    assert!(!declared.contains(&beyond), "{declared}");
                }
            }
        }
    }

    #[test]
    fn loop_nesting_never_exceeds_its_limit() {
        for limit in 0..4 {
            let config = GenConfig {
                max_loop_depth: limit,
                ..loopy()
            };
            let deepest = programs(&config)
                .iter()
                .map(|p| nesting(p).1)
                .max()
                .unwrap_or(0);
            assert_eq!(deepest, limit, "loop depth limit {limit}");
        }
    }

    #[test]
    fn block_nesting_never_exceeds_its_limit() {
        for limit in 0..4 {
            let config = GenConfig {
                max_block_depth: limit,
                ..loopy()
            };
            let deepest = programs(&config)
                .iter()
                .map(|p| nesting(p).0)
                .max()
                .unwrap_or(0);
            assert_eq!(deepest, limit, "block depth limit {limit}");
        }
    }

    #[test]
    fn guaranteed_errors_are_top_level_tests_of_the_first_input() {
        for errors in [0, 1, 4] {
            let config = GenConfig {
                errors,
                ..GenConfig::default()
            };
            for p in programs(&config) {
                let main = &p[p.find("main() {").unwrap_or(0)..];
                assert_eq!(main.matches("\n  if (sel == ").count(), errors, "{p}");
                assert_eq!(main.contains("  sel = input;\n"), errors > 0, "{p}");
                assert_eq!(p.matches("sel").count(), 2 * errors.min(1) + errors);
            }
        }
    }

    #[test]
    fn null_pointers_only_when_enabled() {
        let on = GenConfig::default();
        assert!(any_contains(&on, " = null;"));
        assert!(any_contains(&on, "->next;"));
        assert!(any_contains(&on, " != null) {"));
        let off = GenConfig {
            null_pointers: false,
            ..on
        };
        for p in programs(&off) {
            assert!(!p.contains(" = null;") && !p.contains("->next;"), "{p}");
            assert!(!p.contains(" != null) {"), "{p}");
        }
    }

    /// Every index of `a0` in `text`.
    fn indices(text: &str) -> Vec<&str> {
        text.split("a0[")
            .skip(1)
            .filter_map(|rest| rest.split(']').next())
            .collect()
    }

    #[test]
    fn symbolic_indices_only_when_enabled() {
        let on = GenConfig::default();
        let all: Vec<String> = programs(&on);
        let symbolic = |i: &&str| i.parse::<i32>().is_err();
        assert!(all.iter().any(|p| indices(p).iter().any(symbolic)));
        assert!(all.iter().any(|p| p.contains(" < 4) {")));
        let off = GenConfig {
            symbolic_indices: false,
            ..on
        };
        for p in programs(&off) {
            for i in indices(&p) {
                let literal: i32 = i.parse().unwrap_or(-1);
                let length = GenConfig::default().array_length as i32;
                assert!((0..length).contains(&literal), "index {i} in\n{p}");
            }
        }
    }

    #[test]
    fn calls_only_when_enabled_and_only_backwards() {
        let on = GenConfig::default();
        for p in programs(&on) {
            // Function `k` (main is the last) calls only functions before it.
            for (k, function) in p.split("\n}\n").map(str::trim_start).enumerate() {
                for later in k..on.functions {
                    let call = format!("f{later}(");
                    let own = usize::from(function.starts_with(&call));
                    assert_eq!(
                        function.matches(&call).count(),
                        own,
                        "f{k} calls f{later}:\n{p}"
                    );
                }
            }
        }
        assert!(programs(&on).iter().any(|p| p.matches("f0(").count() > 1));
        let off = GenConfig { calls: false, ..on };
        for p in programs(&off) {
            for f in 0..off.functions {
                assert_eq!(p.matches(&format!("f{f}(")).count(), 1, "{p}");
            }
        }
    }

    #[test]
    fn no_division_at_all_without_divisions_and_symbolic_indices() {
        let off = GenConfig {
            divisions: false,
            symbolic_indices: false,
            ..GenConfig::default()
        };
        for p in programs(&off) {
            assert!(!p.contains('/') && !p.contains('%'), "{p}");
        }
        assert!(any_contains(&GenConfig::default(), " / "));
    }

    #[test]
    fn sized_programs_come_close_to_the_requested_size() {
        for lines in [1_000, 10_000] {
            let many = program_with_lines(lines, 3).lines().count();
            let one = single_function_with_lines(lines, 3).lines().count();
            for got in [many, one] {
                assert!(
                    got * 10 >= lines * 7 && got * 10 <= lines * 13,
                    "{got} lines for {lines}"
                );
            }
        }
    }
}
