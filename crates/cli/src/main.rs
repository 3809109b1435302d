//! `symex`: find the inputs that break a micro-c or C program, or prove there are none.
//!
//! This binary only parses arguments and wires the layers together (syntax → ir → interp →
//! engines → report); every real decision lives in the library crates. Exit codes are in
//! [`exit::Exit`] and `docs/exit-codes.md`.

// Output goes through `stdout.rs`, which survives a closed pipe; the print macros panic.
#![deny(clippy::print_stdout, clippy::print_stderr)]

// First: its `diag!` macro is used by the modules after it.
#[macro_use]
mod stdout;
mod allocator;
mod commands;
mod exit;
mod progress;
mod source;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use exit::Exit;
use source::ColorChoice;

#[global_allocator]
static ALLOCATOR: allocator::ReportingAllocator = allocator::ReportingAllocator;

#[derive(Parser)]
#[command(
    name = "symex",
    version,
    about = "Symbolic execution for micro-c and C: find the inputs that break a program"
)]
struct Cli {
    /// When to color diagnostics.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, global = true)]
    color: ColorChoice,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Find the inputs that break a program, or prove there are none.
    Check(Box<commands::check::CheckArgs>),
    /// Run a program concretely with the reference interpreter.
    Run(commands::run::RunArgs),
    /// Print the inferred type of every function, parameter and variable.
    Types(commands::FileArg),
    /// Print the control-flow graph IR (text, or Graphviz with --dot).
    Cfg(commands::cfg::CfgArgs),
    /// Generate random well-typed, terminating programs (deterministic by --seed).
    Gen(Box<commands::gen::GenArgs>),
    /// Run program sets under several configurations and tabulate the results (docs/bench.md).
    Bench(Box<commands::bench::BenchArgs>),
    /// Check an SV-COMP verification task (TASK.yml) and answer TRUE, FALSE or UNKNOWN.
    Svcomp(commands::svcomp::SvcompArgs),
    /// Turn a JSON report (`symex check --format json`) into another form (an HTML page).
    Report(commands::report::ReportArgs),
    /// Run the tests of `symex check --emit-tests DIR` and measure their coverage (lcov too).
    Replay(commands::replay::ReplayArgs),
}

/// Deep recursion in the front end is bounded by the parser's nesting limit; the large stack
/// makes sure that bound, not the platform's default stack size, is what users meet.
const STACK_SIZE: usize = 256 << 20;

fn main() {
    let matches = Cli::command().get_matches();
    if let Some(("check", check)) = matches.subcommand() {
        if let Err(message) = commands::check::refuse_unused_options(check) {
            Cli::command()
                .error(clap::error::ErrorKind::ArgumentConflict, message)
                .exit();
        }
    }
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let worker = std::thread::Builder::new()
        .name("symex".into())
        .stack_size(STACK_SIZE)
        .spawn(move || dispatch(cli));
    let exit = match worker.map(|handle| handle.join()) {
        Ok(Ok(exit)) => exit,
        // A panic was already printed by the panic hook: an internal error, code 101 as Rust's.
        Ok(Err(_)) => std::process::exit(101),
        Err(e) => {
            diag!("error: cannot start the worker thread: {e}");
            std::process::exit(101)
        }
    };
    std::process::exit(exit.code());
}

fn dispatch(cli: Cli) -> Exit {
    match cli.command {
        Command::Check(args) => commands::check::run(&args, cli.color),
        Command::Run(args) => commands::run::run(&args, cli.color),
        Command::Types(args) => commands::types::run(&args, cli.color),
        Command::Cfg(args) => commands::cfg::run(&args, cli.color),
        Command::Gen(args) => commands::gen::run(&args),
        Command::Bench(args) => commands::bench::run(&args),
        Command::Svcomp(args) => commands::svcomp::run(&args, cli.color),
        Command::Report(args) => commands::report::run(&args),
        Command::Replay(args) => commands::replay::run(&args, cli.color),
    }
}
