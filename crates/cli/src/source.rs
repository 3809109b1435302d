//! Loading a program file and printing its diagnostics: the CLI's only contact with the file
//! system and the terminal for source problems. Must not interpret the program.

use std::io::IsTerminal;
use symex_syntax::diag::{Diagnostic, Severity};

/// A program file as read from disk: a display name and its UTF-8 text.
pub struct SourceFile {
    pub name: String,
    pub text: String,
}

/// Reads `path`; an unreadable or non-UTF-8 file is an error message that says where and why.
pub fn load(path: &str) -> Result<SourceFile, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read `{path}`: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        // `valid` is UTF-8 by construction, so the lossy conversion changes nothing.
        let before = String::from_utf8_lossy(valid);
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!(
            "`{path}` is not valid UTF-8: invalid byte 0x{:02x} at {path}:{line}:{column} (byte offset {})",
            e.as_bytes()[valid.len()],
            valid.len()
        )
    })?;
    if text.trim().is_empty() {
        // A diagnostic has no line to point at in an empty file.
        return Err(format!(
            "`{path}` is empty: a program needs at least `main() {{ ... }}`"
        ));
    }
    Ok(SourceFile {
        name: path.to_string(),
        text,
    })
}

/// When to color diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    pub fn enabled(self) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
            }
        }
    }
}

impl SourceFile {
    /// Prints every diagnostic to stderr, then a summary line if there were errors.
    pub fn emit(&self, diagnostics: &[Diagnostic], color: ColorChoice) {
        self.emit_plain(diagnostics, color);
        let errors = diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        if errors > 0 {
            let plural = if errors == 1 { "" } else { "s" };
            diag!(
                "error: `{}` rejected because of {errors} error{plural}",
                self.name
            );
        }
    }

    /// Prints the diagnostics to stderr, without a summary.
    pub fn emit_plain(&self, diagnostics: &[Diagnostic], color: ColorChoice) {
        let color = color.enabled();
        for d in diagnostics {
            crate::stdout::eprint(&d.render(&self.name, &self.text, color));
        }
    }
}
