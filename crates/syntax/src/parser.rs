//! Recursive-descent parser for micro-c with error recovery.
//!
//! Statements and functions are parsed by recursive descent, expressions by precedence climbing
//! over the levels of microc.md. On a syntax error the parser records a diagnostic that says what
//! was expected, skips to a synchronisation point (`;`, `}`, a statement keyword, the next
//! function) and goes on, so one run reports several errors. Nesting deeper than [`MAX_NESTING`]
//! is an error ("too deeply nested"), which bounds the recursion of the parser and of every later
//! tree walk. The parser never panics and always makes progress.

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::lexer::{lex, number_value, Token};
use crate::span::Span;

/// Maximum depth of the syntax tree (nested statements, parentheses, unary operators, and each
/// operator of a binary chain); deeper programs are rejected.
pub const MAX_NESTING: u32 = 256;

/// After this many errors the parser stops: later ones are most likely cascades.
const MAX_ERRORS: usize = 50;

/// Parses a whole program. The tree is always returned; if the diagnostics are non-empty it may
/// contain [`ExprKind::Error`] placeholders and must not be analysed.
pub fn parse(text: &str) -> (Program, Vec<Diagnostic>) {
    let mut parser = Parser {
        text,
        tokens: lex(text),
        pos: 0,
        depth: 0,
        next_node: 0,
        errors: Vec::new(),
        gave_up: false,
    };
    let functions = parser.program();
    let program = Program {
        functions,
        node_count: parser.next_node,
    };
    (program, parser.errors)
}

/// Raised when parsing cannot go on at this level; the diagnostic is already recorded.
struct Bail;

type PResult<T> = Result<T, Bail>;

struct Parser<'a> {
    text: &'a str,
    tokens: Vec<(Token, Span)>,
    pos: usize,
    depth: u32,
    next_node: u32,
    errors: Vec<Diagnostic>,
    /// Set when parsing was abandoned (too deep, too many errors): nothing more is reported.
    gave_up: bool,
}

impl<'a> Parser<'a> {
    // ---- token access -------------------------------------------------------------------

    fn peek(&self) -> Token {
        self.tokens[self.pos].0
    }

    fn peek_at(&self, ahead: usize) -> Token {
        self.tokens[(self.pos + ahead).min(self.tokens.len() - 1)].0
    }

    fn span(&self) -> Span {
        self.tokens[self.pos].1
    }

    /// The span just after the previous token (where a missing `;` belongs).
    fn after_previous(&self) -> Span {
        let end = if self.pos == 0 {
            0
        } else {
            self.tokens[self.pos - 1].1.end
        };
        Span { start: end, end }
    }

    fn bump(&mut self) -> Span {
        let span = self.span();
        if self.peek() != Token::Eof {
            self.pos += 1;
        }
        span
    }

    fn eat(&mut self, tok: Token) -> bool {
        if self.peek() == tok {
            self.bump();
            true
        } else {
            false
        }
    }

    fn text_of(&self, span: Span) -> &'a str {
        &self.text[span.range()]
    }

    // ---- diagnostics --------------------------------------------------------------------

    fn error(&mut self, diag: Diagnostic) -> Bail {
        if self.gave_up {
            return Bail;
        }
        self.errors.push(diag);
        if self.errors.len() >= MAX_ERRORS {
            let span = self.span();
            self.errors.push(
                Diagnostic::error(span, "too many syntax errors; stopping here")
                    .with_note("fix the errors above first: later ones are often consequences"),
            );
            self.give_up();
        }
        Bail
    }

    /// Abandons the parse: jumps to the end so every loop stops, and mutes later errors.
    fn give_up(&mut self) {
        self.gave_up = true;
        self.pos = self.tokens.len() - 1;
    }

    /// "expected X, found Y" at the current token (lexer errors get their own message).
    fn expected(&mut self, what: &str) -> Bail {
        let found = self.peek();
        let span = self.span();
        let diag = match found {
            Token::Error => Diagnostic::error(
                span,
                format!("unexpected character `{}`", self.text_of(span)),
            )
            .with_label(format!("expected {what}")),
            Token::UnterminatedComment => Diagnostic::error(
                Span {
                    start: span.start,
                    end: span.start + 2,
                },
                "unterminated block comment",
            )
            .with_label("this `/*` has no matching `*/`"),
            _ => Diagnostic::error(span, format!("expected {what}, found {}", found.describe()))
                .with_label(format!("expected {what}")),
        };
        self.error(diag)
    }

    /// Consumes `tok` or reports it missing. Closing punctuation is reported right after the
    /// previous token, where it belongs, as rustc does; when what follows plausibly comes after
    /// the missing token, the parser acts as if it were there and goes on without skipping.
    fn expect(&mut self, tok: Token) -> PResult<Span> {
        if self.peek() == tok {
            return Ok(self.bump());
        }
        if matches!(tok, Token::Semi | Token::RParen | Token::RBracket)
            && !matches!(self.peek(), Token::Error | Token::UnterminatedComment)
        {
            let at = self.after_previous();
            let found = self.peek().describe();
            let diag = Diagnostic::error(at, format!("expected {}, found {found}", tok.describe()))
                .with_label(format!("add {} here", tok.describe()))
                .with_secondary(self.span(), format!("found {found}"));
            let bail = self.error(diag);
            return if self.may_follow_missing(tok) {
                Ok(at)
            } else {
                Err(bail)
            };
        }
        Err(self.expected(tok.describe()))
    }

    /// Whether the current token can follow a missing `tok`, so recovery may insert it.
    fn may_follow_missing(&self, tok: Token) -> bool {
        let starts_statement = matches!(
            self.peek(),
            Token::If
                | Token::While
                | Token::Output
                | Token::Assert
                | Token::Assume
                | Token::Return
                | Token::Var
                | Token::RBrace
        );
        match tok {
            Token::Semi => starts_statement || self.on_new_line(),
            Token::RParen => {
                starts_statement || self.peek() == Token::LBrace || self.peek() == Token::Semi
            }
            _ => false,
        }
    }

    /// Whether a line break separates the current token from the previous one.
    fn on_new_line(&self) -> bool {
        self.pos > 0 && {
            let gap = self.tokens[self.pos - 1].1.end as usize..self.span().start as usize;
            self.text[gap].contains('\n')
        }
    }

    fn ident(&mut self, what: &str) -> PResult<Ident> {
        if self.peek() == Token::Ident {
            let span = self.bump();
            return Ok(Ident {
                name: self.text_of(span).to_string(),
                span,
            });
        }
        if let Some(keyword) = self.keyword_text() {
            let span = self.span();
            let diag =
                Diagnostic::error(span, format!("expected {what}, found keyword `{keyword}`"))
                    .with_label(format!("`{keyword}` is reserved"))
                    .with_note(
                        "keywords: var return if else while output input alloc null assert assume",
                    );
            return Err(self.error(diag));
        }
        Err(self.expected(what))
    }

    fn keyword_text(&self) -> Option<&'a str> {
        use Token::*;
        matches!(
            self.peek(),
            Var | Return | If | Else | While | Output | Input | Alloc | Null | Assert | Assume
        )
        .then(|| self.text_of(self.span()))
    }

    // ---- nesting --------------------------------------------------------------------------

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            let span = self.span();
            let diag = Diagnostic::error(span, "program too deeply nested")
                .with_label(format!("nesting exceeds {MAX_NESTING} levels here"))
                .with_note(
                    "split deep expressions or statements into smaller pieces with variables",
                );
            self.depth -= 1;
            // Give up on the whole program: recovering inside such nesting only cascades.
            let bail = self.error(diag);
            self.give_up();
            return Err(bail);
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        self.enter()?;
        let result = f(self);
        self.leave();
        result
    }

    // ---- recovery -------------------------------------------------------------------------

    /// Skips to just after a `;` or to a token that can start a statement or end a block, at
    /// the current brace depth. Always consumes at least one token unless at `}`/EOF.
    fn sync_statement(&mut self) {
        let start = self.pos;
        let mut braces = 0u32;
        loop {
            match self.peek() {
                Token::Eof => return,
                Token::Semi if braces == 0 => {
                    self.bump();
                    return;
                }
                Token::LBrace => braces += 1,
                Token::RBrace if braces == 0 => return,
                Token::RBrace => braces -= 1,
                Token::If
                | Token::While
                | Token::Output
                | Token::Assert
                | Token::Assume
                | Token::Return
                | Token::Var
                    if braces == 0 && self.pos > start =>
                {
                    return
                }
                _ => {}
            }
            self.bump();
        }
    }

    /// Skips to the start of the next function definition (`name (` at brace depth 0).
    fn sync_function(&mut self) {
        let mut braces = 0u32;
        let start = self.pos;
        loop {
            match self.peek() {
                Token::Eof => return,
                Token::LBrace => braces += 1,
                Token::RBrace => {
                    braces = braces.saturating_sub(1);
                    if braces == 0 {
                        self.bump();
                        return;
                    }
                }
                Token::Ident
                    if braces == 0 && self.pos > start && self.peek_at(1) == Token::LParen =>
                {
                    return
                }
                _ => {}
            }
            self.bump();
        }
    }

    // ---- program and functions ------------------------------------------------------------

    fn program(&mut self) -> Vec<Function> {
        let mut functions = Vec::new();
        while self.peek() != Token::Eof {
            let before = self.pos;
            match self.function() {
                Ok(f) => functions.push(f),
                Err(Bail) => {
                    self.sync_function();
                    if self.pos == before {
                        self.bump();
                    }
                }
            }
        }
        functions
    }

    fn function(&mut self) -> PResult<Function> {
        let start = self.span();
        let name = if self.peek() == Token::Ident {
            self.ident("a function name")?
        } else {
            let diag = Diagnostic::error(
                self.span(),
                format!(
                    "expected a function definition, found {}",
                    self.peek().describe()
                ),
            )
            .with_label("expected `name(params) { ... }`")
            .with_note("a micro-c program is a list of functions; there are no global variables");
            return Err(self.error(diag));
        };
        self.expect(Token::LParen)?;
        let params = self.comma_separated(Token::RParen, |p| p.ident("a parameter name"))?;
        self.expect(Token::RParen)?;
        self.expect(Token::LBrace)?;

        let mut locals = Vec::new();
        while self.peek() == Token::Var {
            if self.var_statement(&mut locals).is_err() {
                self.sync_statement();
            }
        }

        let mut body = Vec::new();
        while !matches!(self.peek(), Token::Return | Token::RBrace | Token::Eof) {
            self.statement_or_recover(&mut body);
        }

        if self.peek() != Token::Return {
            let at = self.span();
            let diag = Diagnostic::error(
                at,
                format!("function `{}` has no final `return`", name.name),
            )
            .with_label("expected `return e;` before the end of the function")
            .with_secondary(name.span, "in this function")
            .with_note("every micro-c function ends with exactly one `return` statement");
            self.error(diag);
            // Keep the function: later checks still see its names.
            self.eat(Token::RBrace);
            let ret = self.new_expr(ExprKind::Error, at);
            return Ok(Function {
                name,
                params,
                locals,
                body,
                ret,
                ret_span: at,
                span: start.to(at),
            });
        }
        let ret_start = self.bump();
        let ret = self.expr_or_error();
        let semi = self.expect(Token::Semi).unwrap_or(ret.span);
        let ret_span = ret_start.to(semi);

        // Anything but `}` here is a statement after the return.
        while !matches!(self.peek(), Token::RBrace | Token::Eof) {
            let span = self.span();
            let diag = Diagnostic::error(span, "statement after the final `return`")
                .with_label("nothing may follow `return`")
                .with_secondary(ret_span, "the function returns here")
                .with_note("`return` must be the last statement of a function");
            self.error(diag);
            let mut ignored = Vec::new();
            self.statement_or_recover(&mut ignored);
        }
        let end = self.expect(Token::RBrace)?;
        Ok(Function {
            name,
            params,
            locals,
            body,
            ret,
            ret_span,
            span: start.to(end),
        })
    }

    fn var_statement(&mut self, locals: &mut Vec<Ident>) -> PResult<()> {
        self.bump(); // `var`
        loop {
            locals.push(self.ident("a variable name")?);
            if !self.eat(Token::Comma) {
                break;
            }
        }
        self.expect(Token::Semi)?;
        Ok(())
    }

    // ---- statements -------------------------------------------------------------------------

    /// Parses one statement into `out`, or reports and skips a broken one.
    fn statement_or_recover(&mut self, out: &mut Vec<Stmt>) {
        let before = self.pos;
        match self.statement() {
            Ok(Some(stmt)) => out.push(stmt),
            Ok(None) => {}
            Err(Bail) => {
                self.sync_statement();
                if self.pos == before && !matches!(self.peek(), Token::RBrace | Token::Eof) {
                    self.bump();
                }
            }
        }
    }

    /// `Ok(None)` for misplaced `var`/`return`, which are reported and skipped.
    fn statement(&mut self) -> PResult<Option<Stmt>> {
        self.nested(|p| p.statement_inner())
    }

    fn statement_inner(&mut self) -> PResult<Option<Stmt>> {
        match self.peek() {
            Token::Var => self.misplaced_var().map(|()| None),
            Token::Return => self.misplaced_return().map(|()| None),
            Token::Output => self.output_statement().map(Some),
            Token::Assert | Token::Assume => self.check_statement().map(Some),
            Token::If => self.if_statement().map(Some),
            Token::While => self.while_statement().map(Some),
            Token::LBrace => self.block().map(Some),
            Token::Semi => {
                let diag = Diagnostic::error(self.span(), "empty statement")
                    .with_label("micro-c has no empty statement `;`")
                    .with_note("use an empty block `{}` instead");
                Err(self.error(diag))
            }
            _ => self.assignment().map(Some),
        }
    }

    fn misplaced_var(&mut self) -> PResult<()> {
        let diag = Diagnostic::error(self.span(), "`var` declaration after a statement")
            .with_label("declarations must come before the first statement")
            .with_note("move this `var` to the top of the function body");
        self.error(diag);
        let mut ignored = Vec::new();
        self.var_statement(&mut ignored)
    }

    fn misplaced_return(&mut self) -> PResult<()> {
        let diag = Diagnostic::error(self.span(), "`return` in the middle of a function")
            .with_label("`return` is allowed only as the last statement of a function")
            .with_note("store the value in a variable and return it at the end");
        self.error(diag);
        self.bump();
        self.expr_or_error();
        self.expect(Token::Semi).map(drop)
    }

    fn output_statement(&mut self) -> PResult<Stmt> {
        let start = self.bump();
        let e = self.expr()?;
        let end = self.expect(Token::Semi)?;
        Ok(Stmt {
            kind: StmtKind::Output(e),
            span: start.to(end),
        })
    }

    /// `assert(e);` or `assume(e);`
    fn check_statement(&mut self) -> PResult<Stmt> {
        let is_assert = self.peek() == Token::Assert;
        let start = self.bump();
        self.expect(Token::LParen)?;
        let e = self.expr()?;
        self.expect(Token::RParen)?;
        let end = self.expect(Token::Semi)?;
        let kind = if is_assert {
            StmtKind::Assert(e)
        } else {
            StmtKind::Assume(e)
        };
        Ok(Stmt {
            kind,
            span: start.to(end),
        })
    }

    fn if_statement(&mut self) -> PResult<Stmt> {
        let start = self.bump();
        let cond = self.parenthesized_condition()?;
        let then_branch = Box::new(self.required_statement()?);
        let else_branch = if self.eat(Token::Else) {
            Some(Box::new(self.required_statement()?))
        } else {
            None
        };
        let end = else_branch.as_ref().map_or(then_branch.span, |e| e.span);
        Ok(Stmt {
            kind: StmtKind::If {
                cond,
                then_branch,
                else_branch,
            },
            span: start.to(end),
        })
    }

    fn while_statement(&mut self) -> PResult<Stmt> {
        let start = self.bump();
        let cond = self.parenthesized_condition()?;
        let body = Box::new(self.required_statement()?);
        let span = start.to(body.span);
        Ok(Stmt {
            kind: StmtKind::While { cond, body },
            span,
        })
    }

    fn parenthesized_condition(&mut self) -> PResult<Expr> {
        self.expect(Token::LParen)?;
        let cond = self.expr()?;
        self.expect(Token::RParen)?;
        Ok(cond)
    }

    fn block(&mut self) -> PResult<Stmt> {
        let start = self.bump();
        let mut stmts = Vec::new();
        while !matches!(self.peek(), Token::RBrace | Token::Eof) {
            self.statement_or_recover(&mut stmts);
        }
        let end = self.expect(Token::RBrace)?;
        Ok(Stmt {
            kind: StmtKind::Block(stmts),
            span: start.to(end),
        })
    }

    /// The body of `if`/`else`/`while`: a statement that must be there.
    fn required_statement(&mut self) -> PResult<Stmt> {
        let start = self.span();
        match self.statement()? {
            Some(stmt) => Ok(stmt),
            // A misplaced `var`/`return` was reported; stand in an empty block.
            None => Ok(Stmt {
                kind: StmtKind::Block(Vec::new()),
                span: start,
            }),
        }
    }

    fn assignment(&mut self) -> PResult<Stmt> {
        let target = self.expr()?;
        if self.peek() != Token::Assign {
            let diag = if self.peek() == Token::Semi {
                let d = Diagnostic::error(target.span, "expression used as a statement")
                    .with_label("this value is computed and thrown away");
                if matches!(target.kind, ExprKind::Call(..)) {
                    d.with_note("micro-c has no call statements: assign the result, `x = f(...);`")
                } else {
                    d.with_note("a statement is an assignment, `output`, `if`, `while`, a block, `assert` or `assume`")
                }
            } else {
                let found = self.peek().describe();
                Diagnostic::error(self.span(), format!("expected `=`, found {found}"))
                    .with_label("expected `=` of an assignment")
            };
            return Err(self.error(diag));
        }
        let eq = self.bump();
        if !target.is_lvalue() {
            let diag = Diagnostic::error(target.span, "cannot assign to this expression")
                .with_label("not a variable, `*p`, field `e.f` or element `a[i]`")
                .with_secondary(eq, "assignment here");
            // Keep going: the right-hand side may hold more errors worth reporting.
            self.error(diag);
        }
        let value = self.expr()?;
        let end = self.expect(Token::Semi)?;
        Ok(Stmt {
            span: target.span.to(end),
            kind: StmtKind::Assign { target, value },
        })
    }

    // ---- expressions ------------------------------------------------------------------------

    fn new_expr(&mut self, kind: ExprKind, span: Span) -> Expr {
        let id = NodeId(self.next_node);
        self.next_node += 1;
        Expr { id, kind, span }
    }

    /// An expression, or an `Error` placeholder after reporting.
    fn expr_or_error(&mut self) -> Expr {
        let start = self.span();
        match self.expr() {
            Ok(e) => e,
            Err(Bail) => self.new_expr(ExprKind::Error, start),
        }
    }

    fn expr(&mut self) -> PResult<Expr> {
        self.nested(|p| p.binary(0))
    }

    /// Precedence climbing: operators of level >= `min_level` (microc.md levels 1..=6 as 0..=5).
    /// Each operator of a left-associative chain deepens the tree by one, so it counts as a
    /// nesting level: tree depth, not source nesting, is what later recursive walks pay for.
    fn binary(&mut self, min_level: u8) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        let mut chain = 0;
        while let Some((op, level)) = binary_op(self.peek()) {
            if level < min_level {
                break;
            }
            self.bump();
            if let Err(bail) = self.enter() {
                self.depth -= chain;
                return Err(bail);
            }
            chain += 1;
            // All binary operators are left-associative: the right side binds tighter.
            let rhs = match self.nested(|p| p.binary(level + 1)) {
                Ok(rhs) => rhs,
                Err(bail) => {
                    self.depth -= chain;
                    return Err(bail);
                }
            };
            let span = lhs.span.to(rhs.span);
            lhs = self.new_expr(ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span);
        }
        self.depth -= chain;
        Ok(lhs)
    }

    fn unary(&mut self) -> PResult<Expr> {
        let start = self.span();
        let (make, op_span): (fn(Box<Expr>) -> ExprKind, Span) = match self.peek() {
            Token::Bang => (|e| ExprKind::Unary(UnaryOp::Not, e), self.bump()),
            Token::Star => (ExprKind::Deref, self.bump()),
            Token::Amp => (ExprKind::AddrOf, self.bump()),
            Token::Alloc => (ExprKind::Alloc, self.bump()),
            Token::Minus => {
                self.bump();
                if self.peek() == Token::Number {
                    return self.number(true, start);
                }
                (|e| ExprKind::Unary(UnaryOp::Neg, e), start)
            }
            _ => return self.postfix(),
        };
        let operand = self.nested(|p| p.unary())?;
        let span = op_span.to(operand.span);
        Ok(self.new_expr(make(Box::new(operand)), span))
    }

    fn number(&mut self, negated: bool, start: Span) -> PResult<Expr> {
        let span = self.bump();
        let text = self.text_of(span);
        let limit = if negated {
            1u64 << 31
        } else {
            (1u64 << 31) - 1
        };
        let value = match number_value(text) {
            Some(v) if v <= limit => v,
            _ => {
                let range = if negated { "-2147483648" } else { "2147483647" };
                let diag = Diagnostic::error(span, "integer literal out of range")
                    .with_label(format!("does not fit in a 32-bit integer (limit {range})"))
                    .with_note("micro-c numbers are 32-bit two's-complement integers");
                return Err(self.error(diag));
            }
        };
        let value = if negated {
            (value as i64).wrapping_neg() as i32
        } else {
            value as i32
        };
        let full = start.to(span);
        let literal = self.new_expr(ExprKind::Number(value), full);
        // A negative literal is an operand like any other: `-5.f` is still a postfix chain.
        self.postfix_chain(literal)
    }

    fn postfix(&mut self) -> PResult<Expr> {
        let base = self.primary()?;
        self.postfix_chain(base)
    }

    /// Each postfix operator deepens the tree by one, so it counts as a nesting level, like the
    /// operators of a binary chain.
    fn postfix_chain(&mut self, expr: Expr) -> PResult<Expr> {
        let depth_before = self.depth;
        let result = self.postfix_operators(expr);
        self.depth = depth_before;
        result
    }

    fn postfix_operators(&mut self, mut expr: Expr) -> PResult<Expr> {
        loop {
            if matches!(self.peek(), Token::Dot | Token::Arrow | Token::LBracket) {
                self.enter()?;
            }
            match self.peek() {
                Token::Dot => {
                    self.bump();
                    let field = self.ident("a field name after `.`")?;
                    let span = expr.span.to(field.span);
                    expr = self.new_expr(ExprKind::Field(Box::new(expr), field), span);
                }
                Token::Arrow => {
                    self.bump();
                    let field = self.ident("a field name after `->`")?;
                    let span = expr.span.to(field.span);
                    // `p->f` is `(*p).f`; both nodes span the whole `p->f`.
                    self.enter()?;
                    let deref = self.new_expr(ExprKind::Deref(Box::new(expr)), span);
                    expr = self.new_expr(ExprKind::Field(Box::new(deref), field), span);
                }
                Token::LBracket => {
                    self.bump();
                    let index = self.expr()?;
                    let end = self.expect(Token::RBracket)?;
                    let span = expr.span.to(end);
                    expr = self.new_expr(ExprKind::Index(Box::new(expr), Box::new(index)), span);
                }
                Token::LParen => {
                    // `f(x)` is parsed in `primary`; here the callee is some other expression.
                    let diag =
                        Diagnostic::error(self.span(), "only functions can be called, by name")
                            .with_label("a call needs a function name right before `(`")
                            .with_secondary(expr.span, "not a function name")
                            .with_note("micro-c has no function values: write `f(args)`");
                    return Err(self.error(diag));
                }
                _ => return Ok(expr),
            }
        }
    }

    fn primary(&mut self) -> PResult<Expr> {
        let start = self.span();
        match self.peek() {
            Token::Number => self.number(false, start),
            Token::Null => {
                self.bump();
                Ok(self.new_expr(ExprKind::Null, start))
            }
            Token::Input => {
                self.bump();
                Ok(self.new_expr(ExprKind::Input, start))
            }
            Token::Ident => {
                let name = self.ident("an expression")?;
                if self.peek() == Token::LParen {
                    return self.call(name);
                }
                let span = name.span;
                Ok(self.new_expr(ExprKind::Var(name), span))
            }
            Token::LParen => {
                self.bump();
                let inner = self.expr()?;
                let end = self.expect(Token::RParen)?;
                // Parentheses only group; widen the span so diagnostics cover them.
                Ok(Expr {
                    span: start.to(end),
                    ..inner
                })
            }
            Token::LBrace => self.record(),
            Token::LBracket => self.array(),
            _ => Err(self.expected("an expression")),
        }
    }

    fn call(&mut self, name: Ident) -> PResult<Expr> {
        self.bump(); // `(`
        let args = self.comma_separated(Token::RParen, Self::expr)?;
        let end = self.expect(Token::RParen)?;
        let span = name.span.to(end);
        Ok(self.new_expr(ExprKind::Call(name, args), span))
    }

    fn record(&mut self) -> PResult<Expr> {
        let start = self.bump(); // `{`
        let fields = self.comma_separated(Token::RBrace, |p| {
            let name = p.ident("a field name")?;
            p.expect(Token::Colon)?;
            Ok((name, p.expr()?))
        })?;
        let end = self.expect(Token::RBrace)?;
        Ok(self.new_expr(ExprKind::Record(fields), start.to(end)))
    }

    fn array(&mut self) -> PResult<Expr> {
        let start = self.bump(); // `[`
        let elems = self.comma_separated(Token::RBracket, Self::expr)?;
        let end = self.expect(Token::RBracket)?;
        Ok(self.new_expr(ExprKind::Array(elems), start.to(end)))
    }

    /// `item, item, …` up to (not including) `close`; empty when `close` comes first.
    fn comma_separated<T>(
        &mut self,
        close: Token,
        mut item: impl FnMut(&mut Self) -> PResult<T>,
    ) -> PResult<Vec<T>> {
        let mut items = Vec::new();
        if self.peek() != close {
            loop {
                items.push(item(self)?);
                if !self.eat(Token::Comma) {
                    break;
                }
            }
        }
        Ok(items)
    }
}

/// The binary operator of a token and its level (0 = `||` loosest … 5 = `*` tightest).
fn binary_op(tok: Token) -> Option<(BinaryOp, u8)> {
    Some(match tok {
        Token::OrOr => (BinaryOp::Or, 0),
        Token::AndAnd => (BinaryOp::And, 1),
        Token::EqEq => (BinaryOp::Eq, 2),
        Token::NotEq => (BinaryOp::Ne, 2),
        Token::Lt => (BinaryOp::Lt, 3),
        Token::Le => (BinaryOp::Le, 3),
        Token::Gt => (BinaryOp::Gt, 3),
        Token::Ge => (BinaryOp::Ge, 3),
        Token::Plus => (BinaryOp::Add, 4),
        Token::Minus => (BinaryOp::Sub, 4),
        Token::Star => (BinaryOp::Mul, 5),
        Token::Slash => (BinaryOp::Div, 5),
        Token::Percent => (BinaryOp::Rem, 5),
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
