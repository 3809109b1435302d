//! `symex cfg FILE [--dot]`: the control-flow-graph IR, as text or Graphviz.

use super::load_program;
use crate::exit::Exit;
use crate::source::ColorChoice;
use symex_syntax::span::LineIndex;

#[derive(clap::Args)]
pub struct CfgArgs {
    /// The program: micro-c (`.uc`) or C (`.c`, preprocessed `.i`).
    pub file: String,
    /// Print Graphviz DOT (one cluster per function) instead of text.
    #[arg(long)]
    pub dot: bool,
    #[command(flatten)]
    pub frontend: super::FrontendArgs,
}

pub fn run(args: &CfgArgs, color: ColorChoice) -> Exit {
    let (file, lowered) = match load_program(&args.file, args.frontend, "main", color) {
        Ok(loaded) => loaded,
        Err(exit) => return exit,
    };
    // The IR does not depend on types; show it for ill-typed programs too, with the warnings.
    lowered.warn_type_errors(&file, color);
    let module = lowered.module;
    if args.dot {
        crate::stdout::print(&symex_ir::dot::to_dot(&module));
    } else {
        crate::stdout::print(&symex_ir::print::print_module(
            &module,
            &LineIndex::new(&file.text),
        ));
    }
    Exit::Success
}
