//! The C front end: a C file (`.c`, run through the system preprocessor, or an already
//! preprocessed `.i`) parsed with `lang-c` and lowered into the same IR as micro-c, so that the
//! interpreter and every engine check it unchanged (layer 1 of `docs/architecture.md`).
//!
//! **The subset** (docs/c-frontend.md): functions over the integer types of 8 to 64 bits (two's
//! complement wrap-around like micro-c; `long long` as 64-bit IR numbers), structs, and
//! pointers to whole objects (`&x`, `*p`,
//! `p->f`, `malloc(sizeof(T))`), local variables in nested scopes, local arrays with constant
//! sizes, file-scope variables (locals of `main`, set on entry; `main` inlines its
//! calls where other functions use them), every statement of C except
//! inline assembly (`if`, `while`, `do`, `for`, `switch`, `break`, `continue`, `goto`,
//! `return`), the arithmetic, comparison and logical operators, assignments and compound
//! assignments, `++`/`--`, `?:`, the comma operator, casts to `int` and `void`, and SV-COMP's
//! conventions: `__VERIFIER_nondet_int()` is an input, `__VERIFIER_assume(e)` an assumption,
//! a call of `reach_error()`, `__VERIFIER_error()` or `__assert_fail(...)` a failing assertion,
//! `abort()` and `exit(e)` end the run without an error. Everything else is refused with
//! "unsupported: <construct> at file:line:col" — never translated approximately.
//!
//! **Checks**: `/` and `%` check their divisor (`div-by-zero`); a read of a local variable, a
//! member, an element or a heap object that may be uninitialized is an `uninit` check (reads
//! that every path assigns first are not); a dereference checks its pointer (`null-deref`);
//! shifts check their amount (`shift-out-of-range`); with [`Options::signed_overflow`], every
//! operation on `int`s checks that its result fits (`overflow`).
//!
//! Nothing here executes or checks a program.

mod error;
mod lower;
mod preprocess;
mod source_map;

use std::path::Path;

use symex_ir::cfg::Module;
use symex_syntax::span::Span;
use symex_syntax::types::TypeTable;

pub use error::{CError, ErrorKind};
use source_map::SourceMap;

/// A translated C program: its IR and the types of its functions' locals.
pub struct Translated {
    pub module: Module,
    pub types: TypeTable,
    /// The functions left out of the module (outside the subset, or using one that is), by
    /// name, with the reason: a call of one is refused, and so is analysing one (`--entry`).
    pub left_out: Vec<(String, CError)>,
    /// The functions in the module that cannot be analysed on their own (`--entry`), with the
    /// reason: a parameter reaches a struct with boxed members, which an input heap would fill
    /// with arbitrary pointers, or a 64-bit integer.
    pub not_entries: Vec<(String, CError)>,
    /// Whether the program calls `malloc` or `calloc` (objects that can leak).
    pub allocates_heap: bool,
    /// Why a run that fails an `unmodelled` check leaves what symex models, by the check's
    /// span, sorted (a span may have several): what a report names instead of every cause
    /// the kind stands for (`Report::name_unmodelled_causes`).
    pub unmodelled_causes: Vec<(Span, &'static str)>,
    /// Whether its leaks are checked: [`Options::memory_leaks`] was asked, the program
    /// allocates, and nothing calls `main`. Where a global can hold a pointer, an object still
    /// allocated when `main` returns fails an `unmodelled` check (it need not be lost).
    pub leaks_checked: bool,
    /// Whether the program points to objects whose lifetime C ends where symex does not model
    /// it (`&` of a variable of an inner block or of a struct member, a compound literal,
    /// `alloca`): symex keeps them alive, so a pointer that outlives its object is not
    /// caught. (A function's return ends its variables: `use-after-return`.)
    pub stack_addresses: bool,
    /// Every function definition of the file by name, with where it is in the file the user
    /// wrote (a header's is empty, at its `#include`), in source order: the function a
    /// location is in, where the IR names another (an inlined call's code is `main`'s).
    pub definitions: Vec<(String, Span)>,
}

impl Translated {
    /// The name of the function whose definition holds byte `offset` of the user's file.
    pub fn function_at(&self, offset: usize) -> Option<&str> {
        (self.definitions.iter())
            .find(|(_, span)| span.range().contains(&offset))
            .map(|(name, _)| name.as_str())
    }
}

/// How the translation reads the program beyond C's fixed rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Check every arithmetic operation on `int`s for a result outside `int` (the `overflow`
    /// property, SV-COMP's `no-overflow`). Without it signed arithmetic wraps around.
    pub signed_overflow: bool,
    /// Calls of `reach_error` are calls of its definition, and the other error functions
    /// (`__assert_fail`, `__VERIFIER_error`, ...) end the run as `abort` does, instead of being
    /// failing `assert` checks: what C does, for SV-COMP's properties other than
    /// `unreach-call`.
    pub ordinary_error_calls: bool,
    /// The widths of `long` and pointers.
    pub data_model: DataModel,
    /// Inline every call `main` makes (recursively, as for programs whose functions share
    /// global variables): loop summarization and path subsumption cannot follow a call inside
    /// a loop body (SV-COMP's `__VERIFIER_assert(...)`), an inlined body they can. A recursive
    /// call is then refused.
    pub inline_calls: bool,
    /// Check that every heap object is freed when `main` returns (the `memory-leak` property,
    /// SV-COMP's `valid-memtrack`), where nothing calls `main`. Where a global variable can
    /// hold a pointer, an object still allocated then fails an `unmodelled` check instead
    /// (memory a global still points to is not lost). `main`'s calls are then
    /// inlined, so that one count of live objects follows every allocation and every `exit`.
    /// Paths that end in `exit` or `abort` with objects still allocated fail an `unmodelled`
    /// check: whether those objects are still reachable is not decided.
    pub memory_leaks: bool,
    /// A local variable declared without an initializer starts with an arbitrary value (inputs
    /// read where the declaration runs, again on each run of it in a loop, and where a jump
    /// skips its declaration), as CBMC and SV-COMP's tasks read C, instead of `uninit` checks
    /// on its reads: integers, structs of integers and arrays of them up to 256 numbers
    /// (`lower/nondet_locals.rs`). Pointers, unions and larger arrays still start
    /// indeterminate.
    pub nondet_locals: bool,
    /// What `malloc`, `alloca` and `realloc` make starts with arbitrary values (inputs read
    /// where the allocation runs), as SV-COMP's tasks read C, instead of `uninit` checks on
    /// its reads: objects of integers and structs of integers, and arrays of them of at most
    /// 256 numbers in all (for a computed count, at its largest forked length)
    /// (`lower/allocation.rs`). Pointers, unions and larger arrays still start indeterminate;
    /// `calloc`'s objects are zero either way.
    pub nondet_heap: bool,
}

/// C's data models on Linux: where `long` has 32 bits (ILP32, `gcc -m32`) or 64 (LP64, the
/// x86-64 default). `long long` has 64 bits in both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DataModel {
    Ilp32,
    #[default]
    Lp64,
}

/// The integer type an input function returns, as a witness states its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputType {
    /// 1 for `_Bool`, else 8, 16, 32 or 64.
    pub bits: u32,
    pub signed: bool,
}

impl InputType {
    /// Whether the call can return `value` (it lies in the type's range).
    pub fn holds(self, value: i128) -> bool {
        let (min, max) = match (self.bits, self.signed) {
            (1, _) => (0, 1),
            (bits, true) => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
            (bits, false) => (0, (1i128 << bits) - 1),
        };
        (min..=max).contains(&value)
    }

    /// The inputs of `symex run --input` (32-bit numbers) that make the call return `value`
    /// (taken modulo the type's range): one, or two for a 64-bit type, the high half first.
    pub fn inputs(self, value: i128) -> Vec<i32> {
        match self.bits {
            64 => vec![(value >> 32) as i32, value as i32],
            _ => vec![value as i32],
        }
    }

    /// What the call returns when symex reads `inputs` (as [`InputType::inputs`] gives
    /// them): the value C sees, in the type's own range.
    pub fn value(self, inputs: &[i32]) -> i128 {
        let raw = match inputs {
            [high, low, ..] if self.bits == 64 => (i64::from(*high) << 32) | i64::from(*low as u32),
            [one, ..] => i64::from(*one),
            [] => 0,
        };
        match (self.bits, self.signed) {
            (1, _) => i128::from(raw != 0),
            (64, false) => i128::from(raw as u64),
            (64, true) => i128::from(raw),
            (bits, signed) => {
                let shift = 64 - bits;
                let narrowed = if signed {
                    (raw << shift) >> shift
                } else {
                    ((raw as u64) << shift >> shift) as i64
                };
                i128::from(narrowed)
            }
        }
    }
}

/// The type of `__VERIFIER_nondet_<type>()` (or CBMC's `nondet_<type>()`) in `model`, as the
/// front end reads it; `None` for other names and the types it does not read.
pub fn input_type(name: &str, model: DataModel) -> Option<InputType> {
    lower::conventions::public_input_type(name, model)
}

/// Whether `path` names a C file (`.c` or `.i`).
pub fn is_c_file(path: &str) -> bool {
    matches!(
        Path::new(path).extension().and_then(|e| e.to_str()),
        Some("c" | "i")
    )
}

/// Translates the C file at `path` whose text is `text`. A `.c` file is preprocessed first; IR
/// spans are byte offsets in `text`.
pub fn translate(path: &str, text: &str, options: Options) -> Result<Translated, CError> {
    let (preprocessed, map) = if path.ends_with(".c") {
        let preprocessed = preprocess::preprocess(Path::new(path), options.data_model)?;
        let map = SourceMap::from_markers(&preprocessed, text);
        (preprocessed, map)
    } else {
        (text.to_string(), SourceMap::identity(text))
    };
    translate_preprocessed(preprocessed, &map, options)
}

/// Translates already preprocessed text that is its own original (tests, `.i` files).
pub fn translate_text(text: &str, options: Options) -> Result<Translated, CError> {
    translate_preprocessed(text.to_string(), &SourceMap::identity(text), options)
}

/// Where the preprocessed text first nests brackets (`(`, `[`, `{`, outside literals) more than
/// the lowering's limit, if it does: the parser's time grows faster than the square of such a
/// depth (10,000 nested `(n-(n-...`: a minute), so such input is refused before it is parsed,
/// as the lowering would refuse it after. A bracket right inside another (`((x))`) adds no
/// level, as it adds none to the syntax tree: such input is accepted and parsed (its cost
/// grows with the levels times the brackets, bounded by the input's size).
fn too_deep(preprocessed: &str) -> Option<usize> {
    let mut levels: Vec<bool> = Vec::new();
    let mut depth: u32 = 0;
    let mut previous = ' ';
    let mut quote = None;
    let mut escaped = false;
    for (at, c) in preprocessed.char_indices() {
        if let Some(q) = quote {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '\n' => quote = None,
                _ if c == q => quote = None,
                _ => {}
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '(' | '[' | '{' => {
                let level = !matches!(previous, '(' | '[' | '{');
                levels.push(level);
                depth += u32::from(level);
                if depth > lower::MAX_NESTING {
                    return Some(at);
                }
            }
            ')' | ']' | '}' => depth -= u32::from(levels.pop() == Some(true)),
            _ => {}
        }
        if !c.is_whitespace() {
            previous = c;
        }
    }
    None
}

/// `text` with its comments blanked: every byte of a `/* */` or `//` comment outside literals
/// made a space but for line ends, so offsets, lines and columns stay. `gcc -E` removes them,
/// but SV-COMP's hand-made `.i` files keep some (`/* Contributed by ... */` first), and the
/// parser reads preprocessed text, which has none.
fn blank_comments(text: String) -> String {
    if !text.contains("/*") && !text.contains("//") {
        return text;
    }
    let mut bytes = text.into_bytes();
    let (mut quote, mut escaped, mut at) = (None, false, 0);
    while at < bytes.len() {
        let c = bytes[at];
        if let Some(q) = quote {
            match c {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'\n' => quote = None,
                _ if c == q => quote = None,
                _ => {}
            }
            at += 1;
            continue;
        }
        let next = bytes.get(at + 1).copied();
        let end = match (c, next) {
            (b'"' | b'\'', _) => {
                quote = Some(c);
                at += 1;
                continue;
            }
            (b'/', Some(b'*')) => (at + 2..bytes.len().saturating_sub(1))
                .find(|&i| bytes[i] == b'*' && bytes[i + 1] == b'/')
                .map_or(bytes.len(), |i| i + 2),
            (b'/', Some(b'/')) => (at..bytes.len())
                .find(|&i| bytes[i] == b'\n')
                .unwrap_or(bytes.len()),
            _ => {
                at += 1;
                continue;
            }
        };
        for byte in &mut bytes[at..end] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
        at = end;
    }
    // Only ASCII bytes became spaces, and every byte of a multi-byte character inside a
    // comment did: the text is still UTF-8.
    String::from_utf8(bytes).unwrap_or_default()
}

/// The offset of the first `#pragma pack` line of the preprocessed text: the parser passes
/// directives over, and the layout it sets would make `sizeof` and member offsets wrong.
fn layout_pragma(preprocessed: &str) -> Option<usize> {
    let mut offset = 0;
    for line in preprocessed.split_inclusive('\n') {
        let directive = line.trim_start().strip_prefix('#').map(str::trim_start);
        let pragma = directive
            .and_then(|d| d.strip_prefix("pragma"))
            .map(str::trim_start);
        if pragma.is_some_and(|p| p.starts_with("pack")) {
            return Some(offset);
        }
        offset += line.len();
    }
    None
}

/// Keywords of C or gcc outside symex's subset that the parser does not know either, so that a
/// file using them fails to parse: the failure is then named by the keyword, not as a syntax
/// error at the next token.
const UNPARSED_KEYWORDS: [&str; 8] = [
    "__int128",
    "_Complex",
    "__complex__",
    "_Alignas",
    "_Float128",
    "__float128",
    "_Decimal64",
    "_Imaginary",
];

/// Each of [`UNPARSED_KEYWORDS`] in `text`, as a whole word: its offset, the offset of the end
/// of its line, and the keyword, in order.
fn unparsed_keywords(text: &str) -> Vec<(usize, usize, &'static str)> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut found = Vec::new();
    for keyword in UNPARSED_KEYWORDS {
        for (at, _) in text.match_indices(keyword) {
            let rest = &text[at + keyword.len()..];
            let before = text[..at].chars().next_back().is_some_and(word);
            if !before && !rest.chars().next().is_some_and(word) {
                let line_end = at + keyword.len() + rest.find('\n').unwrap_or(rest.len());
                found.push((at, line_end, keyword));
            }
        }
    }
    found.sort_unstable();
    found
}

/// The last of `keywords` (as [`unparsed_keywords`] gives them) that starts on the line of the
/// parse error at `error`, at or before it.
fn keyword_before(
    keywords: &[(usize, usize, &'static str)],
    error: usize,
) -> Option<(usize, &'static str)> {
    let on_or_before = keywords.partition_point(|&(at, _, _)| at <= error);
    let &(at, line_end, keyword) = keywords[..on_or_before].last()?;
    (error <= line_end).then_some((at, keyword))
}

/// The parser is recursive: it runs on a thread with a large stack, so that deeply nested input
/// is a clean error from the lowering's depth limit rather than a stack overflow.
const PARSER_STACK: usize = 256 * 1024 * 1024;

fn translate_preprocessed(
    preprocessed: String,
    map: &SourceMap,
    options: Options,
) -> Result<Translated, CError> {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(PARSER_STACK)
            .spawn_scoped(scope, move || {
                let preprocessed = blank_comments(preprocessed);
                if let Some(at) = layout_pragma(&preprocessed) {
                    return Err(CError::unsupported(
                        "`#pragma pack` (struct layouts other than C's default)",
                        map.offset(at),
                    ));
                }
                if let Some(at) = too_deep(&preprocessed) {
                    return Err(CError::unsupported(
                        format!("brackets nested more than {} deep", lower::MAX_NESTING),
                        map.offset(at),
                    ));
                }
                let config = lang_c::driver::Config::with_gcc();
                let keywords = unparsed_keywords(&preprocessed);
                let mut parse =
                    lang_c::driver::parse_preprocessed(&config, preprocessed).map_err(|e| {
                        if let Some((at, keyword)) = keyword_before(&keywords, e.offset) {
                            return CError::unsupported(format!("`{keyword}`"), map.offset(at));
                        }
                        let mut expected: Vec<&str> = e.expected.iter().copied().collect();
                        expected.sort_unstable();
                        CError {
                            kind: ErrorKind::Syntax,
                            message: format!("expected one of {}", expected.join(" ")),
                            offset: Some(map.offset(e.offset)),
                        }
                    })?;
                lower::rewrite_variable_length_arrays(&mut parse.unit, map)?;
                lower::lower_unit(&parse.unit, &parse.source, map, options)
            })
            .map_err(|e| CError {
                kind: ErrorKind::Preprocessor,
                message: format!("cannot start the parser thread: {e}"),
                offset: None,
            })?
            .join()
            .unwrap_or_else(|_| {
                Err(CError {
                    kind: ErrorKind::Syntax,
                    message: "the parser failed on this input".into(),
                    offset: None,
                })
            })
    })
}
