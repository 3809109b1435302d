//! The micro-c lexer: source text to a vector of spanned [`Token`]s.
//!
//! Comments (`// …`, `/* … */`) and whitespace are skipped. Characters that start no token and
//! unterminated block comments become [`Token::Error`], which the parser reports with a location;
//! lexing itself never fails. Number literals are kept as text-checked `u64` so the parser can
//! decide whether `2147483648` is legal (only after a unary minus).

use crate::span::Span;
use logos::Logos;

#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[logos(skip r"[ \t\r\n\f]+")]
#[logos(skip r"//[^\n]*")]
pub enum Token {
    #[regex(r"/\*([^*]|\*+[^*/])*\*+/", logos::skip)]
    BlockComment,
    /// A `/*` without its `*/`: reported by the parser.
    #[regex(r"/\*([^*]|\*+[^*/])*\**", priority = 0)]
    UnterminatedComment,

    #[token("var")]
    Var,
    #[token("return")]
    Return,
    #[token("if")]
    If,
    #[token("else")]
    Else,
    #[token("while")]
    While,
    #[token("output")]
    Output,
    #[token("input")]
    Input,
    #[token("alloc")]
    Alloc,
    #[token("null")]
    Null,
    #[token("assert")]
    Assert,
    #[token("assume")]
    Assume,

    #[regex(r"[A-Za-z_][A-Za-z0-9_]*")]
    Ident,
    /// Decimal digits; the value is read by [`number_value`].
    #[regex(r"[0-9]+")]
    Number,

    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token(",")]
    Comma,
    #[token(";")]
    Semi,
    #[token(":")]
    Colon,
    #[token(".")]
    Dot,
    #[token("->")]
    Arrow,
    #[token("=")]
    Assign,
    #[token("==")]
    EqEq,
    #[token("!=")]
    NotEq,
    #[token("<")]
    Lt,
    #[token("<=")]
    Le,
    #[token(">")]
    Gt,
    #[token(">=")]
    Ge,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("!")]
    Bang,
    #[token("&&")]
    AndAnd,
    #[token("||")]
    OrOr,
    #[token("&")]
    Amp,

    /// A character that starts no token.
    Error,
    /// End of input (appended by [`lex`]).
    Eof,
}

impl Token {
    /// How the token is shown in "expected …, found …" messages.
    pub fn describe(self) -> &'static str {
        match self {
            Token::BlockComment => "a comment",
            Token::UnterminatedComment => "an unterminated `/*` comment",
            Token::Var => "`var`",
            Token::Return => "`return`",
            Token::If => "`if`",
            Token::Else => "`else`",
            Token::While => "`while`",
            Token::Output => "`output`",
            Token::Input => "`input`",
            Token::Alloc => "`alloc`",
            Token::Null => "`null`",
            Token::Assert => "`assert`",
            Token::Assume => "`assume`",
            Token::Ident => "an identifier",
            Token::Number => "a number",
            Token::LParen => "`(`",
            Token::RParen => "`)`",
            Token::LBrace => "`{`",
            Token::RBrace => "`}`",
            Token::LBracket => "`[`",
            Token::RBracket => "`]`",
            Token::Comma => "`,`",
            Token::Semi => "`;`",
            Token::Colon => "`:`",
            Token::Dot => "`.`",
            Token::Arrow => "`->`",
            Token::Assign => "`=`",
            Token::EqEq => "`==`",
            Token::NotEq => "`!=`",
            Token::Lt => "`<`",
            Token::Le => "`<=`",
            Token::Gt => "`>`",
            Token::Ge => "`>=`",
            Token::Plus => "`+`",
            Token::Minus => "`-`",
            Token::Star => "`*`",
            Token::Slash => "`/`",
            Token::Percent => "`%`",
            Token::Bang => "`!`",
            Token::AndAnd => "`&&`",
            Token::OrOr => "`||`",
            Token::Amp => "`&`",
            Token::Error => "an unexpected character",
            Token::Eof => "end of file",
        }
    }
}

/// Splits `text` into tokens; the last one is always [`Token::Eof`].
pub fn lex(text: &str) -> Vec<(Token, Span)> {
    let mut tokens: Vec<(Token, Span)> = Token::lexer(text)
        .spanned()
        .map(|(tok, range)| {
            (
                tok.unwrap_or(Token::Error),
                Span::new(range.start, range.end),
            )
        })
        .collect();
    tokens.push((Token::Eof, Span::new(text.len(), text.len())));
    tokens
}

/// The value of a [`Token::Number`]'s text, or `None` if it exceeds `u64`.
pub fn number_value(text: &str) -> Option<u64> {
    text.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<Token> {
        lex(text).into_iter().map(|(t, _)| t).collect()
    }

    #[test]
    fn keywords_identifiers_and_operators() {
        assert_eq!(
            kinds("var continue; x->f <= -5 && !y"),
            vec![
                Token::Var,
                Token::Ident,
                Token::Semi,
                Token::Ident,
                Token::Arrow,
                Token::Ident,
                Token::Le,
                Token::Minus,
                Token::Number,
                Token::AndAnd,
                Token::Bang,
                Token::Ident,
                Token::Eof
            ]
        );
    }

    #[test]
    fn comments_are_skipped() {
        assert_eq!(
            kinds("//! header\nx /* a * b ** / */ y // end"),
            vec![Token::Ident, Token::Ident, Token::Eof]
        );
    }

    #[test]
    fn bad_characters_and_unterminated_comments_are_tokens() {
        assert_eq!(
            kinds("x # y"),
            vec![Token::Ident, Token::Error, Token::Ident, Token::Eof]
        );
        assert_eq!(
            kinds("x /* never closed *"),
            vec![Token::Ident, Token::UnterminatedComment, Token::Eof]
        );
    }

    #[test]
    fn spans_are_byte_ranges() {
        let toks = lex("ab  12");
        assert_eq!(toks[0].1, Span::new(0, 2));
        assert_eq!(toks[1].1, Span::new(4, 6));
        assert_eq!(toks[2].1, Span::new(6, 6));
    }
}
