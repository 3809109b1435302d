//! The vendored ground truth (`vendor/`) is an exact copy of `../shared` where that folder exists
//! (a development checkout); on a clone without it, the vendored copy is all there is. After
//! `../shared` changes, `scripts/vendor.sh` refreshes the copy.

use std::collections::BTreeMap;
use std::path::Path;

/// Every file under `dir`, by path relative to `dir`, with its bytes.
fn files_under(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).expect("a readable folder") {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let relative = path.strip_prefix(dir).expect("under dir");
                let bytes = std::fs::read(&path).expect("a readable file");
                files.insert(relative.to_string_lossy().into_owned(), bytes);
            }
        }
    }
    files
}

#[test]
fn vendored_files_equal_the_shared_ones() {
    let vendor = symex_corpus::vendor_dir();
    let shared = symex_corpus::shared_dir();
    let copies = [
        ("corpus", "corpus"),
        ("sv-comp", "benchmarks/sv-comp"),
        ("docs", "docs"),
    ];
    for (vendored, original) in copies {
        let copy = files_under(&vendor.join(vendored));
        assert!(
            !copy.is_empty(),
            "vendor/{vendored} is empty: run scripts/vendor.sh"
        );
        let source = shared.join(original);
        if !source.is_dir() {
            continue;
        }
        let original_files = files_under(&source);
        let differing: Vec<&String> = original_files
            .keys()
            .chain(copy.keys())
            .filter(|name| original_files.get(*name) != copy.get(*name))
            .collect();
        assert!(
            differing.is_empty(),
            "vendor/{vendored} differs from ../shared/{original} in {differing:?}: run scripts/vendor.sh"
        );
    }
}
