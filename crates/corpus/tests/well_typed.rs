//! Every corpus program passes the whole front end, type inference included: the analyses refuse
//! ill-typed programs, so a corpus file that does not type-check could never meet its verdicts.
//! (Ill-typed programs that the interpreter still runs are tested in `crates/interp/tests`.)

#[test]
fn every_corpus_program_type_checks() {
    let files = symex_corpus::all_files().unwrap_or_else(|errors| panic!("{errors:?}"));
    let mut problems = Vec::new();
    for file in &files {
        let index = symex_syntax::span::LineIndex::new(&file.source);
        let label = file.label();
        let diagnostics = match symex_syntax::analyze(&file.source) {
            Ok(frontend) => frontend.types.err().unwrap_or_default(),
            Err(diagnostics) => diagnostics,
        };
        problems.extend(diagnostics.iter().map(|d| d.headline(&label, &index)));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
