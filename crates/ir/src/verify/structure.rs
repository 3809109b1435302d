//! Structural checks: everything that can be judged one instruction at a time (ids in range,
//! shapes, properties), plus the entry block and reachability.

use super::{At, Report};
use crate::analysis::reverse_postorder;
use crate::cfg::*;

pub(super) fn check_properties(module: &Module, errors: &mut Vec<String>) {
    for (i, prop) in module.properties.iter().enumerate() {
        if prop.func.index() >= module.functions.len() {
            errors.push(format!(
                "property #{i}: function {} out of range",
                prop.func.0
            ));
        }
    }
}

pub(super) fn check_function(module: &Module, id: FuncId, func: &Function, report: &mut Report) {
    check_locals(func, report);
    if func.blocks.is_empty() {
        report.function("no blocks (the entry block is required)");
        return;
    }
    let ids = Ids { module, func, id };
    for (b, block) in func.blocks.iter().enumerate() {
        let b = BlockId(b as u32);
        for (i, inst) in block.insts.iter().enumerate() {
            for problem in ids.inst(&inst.kind) {
                report.at(b, At::Inst(i), problem);
            }
        }
        for problem in ids.terminator(&block.term) {
            report.at(b, At::Terminator, problem);
        }
    }
    // Reachability follows jumps: only meaningful once they are all in range.
    if report.count == 0 {
        check_entry_and_reachability(func, report);
    }
}

fn check_locals(func: &Function, report: &mut Report) {
    let params = func.param_count as usize;
    if params > func.locals.len() {
        report.function(format!(
            "param_count {params} exceeds the {} locals",
            func.locals.len()
        ));
        return;
    }
    for (i, local) in func.locals.iter().enumerate() {
        let is_param = local.kind == LocalKind::Param;
        if is_param != (i < params) {
            report.function(format!(
                "local {i} `{}` is {:?} but the first {params} locals must be exactly the parameters",
                local.name, local.kind
            ));
        }
        if local.kind == LocalKind::Temp && local.address_taken {
            report.function(format!(
                "temporary `{}` is marked address-taken",
                local.name
            ));
        }
    }
}

fn check_entry_and_reachability(func: &Function, report: &mut Report) {
    let preds = func.predecessors();
    if !preds[Function::ENTRY.index()].is_empty() {
        report.function(format!(
            "the entry block has predecessors {:?}",
            preds[Function::ENTRY.index()]
        ));
    }
    let mut reachable = vec![false; func.blocks.len()];
    for b in reverse_postorder(func) {
        reachable[b.index()] = true;
    }
    for (b, r) in reachable.iter().enumerate() {
        if !r {
            report.at(
                BlockId(b as u32),
                At::Terminator,
                "block unreachable from the entry",
            );
        }
    }
}

/// Id and shape checks of single instructions; each returns its problems.
struct Ids<'m> {
    module: &'m Module,
    func: &'m Function,
    id: FuncId,
}

impl Ids<'_> {
    fn local(&self, l: LocalId, problems: &mut Vec<String>) {
        if l.index() >= self.func.locals.len() {
            problems.push(format!("local {} out of range", l.0));
        }
    }

    fn operand(&self, op: Operand, problems: &mut Vec<String>) {
        if let Operand::Local(l) = op {
            self.local(l, problems);
        }
    }

    fn place(&self, place: &Place, problems: &mut Vec<String>) {
        match place.base {
            PlaceBase::Local(l) => self.local(l, problems),
            PlaceBase::Deref(p) => self.operand(p, problems),
        }
        for proj in &place.projections {
            match *proj {
                Projection::Field(f) => self.field(f, problems),
                Projection::Index(i) => self.operand(i, problems),
            }
        }
    }

    fn field(&self, f: FieldId, problems: &mut Vec<String>) {
        if f.index() >= self.module.fields.len() {
            problems.push(format!("field {} out of range", f.0));
        }
    }

    fn rvalue(&self, value: &Rvalue, problems: &mut Vec<String>) {
        match value {
            Rvalue::AddrOf(l) => {
                self.local(*l, problems);
                if let Some(info) = self.func.locals.get(l.index()) {
                    if info.kind == LocalKind::Temp {
                        problems.push(format!("address of temporary `{}`", info.name));
                    } else if !info.address_taken {
                        problems.push(format!(
                            "address of `{}`, which is not marked address-taken",
                            info.name
                        ));
                    }
                }
            }
            Rvalue::Record(fields) => {
                for &(f, op) in fields {
                    self.field(f, problems);
                    self.operand(op, problems);
                }
                if fields.windows(2).any(|w| w[0].0 >= w[1].0) {
                    problems.push("record fields not strictly sorted by id".to_string());
                }
            }
            Rvalue::Read(place) | Rvalue::Len(place) => self.place(place, problems),
            _ => value.for_each_operand(|op| self.operand(op, problems)),
        }
    }

    fn inst(&self, kind: &InstKind) -> Vec<String> {
        let mut problems = Vec::new();
        match kind {
            InstKind::Assign { dst, value } => {
                self.local(*dst, &mut problems);
                self.rvalue(value, &mut problems);
            }
            InstKind::Store { place, value } => {
                self.place(place, &mut problems);
                self.operand(*value, &mut problems);
            }
            InstKind::Call { dst, func, args } => {
                self.local(*dst, &mut problems);
                args.iter().for_each(|&a| self.operand(a, &mut problems));
                match self.module.functions.get(func.index()) {
                    None => problems.push(format!("function {} out of range", func.0)),
                    Some(callee) if callee.param_count as usize != args.len() => {
                        problems.push(format!(
                            "call of `{}` with {} arguments, it takes {}",
                            callee.name,
                            args.len(),
                            callee.param_count
                        ))
                    }
                    Some(_) => {}
                }
            }
            InstKind::Input { dst } => self.local(*dst, &mut problems),
            InstKind::Output(op) | InstKind::Assume(op) => self.operand(*op, &mut problems),
            InstKind::Check { check, prop } => {
                match check {
                    Check::InBounds { array, index } => {
                        self.place(array, &mut problems);
                        self.operand(*index, &mut problems);
                    }
                    Check::Init(place) => self.place(place, &mut problems),
                    _ => check.for_each_operand(|op| self.operand(op, &mut problems)),
                }
                match self.module.properties.get(prop.index()) {
                    None => problems.push(format!("property #{} out of range", prop.0)),
                    Some(p) if p.kind != check.kind() => problems.push(format!(
                        "{} check registered as a {} property (#{})",
                        check.kind().name(),
                        p.kind.name(),
                        prop.0
                    )),
                    Some(p) if p.func != self.id => problems.push(format!(
                        "check of property #{} which belongs to function {}",
                        prop.0, p.func.0
                    )),
                    Some(_) => {}
                }
            }
        }
        problems
    }

    fn terminator(&self, term: &Terminator) -> Vec<String> {
        let mut problems = Vec::new();
        if let Some(op) = term.operand() {
            self.operand(op, &mut problems);
        }
        for target in term.successors() {
            if target.index() >= self.func.blocks.len() {
                problems.push(format!("jump to bb{}, out of range", target.0));
            }
        }
        problems
    }
}
