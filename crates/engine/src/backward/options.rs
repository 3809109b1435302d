//! The backward engine's own options (`--bse-variant`, `--target`, `--reach`, `--unwind` default), apart from
//! the shared [`crate::CheckOptions`].
//!
//! Plain data with `FromStr` for the command line's names; nothing here runs a search.

use std::fmt;
use std::str::FromStr;

/// The unwinding and inlining bound used when `--unwind` is not given: the backward search needs
/// an acyclic graph, so some bound always applies (and any cut it makes is reported).
pub const DEFAULT_UNWIND: u32 = 4;

/// Which of the six algorithms of the paper's Table 3 runs (`--bse-variant`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BseVariant {
    /// Disjunct propagation, a state is a set of disjuncts simplified one by one.
    DisjSet,
    /// Disjunct propagation, a state is one disjunction term.
    DisjZ3,
    /// Disjunct propagation, a set whose merges become one disjunction item.
    DisjComb,
    /// Conjunct combination, the solver is called only at the entry (the fastest in Table 3).
    #[default]
    ConjNever,
    /// Conjunct combination, the solver is called at every node.
    ConjAlways,
    /// Conjunct combination, the solver is called at (unwound) loop headers and the entry.
    ConjLoops,
}

impl BseVariant {
    pub const ALL: [BseVariant; 6] = [
        BseVariant::DisjSet,
        BseVariant::DisjZ3,
        BseVariant::DisjComb,
        BseVariant::ConjNever,
        BseVariant::ConjAlways,
        BseVariant::ConjLoops,
    ];

    /// The `--bse-variant` name.
    pub fn name(self) -> &'static str {
        match self {
            BseVariant::DisjSet => "disj-set",
            BseVariant::DisjZ3 => "disj-z3",
            BseVariant::DisjComb => "disj-comb",
            BseVariant::ConjNever => "conj-never",
            BseVariant::ConjAlways => "conj-always",
            BseVariant::ConjLoops => "conj-loops",
        }
    }

    /// The name in the paper's Table 3.
    pub fn paper_name(self) -> &'static str {
        match self {
            BseVariant::DisjSet => "Disj_Set",
            BseVariant::DisjZ3 => "Disj_Z3",
            BseVariant::DisjComb => "Disj_Comb",
            BseVariant::ConjNever => "Conj_Never",
            BseVariant::ConjAlways => "Conj_Always",
            BseVariant::ConjLoops => "Conj_Loops",
        }
    }

    pub fn is_disjunct_propagation(self) -> bool {
        matches!(
            self,
            BseVariant::DisjSet | BseVariant::DisjZ3 | BseVariant::DisjComb
        )
    }
}

impl fmt::Display for BseVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BseVariant {
    type Err = String;

    fn from_str(s: &str) -> Result<BseVariant, String> {
        BseVariant::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = BseVariant::ALL.iter().map(|v| v.name()).collect();
                format!(
                    "unknown backward variant `{s}` (expected one of: {})",
                    names.join(", ")
                )
            })
    }
}

/// Where the backward search starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Target {
    /// Every property of the module in turn.
    #[default]
    AllProperties,
    /// The properties whose site starts on this line (and column, when given).
    Property { line: u32, column: Option<u32> },
    /// `--reach LINE`: whether a statement of the line is executed (the report holds only this
    /// reach property, see `common::reach`).
    Reach { line: u32 },
}

impl FromStr for Target {
    type Err = String;

    /// `LINE` or `LINE:COL`, both counted from 1.
    fn from_str(s: &str) -> Result<Target, String> {
        let number = |part: &str, what: &str| -> Result<u32, String> {
            match part.parse::<u32>() {
                Ok(n) if n > 0 => Ok(n),
                _ => Err(format!(
                    "bad target `{s}`: the {what} must be a positive number (LINE or LINE:COL)"
                )),
            }
        };
        match s.split_once(':') {
            Some((line, column)) => Ok(Target::Property {
                line: number(line, "line")?,
                column: Some(number(column, "column")?),
            }),
            None => Ok(Target::Property {
                line: number(s, "line")?,
                column: None,
            }),
        }
    }
}

/// What `symex check --engine backward` tells the backward engine besides [`crate::CheckOptions`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BackwardOptions {
    pub variant: BseVariant,
    pub target: Target,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_targets_parse() {
        for v in BseVariant::ALL {
            assert_eq!(v.name().parse::<BseVariant>(), Ok(v));
        }
        assert_eq!(BseVariant::default(), BseVariant::ConjNever);
        assert!("disj"
            .parse::<BseVariant>()
            .unwrap_err()
            .contains("conj-loops"));
        assert_eq!(
            "12".parse::<Target>(),
            Ok(Target::Property {
                line: 12,
                column: None
            })
        );
        assert_eq!(
            "12:7".parse::<Target>(),
            Ok(Target::Property {
                line: 12,
                column: Some(7)
            })
        );
        assert!("0".parse::<Target>().is_err());
        assert!("x:1".parse::<Target>().is_err());
    }
}
