//! A deterministic generator of well-typed, terminating micro-c programs.
//!
//! Used by property tests (every generated program must type-check, lower, verify and run without
//! a crash) and by benchmarks (large programs for the front end). Every variable is assigned
//! before it is read, every loop is bounded by a dedicated counter and calls only go to earlier
//! functions, so concrete runs terminate; runtime errors (division by zero, null dereference, out
//! of bounds, failed assertions) are possible on purpose. The same [`GenConfig`] and seed give the
//! same program on every machine and every version of the dependencies (see [`rng`]).

mod rng;

use rng::Rng;
use std::fmt::Write;

/// What to generate. Probabilities are in percent.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Functions besides `main`.
    pub functions: usize,
    /// Statements at the top level of each function body.
    pub statements: usize,
    /// Maximum statements in a nested block (`if`/`while` bodies).
    pub nested_statements: usize,
    /// Maximum nesting of `if`/`while` blocks.
    pub max_block_depth: usize,
    /// Chance that a statement is a `while` loop (bounded by a counter).
    pub loop_percent: u32,
    /// Chance that a statement is an `if`.
    pub if_percent: u32,
    /// Maximum iterations of a generated loop.
    pub max_loop_bound: i32,
    /// Allow `/` and `%` by arbitrary expressions.
    pub divisions: bool,
    /// Use heap records `{val, next}` and pointers.
    pub heap: bool,
    /// Use arrays with computed indices.
    pub arrays: bool,
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
            statements: 8,
            nested_statements: 4,
            max_block_depth: 2,
            loop_percent: 15,
            if_percent: 20,
            max_loop_bound: 4,
            divisions: true,
            heap: true,
            arrays: true,
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
    ints: Vec<String>,
    pointers: Vec<String>,
    arrays: Vec<String>,
    next_counter: usize,
    counters: Vec<String>,
}

struct Generator<'a> {
    rng: Rng,
    config: &'a GenConfig,
    out: String,
    /// Arity of each generated function so far (all parameters are ints, results are ints).
    arities: Vec<usize>,
}

const ARRAY_LEN: i32 = 4;

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
            pointers: Vec::new(),
            arrays: Vec::new(),
            next_counter: 0,
            counters: Vec::new(),
        };
        let mut locals = Vec::new();
        let mut init = String::new();
        for i in 0..2 + self.rng.below(3) {
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
            let elems: Vec<String> = (0..ARRAY_LEN).map(|_| self.int_expr(&scope, 1)).collect();
            let _ = writeln!(init, "  {v} = [{}];", elems.join(", "));
            locals.push(v.clone());
            scope.arrays.push(v);
        }
        let mut body = String::new();
        for _ in 0..self.config.statements {
            self.statement(&mut scope, &mut body, 1);
        }
        locals.append(&mut scope.counters);
        let _ = writeln!(self.out, "{name}({}) {{", params.join(", "));
        if !locals.is_empty() {
            let _ = writeln!(self.out, "  var {};", locals.join(", "));
        }
        self.out.push_str(&init);
        self.out.push_str(&body);
        let result = self.pick(&scope.ints);
        let _ = writeln!(self.out, "  return {result};\n}}\n");
        if !is_main {
            self.arities.push(arity);
        }
    }

    fn statement(&mut self, scope: &mut Scope, out: &mut String, depth: usize) {
        let indent = "  ".repeat(depth);
        let roll = self.rng.below(100) as u32;
        let nested_ok = depth <= self.config.max_block_depth;
        if nested_ok && roll < self.config.loop_percent {
            let counter = format!("c{}", scope.next_counter);
            scope.next_counter += 1;
            scope.counters.push(counter.clone());
            let bound = 1 + self.rng.below(self.config.max_loop_bound.max(1) as u64) as i32;
            let _ = writeln!(out, "{indent}{counter} = 0;");
            let _ = writeln!(out, "{indent}while ({counter} < {bound}) {{");
            self.block(scope, out, depth + 1);
            let _ = writeln!(out, "{indent}  {counter} = {counter} + 1;");
            let _ = writeln!(out, "{indent}}}");
        } else if nested_ok && roll < self.config.loop_percent + self.config.if_percent {
            let cond = self.condition(scope);
            let _ = writeln!(out, "{indent}if ({cond}) {{");
            self.block(scope, out, depth + 1);
            if self.rng.below(2) == 0 {
                let _ = writeln!(out, "{indent}}} else {{");
                self.block(scope, out, depth + 1);
            }
            let _ = writeln!(out, "{indent}}}");
        } else {
            let line = self.simple_statement(scope);
            let _ = writeln!(out, "{indent}{line}");
        }
    }

    fn block(&mut self, scope: &mut Scope, out: &mut String, depth: usize) {
        let count = 1 + self.rng.below(self.config.nested_statements.max(1) as u64) as usize;
        for _ in 0..count {
            self.statement(scope, out, depth);
        }
    }

    fn simple_statement(&mut self, scope: &Scope) -> String {
        match self.rng.below(10) {
            0 => format!("output {};", self.int_expr(scope, 2)),
            1 if self.config.asserts => format!("assert({});", self.condition(scope)),
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
                format!("{a}[{}] = {};", self.index(scope), self.int_expr(scope, 2))
            }
            _ => {
                let x = self.pick(&scope.ints);
                format!("{x} = {};", self.int_expr(scope, 3))
            }
        }
    }

    /// An index that is usually, not always, in bounds.
    fn index(&mut self, scope: &Scope) -> String {
        if self.rng.below(4) == 0 {
            format!("({}) % {ARRAY_LEN}", self.int_expr(scope, 1))
        } else {
            self.rng.below(ARRAY_LEN as u64).to_string()
        }
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
                format!("{p}->next != null && {lhs} {op} {rhs}")
            }
            _ => format!("{lhs} {op} {rhs}"),
        }
    }

    fn int_expr(&mut self, scope: &Scope, depth: usize) -> String {
        if depth == 0 || self.rng.below(3) == 0 {
            return self.int_atom(scope);
        }
        match self.rng.below(8) {
            0 if !self.arities.is_empty() => {
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
                format!("{a}[{}]", self.rng.below(ARRAY_LEN as u64))
            }
            _ if !scope.ints.is_empty() => self.pick(&scope.ints),
            _ => self.constant(),
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
