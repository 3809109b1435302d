//! Checks once, before any run, that every id in the module is in range, and precomputes the
//! per-function facts the execution loop needs (which locals live in cells).
//!
//! After [`prepare`] succeeds the execution loop may index functions, blocks, locals and
//! properties directly: this is what makes it panic-free without a range check per access.
//! Nothing here executes the program or judges its types.

use symex_ir::cfg::{
    Check, Function, InstKind, LocalId, Module, Operand, Place, PlaceBase, Projection, Rvalue,
    Terminator,
};

/// Per-function data computed once per module.
#[derive(Clone, Debug)]
pub(crate) struct FunctionInfo {
    /// `cell_backed[l]`: local `l` lives in a memory cell (its address is taken), and its frame
    /// slot holds the pointer to that cell.
    pub(crate) cell_backed: Box<[bool]>,
    pub(crate) has_cell_backed: bool,
}

/// A module the interpreter refuses to run: an id out of range, or a check whose property has a
/// different kind. Only a lowering bug produces one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleError {
    pub function: String,
    pub message: String,
}

impl std::fmt::Display for ModuleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "malformed IR in function `{}`: {}",
            self.function, self.message
        )
    }
}

impl std::error::Error for ModuleError {}

pub(crate) fn prepare(module: &Module) -> Result<Vec<FunctionInfo>, ModuleError> {
    module
        .functions
        .iter()
        .map(|function| {
            let checker = Checker { module, function };
            checker.check().map_err(|message| ModuleError {
                function: function.name.clone(),
                message,
            })?;
            Ok(function_info(function))
        })
        .collect()
}

fn function_info(function: &Function) -> FunctionInfo {
    let mut cell_backed: Box<[bool]> = function.locals.iter().map(|l| l.address_taken).collect();
    // Trust the instructions over the flag: a local whose address is taken must have a cell.
    for inst in function.blocks.iter().flat_map(|b| &b.insts) {
        if let InstKind::Assign {
            value: Rvalue::AddrOf(local),
            ..
        } = inst.kind
        {
            cell_backed[local.index()] = true;
        }
    }
    let has_cell_backed = cell_backed.iter().any(|&b| b);
    FunctionInfo {
        cell_backed,
        has_cell_backed,
    }
}

struct Checker<'m> {
    module: &'m Module,
    function: &'m Function,
}

type Checked = Result<(), String>;

impl Checker<'_> {
    fn check(&self) -> Checked {
        let f = self.function;
        if f.blocks.is_empty() {
            return Err("no blocks".into());
        }
        if f.param_count as usize > f.locals.len() {
            return Err(format!(
                "{} parameters but only {} locals",
                f.param_count,
                f.locals.len()
            ));
        }
        if u32::try_from(f.locals.len()).is_err() {
            return Err("too many locals".into());
        }
        for (b, block) in f.blocks.iter().enumerate() {
            for inst in &block.insts {
                self.inst(&inst.kind)
                    .map_err(|m| format!("block {b}: {m}"))?;
            }
            self.terminator(&block.term)
                .map_err(|m| format!("block {b}: {m}"))?;
        }
        Ok(())
    }

    fn local(&self, local: LocalId) -> Checked {
        if local.index() < self.function.locals.len() {
            Ok(())
        } else {
            Err(format!("local {} out of range", local.0))
        }
    }

    fn operand(&self, op: &Operand) -> Checked {
        match op {
            Operand::Local(l) => self.local(*l),
            Operand::Const(_) | Operand::Const64(_) | Operand::Null => Ok(()),
        }
    }

    fn place(&self, place: &Place) -> Checked {
        match &place.base {
            PlaceBase::Local(l) => self.local(*l)?,
            PlaceBase::Deref(op) => self.operand(op)?,
        }
        for projection in &place.projections {
            match projection {
                Projection::Field(field) if field.index() >= self.module.fields.len() => {
                    return Err(format!("field {} out of range", field.0))
                }
                Projection::Field(_) => {}
                Projection::Index(op) => self.operand(op)?,
            }
        }
        Ok(())
    }

    fn rvalue(&self, rvalue: &Rvalue) -> Checked {
        match rvalue {
            Rvalue::Use(op) | Rvalue::Unary(_, op) | Rvalue::Alloc(op) => self.operand(op),
            Rvalue::Binary(_, a, b) => self.operand(a).and(self.operand(b)),
            Rvalue::AddrOf(l) => self.local(*l),
            Rvalue::Record(fields) => fields.iter().try_for_each(|(field, op)| {
                if field.index() >= self.module.fields.len() {
                    return Err(format!("field {} out of range", field.0));
                }
                self.operand(op)
            }),
            Rvalue::Array(items) | Rvalue::Unreached(items) => {
                items.iter().try_for_each(|op| self.operand(op))
            }
            Rvalue::Read(place) | Rvalue::Len(place) => self.place(place),
            Rvalue::LiveObjects => Ok(()),
        }
    }

    fn inst(&self, kind: &InstKind) -> Checked {
        match kind {
            InstKind::Assign { dst, value } => self.local(*dst).and(self.rvalue(value)),
            InstKind::Store { place, value } => self.place(place).and(self.operand(value)),
            InstKind::Call { dst, func, args } => {
                self.local(*dst)?;
                if func.index() >= self.module.functions.len() {
                    return Err(format!("call of function {} out of range", func.0));
                }
                args.iter().try_for_each(|op| self.operand(op))
            }
            InstKind::Input { dst } => self.local(*dst),
            InstKind::Output(op) | InstKind::Assume(op) => self.operand(op),
            InstKind::Check { check, prop } => {
                let property = self
                    .module
                    .properties
                    .get(prop.index())
                    .ok_or_else(|| format!("property {} out of range", prop.0))?;
                if property.kind != check.kind() {
                    return Err(format!(
                        "check of kind {} names property {} of kind {}",
                        check.kind().name(),
                        prop.0,
                        property.kind.name()
                    ));
                }
                match check {
                    Check::Assert(op)
                    | Check::Condition { holds: op, .. }
                    | Check::NonZero(op)
                    | Check::NonNull(op) => self.operand(op),
                    Check::InBounds { array, index } => self.place(array).and(self.operand(index)),
                    Check::Init(place) => self.place(place),
                    Check::Reach => Ok(()),
                }
            }
        }
    }

    fn terminator(&self, term: &Terminator) -> Checked {
        if let Terminator::Branch { cond, .. } | Terminator::Return(cond) = term {
            self.operand(cond)?;
        }
        match term
            .successors()
            .find(|b| b.index() >= self.function.blocks.len())
        {
            Some(b) => Err(format!("jump to block {} out of range", b.0)),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;
    use symex_ir::cfg::{BlockId, FuncId, PropId, PropertyKind};

    #[test]
    fn accepts_a_well_formed_module() {
        let m = module(vec![function(
            "main",
            0,
            1,
            vec![block(
                vec![assign(0, Rvalue::Use(Operand::Const(1)))],
                Terminator::Return(local(0)),
            )],
        )]);
        let info = prepare(&m).unwrap();
        assert_eq!(&*info[0].cell_backed, &[false]);
    }

    #[test]
    fn rejects_ids_out_of_range() {
        let bad_local = module(vec![function(
            "main",
            0,
            1,
            vec![block(vec![], Terminator::Return(local(3)))],
        )]);
        assert!(prepare(&bad_local).unwrap_err().message.contains("local 3"));

        let bad_block = module(vec![function(
            "main",
            0,
            0,
            vec![block(vec![], Terminator::Goto(BlockId(5)))],
        )]);
        assert!(prepare(&bad_block).unwrap_err().message.contains("block 5"));

        let bad_call = module(vec![function(
            "main",
            0,
            1,
            vec![block(
                vec![inst(InstKind::Call {
                    dst: LocalId(0),
                    func: FuncId(9),
                    args: vec![],
                })],
                Terminator::Return(local(0)),
            )],
        )]);
        assert!(prepare(&bad_call)
            .unwrap_err()
            .message
            .contains("function 9"));

        let no_blocks = module(vec![function("f", 0, 0, vec![])]);
        assert_eq!(prepare(&no_blocks).unwrap_err().function, "f");
    }

    #[test]
    fn rejects_a_check_naming_a_property_of_another_kind() {
        let mut m = module(vec![function(
            "main",
            0,
            0,
            vec![block(
                vec![inst(InstKind::Check {
                    check: Check::NonZero(Operand::Const(1)),
                    prop: PropId(0),
                })],
                Terminator::Return(Operand::Const(0)),
            )],
        )]);
        m.properties.push(property(PropertyKind::Assert));
        assert!(prepare(&m).unwrap_err().message.contains("div-by-zero"));
    }

    #[test]
    fn address_taken_locals_are_cell_backed_even_if_unflagged() {
        let m = module(vec![function(
            "main",
            0,
            2,
            vec![block(
                vec![assign(1, Rvalue::AddrOf(LocalId(0)))],
                Terminator::Return(Operand::Const(0)),
            )],
        )]);
        assert_eq!(&*prepare(&m).unwrap()[0].cell_backed, &[true, false]);
    }
}
