//! `symex gen`: random well-typed, terminating micro-c programs (`docs/generator.md`), one on
//! stdout or `--count N` files in `--out DIR`; the same flags and seed give the same text.

use crate::exit::Exit;
use symex_gen::calls::{call_tree_program, CallTree};
use symex_gen::GenConfig;

/// Every knob of [`GenConfig`]; a knob left out keeps `GenConfig::default()`'s value.
#[derive(clap::Args)]
pub struct GenArgs {
    /// Seed of the first program (program i of `--count` uses seed + i).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Functions besides `main` (at most 10,000).
    #[arg(long, default_value_t = GenConfig::default().functions as u32,
          value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pub functions: u32,
    /// Number variables per function (default: 2 to 4, drawn per function).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub variables: Option<u64>,
    /// Statements at the top level of each function (1 to 100,000).
    #[arg(long, default_value_t = GenConfig::default().statements as u32,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub statements: u32,
    /// Maximum statements in a nested block (each has 1 to this many; at most 1,000).
    #[arg(long, default_value_t = GenConfig::default().nested_statements as u32,
          value_parser = clap::value_parser!(u32).range(1..=1_000))]
    pub block_statements: u32,
    /// Maximum nesting of blocks (`if`, loops, guards).
    #[arg(long, default_value_t = GenConfig::default().max_block_depth)]
    pub block_depth: usize,
    /// Maximum nesting of loops.
    #[arg(long, default_value_t = GenConfig::default().max_loop_depth)]
    pub loop_depth: usize,
    /// Percent chance of a general `while` loop per statement.
    #[arg(long, default_value_t = GenConfig::default().loop_percent, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub loop_prob: u32,
    /// Percent chance of a counting ("for") loop per statement.
    #[arg(long, default_value_t = GenConfig::default().for_percent, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub for_prob: u32,
    /// Percent of counting loops whose limit is an input-dependent variable instead of a
    /// constant (up to 2^31 - 1 iterations).
    #[arg(long, default_value_t = GenConfig::default().input_bound_percent, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub input_bound_prob: u32,
    /// Percent chance of an `if` per statement.
    #[arg(long, default_value_t = GenConfig::default().if_percent, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub if_prob: u32,
    /// Maximum iterations of a loop.
    #[arg(long, default_value_t = GenConfig::default().max_loop_bound, value_parser = clap::value_parser!(i32).range(1..))]
    pub loop_bound: i32,
    /// Statements in `main` that certainly fail, each when the first input is its own
    /// constant.
    #[arg(long, default_value_t = GenConfig::default().errors)]
    pub errors: usize,
    /// `/` and `%` by computed values (default on; `--no-divisions` turns it off).
    #[arg(long, overrides_with = "no_divisions")]
    pub divisions: bool,
    #[arg(long, overrides_with = "divisions", hide = true)]
    pub no_divisions: bool,
    /// Heap records `{val, next}` behind pointers (default on; `--no-heap` turns it off).
    #[arg(long, overrides_with = "no_heap")]
    pub heap: bool,
    #[arg(long, overrides_with = "heap", hide = true)]
    pub no_heap: bool,
    /// Pointers that are null on some paths, dereferenced (default on; `--no-null` turns it off).
    #[arg(long, overrides_with = "no_null")]
    pub null: bool,
    #[arg(long, overrides_with = "null", hide = true)]
    pub no_null: bool,
    /// An array of 4 numbers (default on; `--no-arrays` turns it off).
    #[arg(long, overrides_with = "no_arrays")]
    pub arrays: bool,
    #[arg(long, overrides_with = "arrays", hide = true)]
    pub no_arrays: bool,
    /// Array indices computed from inputs, guarded or not (default on; `--no-symbolic-indices` turns it off).
    #[arg(long, overrides_with = "no_symbolic_indices")]
    pub symbolic_indices: bool,
    #[arg(long, overrides_with = "symbolic_indices", hide = true)]
    pub no_symbolic_indices: bool,
    /// Calls to earlier functions (default on; `--no-calls` turns it off).
    #[arg(long, overrides_with = "no_calls")]
    pub calls: bool,
    #[arg(long, overrides_with = "calls", hide = true)]
    pub no_calls: bool,
    /// `assert`s over computed values (default on; `--no-asserts` turns it off).
    #[arg(long, overrides_with = "no_asserts")]
    pub asserts: bool,
    #[arg(long, overrides_with = "asserts", hide = true)]
    pub no_asserts: bool,
    /// Linear arithmetic only: constant factors and dividends (default off).
    #[arg(long)]
    pub linear: bool,
    /// Instead of a random program: a call tree in the shape of seed 004's Example 6 with at
    /// least this many lines (expensive pure callees, a writing callee, an assertion that holds
    /// by local reasoning; `docs/generator.md`).
    #[arg(long, value_name = "LINES", value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub call_tree: Option<u64>,
    /// Calls per inner function of `--call-tree`.
    #[arg(long, default_value_t = 4, requires = "call_tree", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub fan_out: u32,
    /// Lines of arithmetic in each expensive callee of `--call-tree`.
    #[arg(long, default_value_t = 40, requires = "call_tree", value_parser = clap::value_parser!(u32).range(0..=100_000))]
    pub callee_lines: u32,
    /// In `--call-tree`, one leaf (chosen by the seed) asserts what only its callee can break.
    #[arg(long, requires = "call_tree")]
    pub call_bug: bool,
    /// Number of programs to write (needs --out).
    #[arg(long, default_value_t = 1, requires = "out")]
    pub count: u64,
    /// Write `DIR/gen_<seed>.uc` files instead of printing one program.
    #[arg(long, value_name = "DIR")]
    pub out: Option<String>,
}

/// A flag pair's value: `--x` or `--no-x` (the last one given wins), else the default.
fn toggle(on: bool, off: bool, default: bool) -> bool {
    on || (default && !off)
}

impl GenArgs {
    /// The generator's configuration, or why the flags are inconsistent.
    pub fn checked_config(&self) -> Result<GenConfig, String> {
        let config = self.config();
        let sum = config.loop_percent + config.for_percent + config.if_percent;
        if sum > 100 {
            return Err(format!(
                "--loop-prob, --for-prob and --if-prob add up to {sum} %, more than 100 %"
            ));
        }
        Ok(config)
    }

    fn config(&self) -> GenConfig {
        let d = GenConfig::default();
        GenConfig {
            functions: self.functions as usize,
            variables: self.variables.map(|n| n as usize),
            statements: self.statements as usize,
            nested_statements: self.block_statements as usize,
            max_block_depth: self.block_depth,
            max_loop_depth: self.loop_depth,
            loop_percent: self.loop_prob,
            for_percent: self.for_prob,
            input_bound_percent: self.input_bound_prob,
            if_percent: self.if_prob,
            max_loop_bound: self.loop_bound,
            errors: self.errors,
            divisions: toggle(self.divisions, self.no_divisions, d.divisions),
            heap: toggle(self.heap, self.no_heap, d.heap),
            null_pointers: toggle(self.null, self.no_null, d.null_pointers),
            arrays: toggle(self.arrays, self.no_arrays, d.arrays),
            // Not a flag: the header line names every setting that shapes a program.
            array_length: d.array_length,
            symbolic_indices: toggle(
                self.symbolic_indices,
                self.no_symbolic_indices,
                d.symbolic_indices,
            ),
            calls: toggle(self.calls, self.no_calls, d.calls),
            asserts: toggle(self.asserts, self.no_asserts, d.asserts),
            linear: self.linear || d.linear,
        }
    }
}

/// The command line that regenerates a program: every knob spelled out, so the first line of a
/// generated file still describes it if the defaults change.
fn header(c: &GenConfig, seed: u64) -> String {
    let flag = |name: &str, on: bool| {
        if on {
            format!(" --{name}")
        } else {
            format!(" --no-{name}")
        }
    };
    // Spelled out only when set, so headers of programs made without it stay as they were.
    let variables = c
        .variables
        .map(|n| format!(" --variables {n}"))
        .unwrap_or_default();
    format!(
        "// symex gen --seed {seed} --functions {}{variables} --statements {} --block-statements {} \
         --block-depth {} --loop-depth {} --loop-prob {} --for-prob {} --input-bound-prob {} --if-prob {} \
         --loop-bound {} --errors {}{}{}{}{}{}{}{}{}\n",
        c.functions,
        c.statements,
        c.nested_statements,
        c.max_block_depth,
        c.max_loop_depth,
        c.loop_percent,
        c.for_percent,
        c.input_bound_percent,
        c.if_percent,
        c.max_loop_bound,
        c.errors,
        flag("divisions", c.divisions),
        flag("heap", c.heap),
        flag("null", c.null_pointers),
        flag("arrays", c.arrays),
        flag("symbolic-indices", c.symbolic_indices),
        flag("calls", c.calls),
        flag("asserts", c.asserts),
        if c.linear { " --linear" } else { "" },
    )
}

/// The text `symex gen` writes for `seed`: the regenerating command line, then the program.
pub fn program_text(config: &GenConfig, seed: u64) -> String {
    header(config, seed) + &symex_gen::generate(config, seed)
}

pub fn run(args: &GenArgs) -> Exit {
    let config = match args.checked_config() {
        Ok(config) => config,
        Err(message) => {
            diag!("error: {message}");
            return Exit::Usage;
        }
    };
    let program = |seed: u64| match args.call_tree {
        Some(lines) => {
            let tree = CallTree::with_lines(lines, args.fan_out, args.callee_lines, args.call_bug);
            format!(
                "// symex gen --seed {seed} --call-tree {lines} --fan-out {} --callee-lines {}{} (depth {})\n{}",
                tree.fan_out,
                tree.callee_lines,
                if tree.bug { " --call-bug" } else { "" },
                tree.depth,
                call_tree_program(&tree, seed)
            )
        }
        None => program_text(&config, seed),
    };
    let Some(dir) = &args.out else {
        crate::stdout::print(&program(args.seed));
        return Exit::Success;
    };
    if let Err(e) = std::fs::create_dir_all(dir) {
        diag!("error: cannot create {dir}: {e}");
        return Exit::Usage;
    }
    for seed in (0..args.count).map(|i| args.seed.wrapping_add(i)) {
        let path = std::path::Path::new(dir).join(format!("gen_{seed}.uc"));
        if let Err(e) = std::fs::write(&path, program(seed)) {
            diag!("error: cannot write {}: {e}", path.display());
            return Exit::Usage;
        }
    }
    diag!("wrote {} programs to {dir}", args.count);
    Exit::Success
}
