//! Finding the corpus: the shared expectation corpus (vendored into `vendor/corpus` from
//! `../shared/corpus` by `scripts/vendor.sh`, or `$SYMEX_SHARED_CORPUS`) and the project's own
//! `corpus/` folder; the `.uc` files directly in
//! each, sorted by name. A missing shared corpus is an error (a test suite that silently checks
//! nothing is worse than a failing one); a missing project folder is just empty.

use std::path::{Path, PathBuf};

use crate::error::CorpusError;
use crate::header::parse;
use crate::model::{CorpusFile, Origin};

/// Environment variable that overrides the location of the shared corpus.
pub const SHARED_CORPUS_ENV: &str = "SYMEX_SHARED_CORPUS";

/// The workspace root (this crate lives in `crates/corpus`).
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `$SYMEX_SHARED_CORPUS`, else the vendored copy `vendor/corpus`.
pub fn shared_corpus_dir() -> PathBuf {
    match std::env::var_os(SHARED_CORPUS_ENV) {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => vendor_dir().join("corpus"),
    }
}

/// `vendor/` at the workspace root: the ground truth copied from `../shared`.
pub fn vendor_dir() -> PathBuf {
    workspace_root().join("vendor")
}

/// `../shared` beside the workspace, where the vendored files come from (absent on a clone).
pub fn shared_dir() -> PathBuf {
    workspace_root().join("../shared")
}

/// The project's own corpus folder, `corpus/` at the workspace root.
pub fn project_corpus_dir() -> PathBuf {
    workspace_root().join("corpus")
}

/// The `.uc` files directly in `dir`, sorted by file name.
pub fn uc_files_in(dir: &Path) -> Result<Vec<PathBuf>, CorpusError> {
    let io_error = |e: std::io::Error| CorpusError {
        path: dir.to_path_buf(),
        line: None,
        message: format!("cannot list the corpus folder: {e}"),
    };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io_error)? {
        let path = entry.map_err(io_error)?.path();
        if path.extension().is_some_and(|e| e == "uc") && path.is_file() {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// Reads and parses one corpus file.
pub fn load(path: &Path, origin: Origin) -> Result<CorpusFile, Vec<CorpusError>> {
    let source = std::fs::read_to_string(path).map_err(|e| {
        vec![CorpusError {
            path: path.to_path_buf(),
            line: None,
            message: format!("cannot read: {e}"),
        }]
    })?;
    parse(path, origin, &source)
}

/// Every corpus file: the shared ones, then the project's, each group sorted by name. Fails with
/// every problem found (all unreadable files and malformed header lines), not just the first.
pub fn all_files() -> Result<Vec<CorpusFile>, Vec<CorpusError>> {
    let project_dir = project_corpus_dir();
    let mut folders = vec![(shared_corpus_dir(), Origin::Shared)];
    if project_dir.is_dir() {
        folders.push((project_dir, Origin::Project));
    }
    files_in_folders(&folders)
}

/// Like [`all_files`] for explicit folders (each must exist).
pub fn files_in_folders(
    folders: &[(PathBuf, Origin)],
) -> Result<Vec<CorpusFile>, Vec<CorpusError>> {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for (dir, origin) in folders {
        let paths = match uc_files_in(dir) {
            Ok(paths) => paths,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        for path in paths {
            match load(&path, *origin) {
                Ok(file) => files.push(file),
                Err(e) => errors.extend(e),
            }
        }
    }
    if errors.is_empty() {
        Ok(files)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("symex-corpus-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn finds_uc_files_sorted_and_reports_every_bad_header() {
        let dir = temp_dir("discover");
        std::fs::write(
            dir.join("b.uc"),
            "//! verdict: safe\nmain() { return 0; }\n",
        )
        .unwrap();
        std::fs::write(dir.join("a.uc"), "//! paths: 2\n").unwrap();
        std::fs::write(dir.join("notes.txt"), "//! bogus\n").unwrap();
        let files = files_in_folders(&[(dir.clone(), Origin::Shared)]).unwrap();
        let names: Vec<_> = files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["a.uc", "b.uc"]);
        assert_eq!(files[0].paths, Some(2));

        std::fs::write(dir.join("c.uc"), "//! bogus: 1\n").unwrap();
        std::fs::write(dir.join("d.uc"), "//! verdict: maybe\n").unwrap();
        let errors = files_in_folders(&[(dir.clone(), Origin::Shared)]).unwrap_err();
        assert_eq!(errors.len(), 2);
        assert!(errors[0].to_string().contains("c.uc:1:"));
        assert!(errors[1].to_string().contains("d.uc:1:"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_folder_is_an_error() {
        let missing = std::env::temp_dir().join("symex-corpus-does-not-exist");
        let errors = files_in_folders(&[(missing, Origin::Shared)]).unwrap_err();
        assert!(errors[0].message.contains("cannot list"));
    }
}
