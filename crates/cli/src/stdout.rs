//! Writing results to standard output. A reader that closes the pipe early
//! (`symex check … | head`) is not a failure of the command: the rest is dropped and the exit
//! code stays the command's own. Any other write error is reported on standard error.

use std::io::{ErrorKind, Write};

/// Writes `text` to standard output as `print!` would, without panicking on a closed pipe.
pub fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() != ErrorKind::BrokenPipe {
            eprintln!("error: cannot write to standard output: {e}");
        }
    }
}
