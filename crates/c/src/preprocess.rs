//! Running the system's C preprocessor (`gcc -E`) on a `.c` file, for the task's data model.
//! A `.i` file is already preprocessed and never goes through here. Nothing here parses C.
//!
//! Under ILP32 the macros that headers and programs test (`LONG_MAX`, `SIZE_MAX`,
//! `__SIZEOF_LONG__`, `__LP64__`, `__WORDSIZE`) must be those of `gcc -m32`, or a program that
//! compares a `long` with `LONG_MAX` is checked against a 64-bit constant its 32-bit `long`
//! never reaches (a wrong `TRUE`). `gcc -m32 -E` needs 32-bit C headers, which most x86-64
//! machines lack; so the file is preprocessed with the machine's own headers and `gcc -m32`'s
//! predefined macros instead (`-undef -imacros`): glibc's x86 headers serve both widths and
//! choose by those macros. The one header that exists only per width, `gnu/stubs-32.h` (the
//! list of functions glibc leaves unimplemented, nothing a program's meaning depends on), is
//! supplied empty where the machine has none.

use std::path::Path;
use std::process::{Command, Output};
use std::sync::OnceLock;

use crate::error::{CError, ErrorKind};
use crate::DataModel;

fn failed(message: String) -> CError {
    CError {
        kind: ErrorKind::Preprocessor,
        message,
        offset: None,
    }
}

/// The preprocessed text of the `.c` file at `path`, with line markers.
pub fn preprocess(path: &Path, data_model: DataModel) -> Result<String, CError> {
    let output = match data_model {
        DataModel::Lp64 => run(Command::new("gcc")
            .args(["-E", "-std=gnu11", "-x", "c"])
            .arg(path))?,
        DataModel::Ilp32 => {
            let setup = Ilp32Setup::new()?;
            run(Command::new("gcc")
                .args(["-E", "-std=gnu11", "-undef", "-imacros"])
                .arg(&setup.macros)
                .arg("-idirafter")
                .arg(setup.headers.path())
                .args(["-x", "c"])
                .arg(path))?
        }
    };
    String::from_utf8(output.stdout)
        .map_err(|_| failed("the preprocessed text is not UTF-8".into()))
}

/// Runs `gcc`, failing with its message unless it succeeds.
fn run(command: &mut Command) -> Result<Output, CError> {
    let output = command
        .output()
        .map_err(|e| failed(format!("cannot run `gcc -E` (install gcc): {e}")))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(failed(format!("`gcc -E` failed:\n{}", stderr.trim_end())));
    }
    Ok(output)
}

/// A temporary folder with `gcc -m32`'s predefined macros and an empty `gnu/stubs-32.h`,
/// removed when dropped.
struct Ilp32Setup {
    headers: tempfile::TempDir,
    macros: std::path::PathBuf,
}

/// The macros `-undef` keeps defined: defining them again would only warn. (`-undef` also
/// leaves out glibc's `stdc-predef.h`, whose macros the dump holds: they stay.)
const KEPT_BY_UNDEF: [&str; 5] = [
    "__STDC__",
    "__STDC_VERSION__",
    "__STDC_HOSTED__",
    "__STDC_UTF_16__",
    "__STDC_UTF_32__",
];

/// `gcc -m32`'s predefined macros as a header, asked once per process.
fn ilp32_macros() -> Result<&'static str, CError> {
    static MACROS: OnceLock<Result<String, String>> = OnceLock::new();
    let made = MACROS.get_or_init(|| {
        let dump = Command::new("gcc")
            .args(["-m32", "-std=gnu11", "-dM", "-E", "-x", "c", "/dev/null"])
            .output()
            .map_err(|e| e.to_string())?;
        if !dump.status.success() {
            return Err(String::from_utf8_lossy(&dump.stderr).trim_end().to_string());
        }
        let mut macros: String = String::from_utf8_lossy(&dump.stdout)
            .lines()
            .filter(|line| {
                let name = line
                    .strip_prefix("#define ")
                    .and_then(|d| d.split(' ').next());
                !name.is_some_and(|name| KEPT_BY_UNDEF.contains(&name))
            })
            .flat_map(|line| [line, "\n"])
            .collect();
        // gcc's `stddef.h` gives i386's `max_align_t` a `__float128` member, a type the C
        // parser does not know; as `long double` it is what LP64's `max_align_t` has, and a
        // program that uses it is refused as floating point either way.
        macros.push_str("#define __float128 long double\n");
        Ok(macros)
    });
    made.as_deref().map_err(|why| {
        failed(format!(
            "cannot ask `gcc -m32 -dM -E` for the ILP32 data model's macros:\n{why}"
        ))
    })
}

impl Ilp32Setup {
    fn new() -> Result<Self, CError> {
        let macros = ilp32_macros()?;
        let io = |e: std::io::Error| failed(format!("cannot prepare ILP32 preprocessing: {e}"));
        let headers = tempfile::Builder::new()
            .prefix("symex-ilp32-")
            .tempdir()
            .map_err(io)?;
        std::fs::create_dir(headers.path().join("gnu")).map_err(io)?;
        std::fs::write(headers.path().join("gnu/stubs-32.h"), "").map_err(io)?;
        let macros_path = headers.path().join("ilp32-macros.h");
        std::fs::write(&macros_path, macros).map_err(io)?;
        Ok(Ilp32Setup {
            headers,
            macros: macros_path,
        })
    }
}
