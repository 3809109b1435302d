//! Turns IR locations into report locations: function names and `line:column`.
//!
//! Engines work with [`PropId`], [`FuncId`] and [`Span`]; reports carry names and positions so
//! that they stand alone. A [`Locator`] holds the module and the source's line index and builds
//! [`PropertyReport`]s and [`TraceStep`]s. Nothing here decides a verdict.

use symex_ir::cfg::{FieldId, FuncId, Layout, LocalId, Module, PropId, Width};
use symex_syntax::span::{LineCol, LineIndex, Span};

use crate::property::PropertyReport;
use crate::trace::{Event, TraceStep};
use crate::value::ArgValue;
use crate::verdict::Verdict;

pub struct Locator<'m> {
    module: &'m Module,
    index: LineIndex,
}

impl<'m> Locator<'m> {
    /// `source` is the text `module` was lowered from.
    pub fn new(module: &'m Module, source: &str) -> Locator<'m> {
        Locator {
            module,
            index: LineIndex::new(source),
        }
    }

    /// The function's source name (`?` for an id outside the module).
    pub fn function_name(&self, func: FuncId) -> &'m str {
        self.module
            .functions
            .get(func.index())
            .map_or("?", |f| f.name.as_str())
    }

    /// The source name of `local` in `func` (`?` for an id outside the module).
    pub fn local_name(&self, func: FuncId, local: LocalId) -> &'m str {
        self.module
            .functions
            .get(func.index())
            .and_then(|f| f.locals.get(local.index()))
            .map_or("?", |l| l.name.as_str())
    }

    /// How reports index the array `local` of `func` holds ([`Layout`]).
    pub fn local_layout(&self, func: FuncId, local: LocalId) -> &'m Layout {
        self.module
            .functions
            .get(func.index())
            .and_then(|f| f.locals.get(local.index()))
            .map_or(&Layout::Plain, |l| &l.layout)
    }

    /// `value` as reports show a value of `local` in `func`: a number of a local the front end
    /// reads as unsigned ([`symex_ir::cfg::LocalInfo::unsigned`]) shown unsigned (for 64 bits,
    /// only below 2^63: a report's numbers are 64-bit signed).
    pub fn shown(&self, func: FuncId, local: LocalId, value: ArgValue) -> ArgValue {
        let info =
            (self.module.functions.get(func.index())).and_then(|f| f.locals.get(local.index()));
        match (info, value) {
            (Some(info), ArgValue::Int(n)) if info.unsigned && info.width == Width::W32 => {
                ArgValue::Int(i64::from(n as u32))
            }
            (_, value) => value,
        }
    }

    /// The module whose ids this locator names.
    pub fn module(&self) -> &'m Module {
        self.module
    }

    /// The name of record field `field` (`?` for an id outside the module).
    pub fn field_name(&self, field: FieldId) -> &'m str {
        self.module
            .fields
            .get(field.index())
            .map_or("?", String::as_str)
    }

    /// A trace step at `span` in `func`.
    pub fn step(&self, func: FuncId, span: Span, event: Event) -> TraceStep {
        let at = self.index.start(span);
        TraceStep {
            function: self.function_name(func).to_string(),
            line: at.line,
            column: at.column,
            event,
        }
    }

    /// The line and column where `span` starts.
    pub fn at(&self, span: Span) -> LineCol {
        self.index.start(span)
    }

    /// The report entry for property `prop` (`None` if the module has no such property).
    pub fn property(&self, prop: PropId, verdict: Verdict) -> Option<PropertyReport> {
        let site = self.module.properties.get(prop.index())?;
        let at = self.index.start(site.span);
        Some(PropertyReport {
            kind: site.kind,
            function: self.function_name(site.func).to_string(),
            line: at.line,
            column: at.column,
            span: Some(site.span),
            verdict,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cuts::Cuts;
    use crate::verdict::Finding;
    use symex_ir::cfg::PropertyKind;

    const SOURCE: &str = "f(a) {\n  return 10 / a;\n}\nmain() {\n  return f(input);\n}\n";

    fn module() -> Module {
        let front = symex_syntax::analyze(SOURCE).expect("the test program is valid");
        symex_ir::lower(&front.program)
    }

    #[test]
    fn properties_get_names_and_positions() {
        let module = module();
        let loc = Locator::new(&module, SOURCE);
        let (id, _) = module
            .properties
            .iter()
            .enumerate()
            .find(|(_, p)| p.kind == PropertyKind::DivByZero)
            .expect("the division has a property");
        let prop = PropId(id as u32);
        let safe = Verdict::conclude(prop, Finding::NotReached, &Cuts::new());
        let entry = loc.property(prop, safe).expect("in range");
        assert_eq!(
            (entry.function.as_str(), entry.line, entry.column),
            ("f", 2, 10)
        );
        assert!(entry.span.is_some());
        let none = Verdict::Unknown { reason: "x".into() };
        assert_eq!(loc.property(PropId(999), none), None);
    }

    #[test]
    fn steps_are_located_in_their_function() {
        let module = module();
        let loc = Locator::new(&module, SOURCE);
        let main = FuncId(
            module
                .functions
                .iter()
                .position(|f| f.name == "main")
                .unwrap_or(0) as u32,
        );
        let at = SOURCE.find("input").unwrap_or(0);
        let step = loc.step(
            main,
            Span::new(at, at + 5),
            Event::Input { index: 0, value: 0 },
        );
        assert_eq!(
            (step.function.as_str(), step.line, step.column),
            ("main", 5, 12)
        );
        assert_eq!(loc.function_name(FuncId(77)), "?");
    }
}
