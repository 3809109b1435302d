//! The output functions, lowered as statements where their result is unused and the file
//! does not define them (nor a variable of their name): `printf`, `puts`, `putchar`, and
//! `fprintf`, `fputs`, `fputc`, `putc` and `fflush` on `stdout` or `stderr`. symex does not model the output stream, so such a
//! call evaluates its arguments and **reads the strings it prints**, each character checked
//! as `strlen` checks it: `puts(s)` and `fputs(s, f)` read `s`, and a `%s` conversion of a
//! literal format reads its argument (`printf("%s", p)` of a freed `p` is an invalid read in
//! C, and in symex). Refused, since what the call reads or writes would not be known: a format
//! that is not a string literal, `%n` (a write through a pointer), `%s` with a precision (it
//! reads at most that many characters, and needs no 0), wide strings (`%ls`), an unknown
//! conversion, a conversion without its argument, and a stream other than `stdout` and
//! `stderr`.
//!
//! Nothing here formats: the output is not a value a program can read back.

use lang_c::ast::{CallExpression, Expression};
use lang_c::span::Node;

use super::func::FnCx;
use super::literal::string_bytes;
use crate::error::CError;

/// What an output function does with each of its arguments, by position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Role {
    /// `stdout` or `stderr`, not evaluated.
    Stream,
    /// A string literal whose conversions say what the arguments after it are.
    Format,
    /// A string, read up to its 0.
    Text,
    /// A number or a pointer, evaluated only.
    Value,
}

/// The roles of the arguments of the output function `name` (before those a format takes),
/// or `None` for another function.
fn roles(name: &str) -> Option<&'static [Role]> {
    use Role::{Format, Stream, Text, Value};
    Some(match name {
        "printf" => &[Format],
        "fprintf" => &[Stream, Format],
        "puts" => &[Text],
        "fputs" => &[Text, Stream],
        "putchar" => &[Value],
        "fputc" | "putc" => &[Value, Stream],
        "fflush" => &[Stream],
        _ => return None,
    })
}

/// Whether `name` is one of the output functions (where the file does not define it).
pub(super) fn is_output_function(name: &str) -> bool {
    roles(name).is_some()
}

/// What each argument of the call of the output function `name` is (the format's conversions
/// decide the ones after it), or why the call is refused.
fn argument_roles(name: &str, arguments: &[Node<Expression>]) -> Result<Vec<Role>, String> {
    let Some(fixed) = roles(name) else {
        return Err(format!("`{name}` is no output function"));
    };
    if arguments.len() < fixed.len() {
        return Err(format!(
            "`{name}` with fewer than {} arguments",
            fixed.len()
        ));
    }
    let mut out = fixed.to_vec();
    if let Some(position) = fixed.iter().position(|&role| role == Role::Format) {
        let Expression::StringLiteral(literal) = &arguments[position].node else {
            return Err(format!(
                "`{name}` with a format that is not a string literal (what it reads is known \
                 only when it runs)"
            ));
        };
        let format = string_bytes(&literal.node, 0).map_err(|e| e.message)?;
        out.extend(conversions(&format).map_err(|why| format!("`{name}` with {why}"))?);
    }
    if out.len() != arguments.len() {
        return Err(format!(
            "`{name}` with {} arguments where its format takes {}",
            arguments.len(),
            out.len()
        ));
    }
    Ok(out)
}

/// The arguments the conversions of the format `format` (its bytes) take, in order: `Text`
/// for `%s`, `Value` for any other (a `*` width or precision takes one too).
fn conversions(format: &[u8]) -> Result<Vec<Role>, String> {
    let mut out = Vec::new();
    let mut bytes = format.iter().copied().peekable();
    while let Some(byte) = bytes.next() {
        if byte != b'%' {
            continue;
        }
        while bytes.next_if(|b| b"-+ #0'".contains(b)).is_some() {}
        // The width, then the precision: `*` takes an argument, digits none.
        let star_or_digits = |bytes: &mut std::iter::Peekable<_>, out: &mut Vec<Role>| {
            if bytes.next_if_eq(&b'*').is_some() {
                out.push(Role::Value);
            }
            while bytes.next_if(u8::is_ascii_digit).is_some() {}
        };
        star_or_digits(&mut bytes, &mut out);
        let precision = bytes.next_if_eq(&b'.').is_some();
        if precision {
            star_or_digits(&mut bytes, &mut out);
        }
        let mut length = Vec::new();
        while let Some(b) = bytes.next_if(|b| b"hlLqjzt".contains(b)) {
            length.push(b);
        }
        match bytes.next() {
            Some(b'%') => {}
            Some(b'm') => {}
            Some(b's') if !length.is_empty() => return Err("`%ls` (a wide string)".into()),
            Some(b's') if precision => {
                return Err("`%.Ns` (it reads at most N characters, and needs no 0)".into())
            }
            Some(b's') => out.push(Role::Text),
            Some(b'n') => return Err("`%n` (it writes through a pointer)".into()),
            Some(b'c' | b'p' | b'd' | b'i' | b'o' | b'u' | b'x' | b'X') => out.push(Role::Value),
            Some(b'e' | b'E' | b'f' | b'F' | b'g' | b'G' | b'a' | b'A') => out.push(Role::Value),
            Some(other) => {
                return Err(format!(
                    "the conversion `%{}` in its format",
                    char::from(other).escape_default()
                ))
            }
            None => return Err("a `%` at the end of its format".into()),
        }
    }
    Ok(out)
}

/// The arguments of `call` that an output function reads as strings (to be pointers into
/// arrays of characters: `lower/elements.rs`); none where the call is refused or is of
/// another function.
pub(super) fn printed_strings<'c>(
    name: &str,
    call: &'c CallExpression,
) -> impl Iterator<Item = &'c Node<Expression>> {
    let roles = argument_roles(name, &call.arguments).unwrap_or_default();
    (call.arguments.iter().zip(roles))
        .filter(|(argument, role)| {
            *role == Role::Text && !matches!(argument.node, Expression::StringLiteral(_))
        })
        .map(|(argument, _)| argument)
}

impl FnCx<'_, '_> {
    /// Lowers `e` if it is a call of an output function with its result unused (`printf("%d\n",
    /// x);`): its arguments evaluated and its strings read. Returns whether `e` was one.
    pub fn output_statement(&mut self, e: &Node<Expression>) -> Result<bool, CError> {
        let Expression::Call(call) = &e.node else {
            return Ok(false);
        };
        let Expression::Identifier(callee) = &call.node.callee.node else {
            return Ok(false);
        };
        let name = callee.node.name.as_str();
        // A function the file defines, or a variable of that name (a function pointer
        // called `puts`), is called as such.
        if !is_output_function(name) || self.unit.bodies.contains_key(name) || self.is_visible(name)
        {
            return Ok(false);
        }
        let arguments = &call.node.arguments;
        let roles = argument_roles(name, arguments)
            .map_err(|why| CError::unsupported(why, self.at(call.span)))?;
        for (argument, role) in arguments.iter().zip(roles) {
            let at = self.at(argument.span);
            let span = self.span(argument.span);
            match (role, &argument.node) {
                (Role::Stream, Expression::Identifier(stream))
                    if matches!(stream.node.name.as_str(), "stdout" | "stderr") => {}
                (Role::Stream, _) => {
                    return Err(CError::unsupported(
                        format!("`{name}` on a stream other than `stdout` and `stderr`"),
                        at,
                    ))
                }
                // A literal is read where it is: nothing to check.
                (_, Expression::StringLiteral(_)) => {}
                (Role::Text, _) => {
                    self.string_length(name, argument, span, at)?;
                }
                (Role::Format | Role::Value, _) => {
                    self.typed(argument)?;
                }
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::{conversions, Role};

    fn roles(format: &str) -> Result<Vec<Role>, String> {
        conversions(format.as_bytes())
    }

    #[test]
    fn conversions_take_their_arguments_in_order() {
        use Role::{Text, Value};
        assert_eq!(roles("x = %d, %s!\n"), Ok(vec![Value, Text]));
        assert_eq!(
            roles("%% %-08.3lld %c %p %m"),
            Ok(vec![Value, Value, Value])
        );
        assert_eq!(
            roles("%*d %.*s"),
            Err("`%.Ns` (it reads at most N characters, and needs no 0)".into())
        );
        assert_eq!(roles("%*d|%-*s"), Ok(vec![Value, Value, Value, Text]));
        assert_eq!(roles("plain"), Ok(vec![]));
    }

    #[test]
    fn conversions_that_write_or_are_unknown_are_refused() {
        assert!(roles("%n")
            .unwrap_err()
            .contains("writes through a pointer"));
        assert!(roles("%ls").unwrap_err().contains("wide"));
        assert!(roles("%k").unwrap_err().contains("`%k`"));
        assert!(roles("100%").unwrap_err().contains("at the end"));
    }
}
