//! The readable text form of the IR (`symex cfg prog.uc`): one paragraph per function, one
//! line per instruction with its source `line:col` (and property id for checks).
//!
//! ```text
//! fn main()
//!   locals: x (var), y (var), %0..%1 (temps)
//! bb0:
//!   check uninit x                      ; prop #3, 5:7
//!   %0 = x / y                          ; 5:7
//!   branch %1 ? bb1 : bb2               ; 6:7
//! ```
//! Deterministic: the output depends on the module and the source text only. The instruction
//! syntax ([`inst_text`], [`terminator_text`]) is shared with the DOT renderer.

use std::fmt::Write;

use symex_syntax::span::LineIndex;

use crate::cfg::*;

/// Column where the `; line:col` comments start.
const COMMENT_COLUMN: usize = 40;

pub fn print_module(module: &Module, lines: &LineIndex) -> String {
    let mut out = String::new();
    for (i, _) in module.functions.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&print_function(module, FuncId(i as u32), lines));
    }
    out
}

pub fn print_function(module: &Module, id: FuncId, lines: &LineIndex) -> String {
    let func = module.function(id);
    let names = Names { module, func };
    let mut out = String::new();
    let params: Vec<&str> = func.params().map(|p| names.local(p)).collect();
    let _ = writeln!(out, "fn {}({})", func.name, params.join(", "));
    let _ = writeln!(out, "  locals: {}", locals_summary(func));
    for (b, block) in func.blocks.iter().enumerate() {
        let _ = writeln!(out, "bb{b}:");
        for inst in &block.insts {
            let text = names.inst(&inst.kind);
            let at = lines.start(inst.span);
            let comment = match inst.kind {
                InstKind::Check { prop, .. } => format!("prop #{}, {at}", prop.0),
                _ => at.to_string(),
            };
            push_line(&mut out, &text, &comment);
        }
        let text = names.terminator(&block.term);
        push_line(&mut out, &text, &lines.start(block.term_span).to_string());
    }
    out
}

/// The text of one instruction, e.g. `%0 = x / y` or `check null-deref p`.
pub fn inst_text(module: &Module, func: &Function, inst: &InstKind) -> String {
    Names { module, func }.inst(inst)
}

/// The text of a terminator, e.g. `branch %1 ? bb1 : bb2`.
pub fn terminator_text(module: &Module, func: &Function, term: &Terminator) -> String {
    Names { module, func }.terminator(term)
}

fn push_line(out: &mut String, text: &str, comment: &str) {
    let pad = COMMENT_COLUMN
        .saturating_sub(2 + text.chars().count())
        .max(1);
    let _ = writeln!(out, "  {text}{:pad$}; {comment}", "");
}

/// `a (param), x (var), y (var, address taken), %0..%4 (temps)`.
fn locals_summary(func: &Function) -> String {
    let mut parts = Vec::new();
    let mut temps = Vec::new();
    for local in &func.locals {
        let kind = match local.kind {
            LocalKind::Param => "param",
            LocalKind::Var => "var",
            LocalKind::Assigned => "local",
            LocalKind::Temp => {
                temps.push(local.name.as_str());
                continue;
            }
        };
        let taken = if local.address_taken {
            ", address taken"
        } else {
            ""
        };
        parts.push(format!("{} ({kind}{taken})", local.name));
    }
    match temps.as_slice() {
        [] => {}
        [one] => parts.push(format!("{one} (temp)")),
        [first, .., last] => parts.push(format!("{first}..{last} (temps)")),
    }
    if parts.is_empty() {
        "none".to_string()
    } else {
        parts.join(", ")
    }
}

/// Renders ids with the names of one function and module.
struct Names<'m> {
    module: &'m Module,
    func: &'m Function,
}

impl Names<'_> {
    fn local(&self, l: LocalId) -> &str {
        self.func
            .locals
            .get(l.index())
            .map_or("?", |info| info.name.as_str())
    }

    fn field(&self, f: FieldId) -> &str {
        self.module
            .fields
            .get(f.index())
            .map_or("?", |s| s.as_str())
    }

    fn operand(&self, op: Operand) -> String {
        match op {
            Operand::Const(n) => n.to_string(),
            Operand::Const64(n) => format!("{n}L"),
            Operand::Null => "null".to_string(),
            Operand::Local(l) => self.local(l).to_string(),
        }
    }

    fn place(&self, place: &Place) -> String {
        let mut text = match place.base {
            PlaceBase::Local(l) => self.local(l).to_string(),
            PlaceBase::Deref(p) if place.projections.is_empty() => {
                format!("*{}", self.operand(p))
            }
            PlaceBase::Deref(p) => format!("(*{})", self.operand(p)),
        };
        for proj in &place.projections {
            match *proj {
                Projection::Field(f) => {
                    text.push('.');
                    text.push_str(self.field(f));
                }
                Projection::Index(i) => {
                    let _ = write!(text, "[{}]", self.operand(i));
                }
            }
        }
        text
    }

    fn rvalue(&self, value: &Rvalue) -> String {
        match value {
            Rvalue::Use(a) => self.operand(*a),
            Rvalue::Unary(op, a) => format!("{}{}", op.symbol(), self.operand(*a)),
            Rvalue::Binary(op, a, b) => {
                format!("{} {} {}", self.operand(*a), op.symbol(), self.operand(*b))
            }
            Rvalue::Alloc(a) => format!("alloc {}", self.operand(*a)),
            Rvalue::AddrOf(l) => format!("&{}", self.local(*l)),
            Rvalue::Record(fields) => {
                let fields: Vec<String> = fields
                    .iter()
                    .map(|&(f, a)| format!("{}: {}", self.field(f), self.operand(a)))
                    .collect();
                format!("{{{}}}", fields.join(", "))
            }
            Rvalue::Array(items) => {
                let items: Vec<String> = items.iter().map(|&a| self.operand(a)).collect();
                format!("[{}]", items.join(", "))
            }
            Rvalue::Read(place) => self.place(place),
            Rvalue::Len(place) => format!("len({})", self.place(place)),
            Rvalue::Unreached(roots) => {
                let roots: Vec<String> = roots.iter().map(|&a| self.operand(a)).collect();
                format!("unreached({})", roots.join(", "))
            }
            Rvalue::LiveObjects => "live_objects()".to_string(),
        }
    }

    fn inst(&self, inst: &InstKind) -> String {
        match inst {
            InstKind::Assign { dst, value } => {
                format!("{} = {}", self.local(*dst), self.rvalue(value))
            }
            InstKind::Store { place, value } => {
                format!("{} = {}", self.place(place), self.operand(*value))
            }
            InstKind::Call { dst, func, args } => {
                let callee = self
                    .module
                    .functions
                    .get(func.index())
                    .map_or("?", |f| f.name.as_str());
                let args: Vec<String> = args.iter().map(|&a| self.operand(a)).collect();
                format!("{} = {callee}({})", self.local(*dst), args.join(", "))
            }
            InstKind::Input { dst } => format!("{} = input", self.local(*dst)),
            InstKind::Output(a) => format!("output {}", self.operand(*a)),
            InstKind::Assume(a) => format!("assume {}", self.operand(*a)),
            InstKind::Check { check, .. } => {
                let subject = match check {
                    Check::Assert(a)
                    | Check::Condition { holds: a, .. }
                    | Check::NonZero(a)
                    | Check::NonNull(a) => self.operand(*a),
                    Check::InBounds { array, index } => {
                        let mut element = array.clone();
                        element.projections.push(Projection::Index(*index));
                        self.place(&element)
                    }
                    Check::Init(place) => self.place(place),
                    Check::Reach => "line".to_string(),
                };
                format!("check {} {subject}", check.kind().name())
            }
        }
    }

    fn terminator(&self, term: &Terminator) -> String {
        match term {
            Terminator::Goto(t) => format!("goto bb{}", t.0),
            Terminator::Branch {
                cond,
                then_block,
                else_block,
            } => format!(
                "branch {} ? bb{} : bb{}",
                self.operand(*cond),
                then_block.0,
                else_block.0
            ),
            Terminator::Return(a) => format!("return {}", self.operand(*a)),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::printed;

    #[test]
    fn functions_with_locals_positions_and_property_ids() {
        let text = "f(a) {\n  return a;\n}\nmain() {\n  var x, y;\n  x = input;\n  y = 7 / x;\n  while (y < f(x)) { y = y + 1; }\n  return y;\n}\n";
        assert_eq!(
            printed(text, "f"),
            "fn f(a)\n  locals: a (param)\nbb0:\n  return a                              ; 2:3\n"
        );
        assert_eq!(
            printed(text, "main"),
            "fn main()
  locals: x (var), y (var), %0..%1 (temps)
bb0:
  x = input                             ; 6:3
  check uninit x                        ; prop #0, 7:11
  check div-by-zero x                   ; prop #1, 7:7
  y = 7 / x                             ; 7:3
  goto bb1                              ; 8:3
bb1:
  check uninit y                        ; prop #2, 8:10
  check uninit x                        ; prop #3, 8:16
  %0 = f(x)                             ; 8:14
  %1 = y < %0                           ; 8:10
  branch %1 ? bb2 : bb3                 ; 8:10
bb2:
  check uninit y                        ; prop #4, 8:26
  y = y + 1                             ; 8:22
  goto bb1                              ; 8:3
bb3:
  check uninit y                        ; prop #5, 9:10
  return y                              ; 9:3
"
        );
    }

    #[test]
    fn module_paragraphs_and_long_lines() {
        let text = "main() { var r; r = {alpha: 1, beta: 2, gamma: 3, delta: 4}; return 0; }";
        let module = crate::test_support::lower_ok(text);
        let out = super::print_module(&module, &symex_syntax::span::LineIndex::new(text));
        assert!(out.contains("  r = {alpha: 1, beta: 2, delta: 4, gamma: 3} ; 1:17\n"));
        let two = "f() { return 1; } main() { return f(); }";
        let module = crate::test_support::lower_ok(two);
        let out = super::print_module(&module, &symex_syntax::span::LineIndex::new(two));
        assert!(out.contains("1:7\n\nfn main()\n"));
    }
}
