//! A small S-expression reader for solver output.
//!
//! It parses the first complete S-expression of a text and reports how much it consumed, or
//! that the text is still incomplete (so the caller can read another line). Quoted symbols
//! (`|...|`) become atoms without their bars; string literals keep their own variant;
//! comments (`;` to end of line) are skipped. The parser is iterative, so deeply nested
//! output cannot overflow the stack. It never panics on any input.

/// An S-expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sexp {
    /// A symbol, keyword or literal (numeral, `#b...`, `#x...`), quoted symbols unquoted.
    Atom(String),
    /// A string literal, unescaped.
    Str(String),
    /// A parenthesised list.
    List(Vec<Sexp>),
}

impl Sexp {
    /// The text of an atom or string.
    pub fn text(&self) -> Option<&str> {
        match self {
            Sexp::Atom(s) | Sexp::Str(s) => Some(s),
            Sexp::List(_) => None,
        }
    }

    /// The items of a list.
    pub fn list(&self) -> Option<&[Sexp]> {
        match self {
            Sexp::List(items) => Some(items),
            _ => None,
        }
    }

    /// Whether this is the atom `name`.
    pub fn is_atom(&self, name: &str) -> bool {
        matches!(self, Sexp::Atom(s) if s == name)
    }
}

impl Drop for Sexp {
    /// Dismantles nested lists iteratively: a deeply nested answer must not overflow the stack.
    fn drop(&mut self) {
        if let Sexp::List(items) = self {
            let mut pending = std::mem::take(items);
            while let Some(mut s) = pending.pop() {
                if let Sexp::List(inner) = &mut s {
                    pending.append(inner);
                }
            }
        }
    }
}

/// The outcome of [`parse`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Parsed {
    /// A complete expression and the number of bytes consumed.
    Done(Sexp, usize),
    /// The text ends before the expression does (or holds only blanks and comments).
    Incomplete,
}

/// Parses the first S-expression of `text`.
pub fn parse(text: &str) -> Result<Parsed, String> {
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut stack: Vec<Vec<Sexp>> = Vec::new();
    loop {
        // Skip blanks and comments.
        while i < bytes.len() {
            match bytes[i] {
                b' ' | b'\t' | b'\r' | b'\n' => i += 1,
                b';' => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                }
                _ => break,
            }
        }
        if i >= bytes.len() {
            return Ok(Parsed::Incomplete);
        }
        let item = match bytes[i] {
            b'(' => {
                stack.push(Vec::new());
                i += 1;
                continue;
            }
            b')' => {
                i += 1;
                match stack.pop() {
                    Some(items) => Sexp::List(items),
                    None => return Err(format!("unbalanced `)` in {:?}", clip(text))),
                }
            }
            b'|' => match text[i + 1..].find('|') {
                Some(end) => {
                    let s = text[i + 1..i + 1 + end].to_string();
                    i += end + 2;
                    Sexp::Atom(s)
                }
                None => return Ok(Parsed::Incomplete),
            },
            b'"' => {
                let mut s = String::new();
                let mut j = i + 1;
                let mut closed = false;
                let mut chars = text[j..].char_indices();
                while let Some((k, ch)) = chars.next() {
                    if ch == '"' {
                        if text[j + k + 1..].starts_with('"') {
                            s.push('"');
                            chars.next();
                        } else {
                            j += k + 1;
                            closed = true;
                            break;
                        }
                    } else {
                        s.push(ch);
                    }
                }
                if !closed {
                    return Ok(Parsed::Incomplete);
                }
                i = j;
                Sexp::Str(s)
            }
            _ => {
                let start = i;
                while i < bytes.len()
                    && !matches!(
                        bytes[i],
                        b' ' | b'\t' | b'\r' | b'\n' | b'(' | b')' | b'"' | b'|' | b';'
                    )
                {
                    i += 1;
                }
                Sexp::Atom(text[start..i].to_string())
            }
        };
        match stack.last_mut() {
            Some(top) => top.push(item),
            None => return Ok(Parsed::Done(item, i)),
        }
    }
}

/// The first 200 characters of `text`, for error messages.
pub fn clip(text: &str) -> String {
    let mut s: String = text.chars().take(200).collect();
    if s.len() < text.len() {
        s.push_str("...");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn done(text: &str) -> Sexp {
        match parse(text) {
            Ok(Parsed::Done(s, _)) => s,
            other => panic!("{text:?} gave {other:?}"),
        }
    }

    #[test]
    fn parses_solver_answers() {
        assert_eq!(done("sat\n"), Sexp::Atom("sat".into()));
        let v = done("((|a b!1| #x05) (x!2 (_ bv5 8)))");
        let items = v.list().expect("list");
        assert_eq!(items.len(), 2);
        assert_eq!(
            items[0].list().expect("pair")[0],
            Sexp::Atom("a b!1".into())
        );
        let r = done("(:reason-unknown \"time\"\"out\")");
        assert_eq!(r.list().expect("list")[1], Sexp::Str("time\"out".into()));
    }

    #[test]
    fn reports_incomplete_and_garbage() {
        assert_eq!(parse("((x #x0"), Ok(Parsed::Incomplete));
        assert_eq!(parse("  ; only a comment\n"), Ok(Parsed::Incomplete));
        assert_eq!(parse("(|open"), Ok(Parsed::Incomplete));
        assert_eq!(parse("(\"open"), Ok(Parsed::Incomplete));
        assert!(parse(")").is_err());
        match parse("(a) rest") {
            Ok(Parsed::Done(_, n)) => assert_eq!(n, 3),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn deep_nesting_is_fine() {
        let text = format!("{}x{}", "(".repeat(100_000), ")".repeat(100_000));
        let s = done(&text);
        let mut depth = 0;
        let mut cur = &s;
        while let Some([inner]) = cur.list() {
            depth += 1;
            cur = inner;
        }
        assert_eq!(depth, 100_000);
        drop(s);
    }
}
