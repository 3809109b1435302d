//! `symex types FILE`: the inferred type of every function, parameter and variable.

use super::{load_and_analyze, FileArg};
use crate::exit::Exit;
use crate::source::ColorChoice;

pub fn run(args: &FileArg, color: ColorChoice) -> Exit {
    // C states its types; `symex cfg` shows a C file's lowered IR.
    if symex_c::is_c_file(&args.file) {
        diag!(
            "error: `symex types` infers micro-c's types; a C program declares its own (`symex \
             cfg {}` shows what it lowers to)",
            args.file
        );
        return Exit::Usage;
    }
    let (file, frontend) = match load_and_analyze(&args.file, color) {
        Ok(loaded) => loaded,
        Err(exit) => return exit,
    };
    match &frontend.types {
        Ok(table) => {
            crate::stdout::print(&table.render(&frontend.program));
            Exit::Success
        }
        Err(errors) => {
            file.emit(errors, color);
            Exit::ProgramError
        }
    }
}
