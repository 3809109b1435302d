//! Running the system's C preprocessor (`gcc -E`) on a `.c` file. A `.i` file is already
//! preprocessed and never goes through here. Nothing here parses C.

use std::path::Path;
use std::process::Command;

use crate::error::{CError, ErrorKind};

/// The preprocessed text of the `.c` file at `path`, with line markers.
pub fn preprocess(path: &Path) -> Result<String, CError> {
    let failed = |message: String| CError {
        kind: ErrorKind::Preprocessor,
        message,
        offset: None,
    };
    let output = Command::new("gcc")
        .args(["-E", "-std=gnu11", "-x", "c"])
        .arg(path)
        .output()
        .map_err(|e| failed(format!("cannot run `gcc -E` (install gcc): {e}")))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(failed(format!("`gcc -E` failed:\n{}", stderr.trim_end())));
    }
    String::from_utf8(output.stdout)
        .map_err(|_| failed("the preprocessed text is not UTF-8".into()))
}
