//! The C library's string functions that symex lowers into the loops they are: `strlen`,
//! `strchr`, `strrchr`, `strstr`, `memchr`, `strcpy`, `strncpy`, `strcat`, `strcmp`, `strncmp`, and `memcmp` (and
//! their `__builtin_` names), and `strdup` and `strndup`, where the file does not define them.
//!
//! A string is a pointer into an array of characters (`lower/element_pointer.rs`) or a
//! character view (`lower/views.rs`: `(unsigned char *)s` of a `char` string, the bytes of
//! integers); `memcmp` compares the bytes of any integers, seen through views. Every character
//! read or written is checked as a subscript is (bounds, `uninit`, heap state), so a string
//! without its 0 fails `out-of-bounds` at its array's end.
//!
//! * `strlen(s)` counts the characters before the first 0.
//! * `strchr(s, c)` and `strrchr(s, c)` point at the first (last) character equal to `c` (as
//!   `s`'s character type), the 0 included, or are null; `s` must point into an array of
//!   characters (a character view's result would point into another type's bytes: refused).
//! * `memchr(s, c, n)` points at the first of `n` characters equal to `c` (as `unsigned
//!   char`), or is null; typed as its argument, since a pointer into an array is no `void *`
//!   here.
//! * `strstr(h, n)` points at the first place `h`'s string holds `n`'s, or is null; `n` is
//!   read whole first (a string, as glibc reads it), `h`'s characters only as far as they
//!   match.
//! * `strcpy(d, s)` copies the characters up to the 0 (included), `strcat(d, s)` to the end of
//!   `d`'s string, `strncpy(d, s, n)` exactly `n` characters: `s`'s up to its 0, then zeros
//!   (no 0 is added where `s` is `n` long or longer, as in C). A character is converted to the
//!   destination's character type. Copying between overlapping ranges of one array stops
//!   `unmodelled` (undefined in C); rows of one array (`strcpy(names[i], names[j])`,
//!   `strcat(names[i], names[j])`) are apart where the ranges read and written do not meet.
//! * `strdup(s)` makes a heap array of `char`s (`lower/allocation.rs`: a computed length,
//!   forked over 1 to 64) and copies `s`'s string into it; `strndup(s, n)` at most `n` of its
//!   characters (none read past them), then a 0. `free` releases it; it counts for leaks.
//! * `strcmp(a, b)`, `strncmp(a, b, n)` (at most `n` characters) and `memcmp(a, b, n)` (`n`
//!   bytes, 0s included) give 0 where equal, else the difference of the first differing
//!   characters read as `unsigned char` (glibc's value; C fixes only its sign). `memcmp`
//!   checks first that both objects have all `n` bytes.
//!
//! Nothing here models the objects' types: that is `lower/memory.rs`'s.

use lang_c::ast::Expression;
use lang_c::span::Node;
use symex_ir::cfg::{BinOp, Check, LocalId, Operand, PropertyKind, Rvalue, UnOp, Width};
use symex_syntax::span::Span;

use super::func::FnCx;
use super::types::{CType, View};
use crate::error::CError;

/// A string argument: its pointer and type, the type of its characters, and its view where it
/// is one.
#[derive(Clone, Copy)]
pub(super) struct Text {
    pointer: Operand,
    ty: CType,
    character: CType,
    view: Option<View>,
}

impl FnCx<'_, '_> {
    /// `strcpy(destination, source)` and, `append`, `strcat`: the characters of `source` up
    /// to its 0 (included) copied, to the end of the destination's string for `strcat`. Its
    /// value is `destination`.
    pub(super) fn strcpy(
        &mut self,
        name: &str,
        arguments: &[Node<Expression>],
        append: bool,
        span: Span,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        let destination = self.text(name, &arguments[0], at)?;
        let source = self.text(name, &arguments[1], at)?;
        // `strcat` copies to the end of the destination's string.
        let start = match append {
            true => {
                let length = self.text_length(destination, span);
                let pointer =
                    self.element_offset(destination.pointer, (length, CType::Int), false, span);
                Text {
                    pointer,
                    ..destination
                }
            }
            false => destination,
        };
        self.check_apart(start, source, None, span);
        // for (k = 0; (start[k] = source[k]) != 0; k++) {}
        self.counted_loop(
            span,
            |cx, k| {
                let value = cx.text_char(source, k, span);
                cx.text_store(start, k, value, span);
                cx.temp(Rvalue::Binary(BinOp::Ne, value, Operand::Const(0)), span)
            },
            |_, _| {},
        );
        Ok((destination.pointer, destination.ty))
    }

    /// `strncpy(destination, source, n)`: `n` characters written, `source`'s up to its 0, then
    /// zeros. Its value is `destination`.
    pub(super) fn strncpy(
        &mut self,
        name: &str,
        arguments: &[Node<Expression>],
        span: Span,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        let destination = self.text(name, &arguments[0], at)?;
        let source = self.text(name, &arguments[1], at)?;
        let count = self.byte_count(&arguments[2], span)?;
        self.check_apart(destination, source, Some(count), span);
        let ended = self.b.new_temp(span, Width::W32);
        self.assign(ended, Operand::Const(0), span);
        let character = self.b.new_temp(span, Width::W32);
        self.counted_loop(
            span,
            |cx, k| cx.temp(Rvalue::Binary(BinOp::ULt, k, count), span),
            |cx, k| {
                // Once `source` ended, zeros; its characters are not read past its 0.
                let (read, zero, join) = (cx.b.new_block(), cx.b.new_block(), cx.b.new_block());
                cx.b.branch(Operand::Local(ended), zero, read, span);
                cx.b.switch_to(read);
                let value = cx.text_char(source, k, span);
                cx.assign(character, value, span);
                let end = cx.temp(Rvalue::Binary(BinOp::Eq, value, Operand::Const(0)), span);
                cx.assign(ended, end, span);
                cx.b.goto(join, span);
                cx.b.switch_to(zero);
                cx.assign(character, Operand::Const(0), span);
                cx.b.goto(join, span);
                cx.b.switch_to(join);
                cx.text_store(destination, k, Operand::Local(character), span);
            },
        );
        Ok((destination.pointer, destination.ty))
    }

    /// `strcmp(a, b)`, or `strncmp(a, b, n)` with `count`: 0 where the strings are equal (in
    /// their first `n` characters), else the difference of their first differing characters
    /// read as `unsigned char`.
    pub(super) fn strcmp(
        &mut self,
        name: &str,
        arguments: &[Node<Expression>],
        count: Option<&Node<Expression>>,
        span: Span,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        let a = self.text(name, &arguments[0], at)?;
        let b = self.text(name, &arguments[1], at)?;
        let count = match count {
            Some(count) => Some(self.byte_count(count, span)?),
            None => None,
        };
        Ok((self.compare_texts([a, b], count, true, span), CType::Int))
    }

    /// `memcmp(a, b, n)`: the bytes of any integers compared as `unsigned char`, 0s included.
    pub(super) fn memcmp(
        &mut self,
        name: &str,
        arguments: &[Node<Expression>],
        span: Span,
    ) -> Result<(Operand, CType), CError> {
        let mut texts = Vec::with_capacity(2);
        for argument in &arguments[..2] {
            let pointer = self.memory_operand(argument)?;
            let (pointer, ty, view) = self.bytes_of(name, pointer, span, self.at(argument.span))?;
            texts.push(Text {
                pointer,
                ty,
                character: view.unit,
                view: Some(view),
            });
        }
        let count = self.byte_count(&arguments[2], span)?;
        let texts = [texts[0], texts[1]];
        self.check_last_bytes(texts, count, span);
        Ok((
            self.compare_texts(texts, Some(count), false, span),
            CType::Int,
        ))
    }

    /// The checks that both `texts` have `count` characters (where it is not 0): C compares
    /// `n` bytes of two objects that must have them, whichever byte differs first (glibc reads
    /// them by words).
    fn check_last_bytes(&mut self, texts: [Text; 2], count: Operand, span: Span) {
        let (some, done) = (self.b.new_block(), self.b.new_block());
        let nonzero = self.temp(Rvalue::Binary(BinOp::Ne, count, Operand::Const(0)), span);
        self.b.branch(nonzero, some, done, span);
        self.b.switch_to(some);
        let last = self.temp(Rvalue::Binary(BinOp::Sub, count, Operand::Const(1)), span);
        let at_last = Some((last, CType::Int));
        for text in texts {
            match text.view {
                Some(view) => {
                    let byte = self.byte_lvalue((text.pointer, text.ty), view, at_last, span);
                    self.guard_first_byte(&byte, span);
                }
                None => {
                    let memory = self.element_memory((text.pointer, text.character), at_last, span);
                    self.guard(&memory, span);
                }
            }
        }
        self.b.goto(done, span);
        self.b.switch_to(done);
    }

    /// The difference of the first differing characters of `texts` as `unsigned char` (0 if
    /// none differ), comparing at most `count` characters and, where `strings`, up to a 0.
    fn compare_texts(
        &mut self,
        [a, b]: [Text; 2],
        count: Option<Operand>,
        strings: bool,
        span: Span,
    ) -> Operand {
        let difference = self.b.new_temp(span, Width::W32);
        self.assign(difference, Operand::Const(0), span);
        let ended = self.b.new_temp(span, Width::W32);
        self.assign(ended, Operand::Const(0), span);
        // for (k = 0; k < count && !ended; k++) { difference = a[k] - b[k]; ended = ...; }
        self.counted_loop(
            span,
            |cx, k| {
                let going = cx.temp(
                    Rvalue::Binary(BinOp::Eq, Operand::Local(ended), Operand::Const(0)),
                    span,
                );
                match count {
                    Some(count) => {
                        let within = cx.temp(Rvalue::Binary(BinOp::ULt, k, count), span);
                        cx.temp(Rvalue::Binary(BinOp::BitAnd, within, going), span)
                    }
                    None => going,
                }
            },
            |cx, k| {
                let [x, y] = [a, b].map(|text| {
                    let value = cx.text_char(text, k, span);
                    cx.convert(value, CType::UChar, span)
                });
                let differ = cx.temp(Rvalue::Binary(BinOp::Sub, x, y), span);
                cx.assign(difference, differ, span);
                let unequal = cx.temp(Rvalue::Binary(BinOp::Ne, differ, Operand::Const(0)), span);
                let end = match strings {
                    true => {
                        let zero = cx.temp(Rvalue::Binary(BinOp::Eq, x, Operand::Const(0)), span);
                        cx.temp(Rvalue::Binary(BinOp::BitOr, unequal, zero), span)
                    }
                    false => unequal,
                };
                cx.assign(ended, end, span);
            },
        );
        Operand::Local(difference)
    }

    /// `strchr(s, c)` and, `last`, `strrchr(s, c)`: a pointer into `s`'s array at the first
    /// (last) character of its string, its 0 included, equal to `c` converted to `s`'s
    /// character type, else null. Every character up to the 0 is read (and checked) by
    /// `strrchr`, up to the first match by `strchr`. Its type is the argument's (C's `char *`
    /// without `const`).
    pub(super) fn strchr(
        &mut self,
        name: &str,
        arguments: &[Node<Expression>],
        last: bool,
        span: Span,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        let text = self.search_text(name, &arguments[0], at)?;
        let wanted = self.int_argument(name, &arguments[1], "character", span, at)?;
        let wanted = self.convert(wanted, text.character, span);
        let found = self.b.new_temp(span, Width::W32);
        self.assign(found, Operand::Const(-1), span);
        // for (k = 0; ; k++) { if (s[k] == c) found = k; if (s[k] == 0 || (!last && found >= 0)) break; }
        self.counted_loop(
            span,
            |cx, k| {
                let value = cx.text_char(text, k, span);
                let equal = cx.temp(Rvalue::Binary(BinOp::Eq, value, wanted), span);
                cx.record_match(equal, found, k, span);
                let going = cx.temp(Rvalue::Binary(BinOp::Ne, value, Operand::Const(0)), span);
                match last {
                    true => going,
                    false => {
                        let differ = cx.temp(Rvalue::Unary(UnOp::Not, equal), span);
                        cx.temp(Rvalue::Binary(BinOp::BitAnd, going, differ), span)
                    }
                }
            },
            |_, _| {},
        );
        Ok((self.pointer_at_or_null(text, found, span), text.ty))
    }

    /// `memchr(s, c, n)`: a pointer into `s`'s array of characters at the first of its `n`
    /// characters equal to `c` (both as `unsigned char`, a 0 no end), else null. Its type is
    /// the argument's, not C's `void *`: a pointer into an array is no generic pointer here
    /// (`lower/generic_pointers.rs`), and programs convert the result back to the argument's
    /// type.
    pub(super) fn memchr(
        &mut self,
        name: &str,
        arguments: &[Node<Expression>],
        span: Span,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        let text = self.search_text(name, &arguments[0], at)?;
        let wanted = self.int_argument(name, &arguments[1], "character", span, at)?;
        let wanted = self.convert(wanted, CType::UChar, span);
        let count = self.byte_count(&arguments[2], span)?;
        let found = self.b.new_temp(span, Width::W32);
        self.assign(found, Operand::Const(-1), span);
        // for (k = 0; k < n; k++) if ((unsigned char)s[k] == c) { found = k; break; }
        self.scan_within(text, count, span, |cx, value, k| {
            let value = cx.convert(value, CType::UChar, span);
            let equal = cx.temp(Rvalue::Binary(BinOp::Eq, value, wanted), span);
            cx.record_match(equal, found, k, span);
            cx.temp(Rvalue::Unary(UnOp::Not, equal), span)
        });
        Ok((self.pointer_at_or_null(text, found, span), text.ty))
    }

    /// `strstr(haystack, needle)`: a pointer into `haystack`'s array at the first place its
    /// string holds `needle`'s (at its start where `needle`'s is empty), else null. Characters
    /// are read as C reads them: `haystack`'s only as far as they match `needle`'s, so a valid
    /// string is never read past its 0.
    pub(super) fn strstr(
        &mut self,
        name: &str,
        arguments: &[Node<Expression>],
        span: Span,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        let haystack = self.search_text(name, &arguments[0], at)?;
        let needle = self.text(name, &arguments[1], at)?;
        // The needle is a string whatever the haystack holds: glibc reads all of it (and
        // AddressSanitizer checks so), though the search below may stop at its first mismatch.
        self.text_length(needle, span);
        let found = self.b.new_temp(span, Width::W32);
        self.assign(found, Operand::Const(-1), span);
        let wanted = self.b.new_temp(span, Width::W32);
        // for (i = 0; ; i++) {
        //   for (j = 0; needle[j] != 0 && haystack[i + j] == needle[j]; j++) {}
        //   if (needle[j] == 0) { found = i; break; }  if (haystack[i] == 0) break;
        // }
        self.counted_loop(
            span,
            |cx, i| {
                cx.counted_loop(
                    span,
                    |cx, j| {
                        let character = cx.text_char(needle, j, span);
                        cx.assign(wanted, character, span);
                        let matching = cx.b.new_temp(span, Width::W32);
                        cx.assign(matching, Operand::Const(0), span);
                        let going = cx.temp(
                            Rvalue::Binary(BinOp::Ne, character, Operand::Const(0)),
                            span,
                        );
                        let (compare, join) = (cx.b.new_block(), cx.b.new_block());
                        cx.b.branch(going, compare, join, span);
                        cx.b.switch_to(compare);
                        let k = cx.temp(Rvalue::Binary(BinOp::Add, i, j), span);
                        let there = cx.text_char(haystack, k, span);
                        let there = cx.convert(there, needle.character, span);
                        let equal = cx.temp(Rvalue::Binary(BinOp::Eq, there, character), span);
                        cx.assign(matching, equal, span);
                        cx.b.goto(join, span);
                        cx.b.switch_to(join);
                        Operand::Local(matching)
                    },
                    |_, _| {},
                );
                let whole = cx.temp(
                    Rvalue::Binary(BinOp::Eq, Operand::Local(wanted), Operand::Const(0)),
                    span,
                );
                cx.record_match(whole, found, i, span);
                let character = cx.text_char(haystack, i, span);
                let going = cx.temp(
                    Rvalue::Binary(BinOp::Ne, character, Operand::Const(0)),
                    span,
                );
                let unmatched = cx.temp(Rvalue::Unary(UnOp::Not, whole), span);
                cx.temp(Rvalue::Binary(BinOp::BitAnd, going, unmatched), span)
            },
            |_, _| {},
        );
        Ok((self.pointer_at_or_null(haystack, found, span), haystack.ty))
    }

    /// `if (matched) found = k;`
    fn record_match(&mut self, matched: Operand, found: LocalId, k: Operand, span: Span) {
        let (record, join) = (self.b.new_block(), self.b.new_block());
        self.b.branch(matched, record, join, span);
        self.b.switch_to(record);
        self.assign(found, k, span);
        self.b.goto(join, span);
        self.b.switch_to(join);
    }

    /// An element pointer into `text`'s array at index `found`, or null where it is negative.
    fn pointer_at_or_null(&mut self, text: Text, found: LocalId, span: Span) -> Operand {
        let result = self.b.new_temp(span, Width::W32);
        let (hit, miss, join) = (self.b.new_block(), self.b.new_block(), self.b.new_block());
        let matched = self.temp(
            Rvalue::Binary(BinOp::Ge, Operand::Local(found), Operand::Const(0)),
            span,
        );
        self.b.branch(matched, hit, miss, span);
        self.b.switch_to(hit);
        let at_found = (Operand::Local(found), CType::Int);
        let pointer = self.element_offset(text.pointer, at_found, false, span);
        self.assign(result, pointer, span);
        self.b.goto(join, span);
        self.b.switch_to(miss);
        let null = self.element_value(Operand::Null, Operand::Const(0), span);
        self.assign(result, null, span);
        self.b.goto(join, span);
        self.b.switch_to(join);
        Operand::Local(result)
    }

    /// `strdup(s)` and `strndup(s, n)`: a fresh heap array (`lower/allocation.rs`) holding
    /// `s`'s characters up to its 0 (at most `n` of them), then a 0. Its value points at the
    /// first; like `malloc`, it never fails.
    pub(super) fn strdup(
        &mut self,
        name: &str,
        arguments: &[Node<Expression>],
        span: Span,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        let source = self.text(name, &arguments[0], at)?;
        let length = match arguments.get(1) {
            Some(limit) => {
                let limit = self.byte_count(limit, span)?;
                self.bounded_length(source, limit, span)
            }
            None => self.text_length(source, span),
        };
        let count = self.temp(Rvalue::Binary(BinOp::Add, length, Operand::Const(1)), span);
        let (pointer, ty) = self.character_array(count, span);
        let copy = Text {
            pointer,
            ty,
            character: CType::SChar,
            view: None,
        };
        // for (k = 0; k < length; k++) copy[k] = s[k]; copy[length] = 0;
        self.counted_loop(
            span,
            |cx, k| cx.temp(Rvalue::Binary(BinOp::Lt, k, length), span),
            |cx, k| {
                let value = cx.text_char(source, k, span);
                cx.text_store(copy, k, value, span);
            },
        );
        self.text_store(copy, length, Operand::Const(0), span);
        Ok((pointer, ty))
    }

    /// The number of characters of `text` before its first 0, at most `limit` (C's
    /// `strnlen`): no character at or past `limit` is read.
    fn bounded_length(&mut self, text: Text, limit: Operand, span: Span) -> Operand {
        self.scan_within(text, limit, span, |cx, value, _| {
            cx.temp(Rvalue::Binary(BinOp::Ne, value, Operand::Const(0)), span)
        })
    }

    /// `for (k = 0; k < count && more(text[k], k); k++) {}` with `count` unsigned: no
    /// character at or past `count` is read. The value of `k` when the loop ends.
    fn scan_within(
        &mut self,
        text: Text,
        count: Operand,
        span: Span,
        mut more: impl FnMut(&mut Self, Operand, Operand) -> Operand,
    ) -> Operand {
        self.counted_loop(
            span,
            |cx, k| {
                let going = cx.b.new_temp(span, Width::W32);
                let within = cx.temp(Rvalue::Binary(BinOp::ULt, k, count), span);
                cx.assign(going, within, span);
                let (read, join) = (cx.b.new_block(), cx.b.new_block());
                cx.b.branch(within, read, join, span);
                cx.b.switch_to(read);
                let value = cx.text_char(text, k, span);
                let next = more(cx, value, k);
                cx.assign(going, next, span);
                cx.b.goto(join, span);
                cx.b.switch_to(join);
                Operand::Local(going)
            },
            |_, _| {},
        )
    }

    /// The string argument of a search (`strchr`, `strstr`), whose result points into its
    /// array: a pointer into an array of characters, not a view of another type's bytes.
    fn search_text(
        &mut self,
        name: &str,
        argument: &Node<Expression>,
        at: usize,
    ) -> Result<Text, CError> {
        let text = self.text(name, argument, at)?;
        if text.view.is_some() {
            return Err(CError::unsupported(
                format!(
                    "`{name}` of a character view (its result would point into the bytes of \
                     an object of another type)"
                ),
                at,
            ));
        }
        Ok(text)
    }

    /// `strlen(string)`: the number of characters before the first 0, a `size_t`.
    pub(super) fn strlen(
        &mut self,
        name: &str,
        string: &Node<Expression>,
        span: Span,
        at: usize,
    ) -> Result<(Operand, CType), CError> {
        let length = self.string_length(name, string, span, at)?;
        let size_t = self.size_t();
        Ok((
            self.convert_number(length, CType::Int, size_t, span),
            size_t,
        ))
    }

    /// The number of characters before the first 0 of the string `string` (the argument of
    /// `name`), an `int`, each character read checked: `strlen`'s count, and what `puts` reads
    /// (`lower/output.rs`).
    pub(super) fn string_length(
        &mut self,
        name: &str,
        string: &Node<Expression>,
        span: Span,
        at: usize,
    ) -> Result<Operand, CError> {
        let text = self.text(name, string, at)?;
        Ok(self.text_length(text, span))
    }

    /// The number of characters before the first 0 of `text` (an `int`), each read checked:
    /// `for (k = 0; text[k] != 0; k++) {}`.
    fn text_length(&mut self, text: Text, span: Span) -> Operand {
        self.counted_loop(
            span,
            |cx, k| {
                let value = cx.text_char(text, k, span);
                cx.temp(Rvalue::Binary(BinOp::Ne, value, Operand::Const(0)), span)
            },
            |_, _| {},
        )
    }

    /// The `unmodelled` check that copying `count` characters (a string's, its 0 included,
    /// where `None`) from `source` to `destination` does not overlap, which C leaves undefined:
    /// they lie in different cells, or in one (rows of an array) at indices that keep the two
    /// ranges apart.
    fn check_apart(&mut self, destination: Text, source: Text, count: Option<Operand>, span: Span) {
        let [to_cell, to_index] = self.element_parts(destination.pointer, span);
        let [from_cell, from_index] = self.element_parts(source.pointer, span);
        let same = self.temp(Rvalue::Binary(BinOp::Eq, to_cell, from_cell), span);
        let (inside, apart) = (self.b.new_block(), self.b.new_block());
        self.b.branch(same, inside, apart, span);
        self.b.switch_to(inside);
        let count = match count {
            Some(count) => count,
            None => {
                let length = self.text_length(source, span);
                self.temp(Rvalue::Binary(BinOp::Add, length, Operand::Const(1)), span)
            }
        };
        let temp = |cx: &mut Self, op, a, b| cx.temp(Rvalue::Binary(op, a, b), span);
        let [to_end, from_end] = [to_index, from_index].map(|i| temp(self, BinOp::Add, i, count));
        let before = temp(self, BinOp::Le, to_end, from_index);
        let after = temp(self, BinOp::Le, from_end, to_index);
        let disjoint = temp(self, BinOp::BitOr, before, after);
        // A count of 2^31 or more (an `unsigned` size) is no range here.
        let small = temp(self, BinOp::Ge, count, Operand::Const(0));
        let holds = temp(self, BinOp::BitAnd, small, disjoint);
        self.unmodelled_cause(span, "a string copied onto itself (overlapping ranges)");
        let kind = PropertyKind::Unmodelled;
        self.check(Check::Condition { holds, kind }, span);
        self.b.goto(apart, span);
        self.b.switch_to(apart);
    }

    /// Character `k` of `text`, of its character type (checked as a subscript is).
    fn text_char(&mut self, text: Text, k: Operand, span: Span) -> Operand {
        let at_k = Some((k, CType::Int));
        match text.view {
            Some(view) => {
                let byte = self.byte_lvalue((text.pointer, text.ty), view, at_k, span);
                self.read_byte(&byte, span)
            }
            None => {
                let memory = self.element_memory((text.pointer, text.character), at_k, span);
                self.read_memory(&memory, text.character, false, span)
            }
        }
    }

    /// Writes `value` (a character) as character `k` of `text`, converted to its type.
    fn text_store(&mut self, text: Text, k: Operand, value: Operand, span: Span) {
        let value = self.convert(value, text.character, span);
        let at_k = Some((k, CType::Int));
        match text.view {
            Some(view) => {
                let byte = self.byte_lvalue((text.pointer, text.ty), view, at_k, span);
                self.write_byte(&byte, value, false, span);
            }
            None => {
                let memory = self.element_memory((text.pointer, text.character), at_k, span);
                self.write_memory(&memory, text.character, value, false, span);
            }
        }
    }

    /// The string argument `argument` of `name`: a pointer into an array of characters or a
    /// character view.
    fn text(&mut self, name: &str, argument: &Node<Expression>, at: usize) -> Result<Text, CError> {
        let (pointer, ty) = self.typed(argument)?;
        let view = self.unit.types.borrow().view_of(ty);
        if let Some(view) = view.filter(|view| view.unit.is_char()) {
            return Ok(Text {
                pointer,
                ty,
                character: view.unit,
                view: Some(view),
            });
        }
        let character = match ty {
            CType::Element(p) => self.pointee(p),
            _ => CType::Void,
        };
        if !character.is_char() {
            let described = self.unit.types.borrow().describe(ty);
            return Err(CError::unsupported(
                format!(
                    "`{name}` of a `{described}` (a pointer into an array of characters, or a \
                     character view, is modelled)"
                ),
                at,
            ));
        }
        Ok(Text {
            pointer,
            ty,
            character,
            view: None,
        })
    }
}
