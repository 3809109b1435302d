//! Every corpus file (shared and project) has a header that parses, and the corpus is not empty.

#[test]
fn every_corpus_header_parses() {
    let files = match symex_corpus::all_files() {
        Ok(files) => files,
        Err(errors) => {
            let list: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            panic!("{} corpus problem(s):\n{}", list.len(), list.join("\n"));
        }
    };
    let shared = files
        .iter()
        .filter(|f| f.origin == symex_corpus::Origin::Shared)
        .count();
    assert!(shared >= 60, "only {shared} shared corpus files found");
    for file in &files {
        assert!(
            !file.verdicts.is_empty() || !file.runs.is_empty(),
            "{} states neither a verdict nor a run",
            file.label()
        );
    }
}
