//! Writing results to standard output and messages to standard error. A reader that closes
//! the pipe early (`symex check … | head`, `symex run P 2>&1 | head -1`) is not a failure of
//! the command: the rest is dropped and the exit code stays the command's own (`eprintln!`
//! would panic on a closed standard error). Any other write error to standard output is
//! reported on standard error.

use std::io::{ErrorKind, Write};

/// Writes `text` to standard output as `print!` would, without panicking on a closed pipe.
pub fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() != ErrorKind::BrokenPipe {
            eprint(&format!("error: cannot write to standard output: {e}\n"));
        }
    }
}

/// Writes `text` to standard error as `eprint!` would, dropping it if standard error is closed.
pub fn eprint(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes()).and_then(|()| err.flush());
}

/// `eprintln!` without the panic on a closed standard error ([`eprint`]).
macro_rules! diag {
    ($($arg:tt)*) => {
        $crate::stdout::eprint(&format!("{}\n", format_args!($($arg)*)))
    };
}
