//! The four verdicts and the one place that decides them.
//!
//! An engine never picks `safe` itself: it reports a [`Finding`] per property and the [`Cuts`] its
//! search met, and [`Verdict::conclude`] applies the two rules that make reports trustworthy:
//! * a property not reached is `safe` only when nothing cut the search; bounds alone give
//!   `safe-up-to K`, any other limit (time, memory, states, solver unknown) gives `unknown`;
//!   a property whose every check holds by its constant operand needs no search (`safe`);
//! * a reached property is `violated` only when the interpreter's replay reproduced it;
//!   otherwise it is an internal error ([`Verdict::Unconfirmed`], status `unknown`), unless the
//!   replay stopped at the interpreter's own limit first (`unknown`: nothing was refuted).
//!
//! `Safe` and `SafeUpTo` are `non_exhaustive` and `Violated` holds a [`Counterexample`], so none of
//! them can be built outside this crate except through `conclude`. Nothing here renders.

use symex_ir::cfg::PropId;

use crate::counterexample::{Counterexample, Replay, Unconfirmed, Witness};
use crate::cuts::Cuts;

/// What a report says about one property.
///
/// Outside this crate, `safe` cannot be claimed directly:
/// ```compile_fail
/// let v = symex_report::Verdict::Safe;
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A confirmed counterexample reaches the property and fails it.
    Violated(Counterexample),
    /// No input reaches it, and nothing cut the search.
    #[non_exhaustive]
    Safe,
    /// No input reaches it within the bound `bound`; `reason` names the bounds that were hit.
    #[non_exhaustive]
    SafeUpTo { bound: u32, reason: String },
    /// Time, memory, the state limit or the solver gave out, or the engine could not decide.
    Unknown { reason: String },
    /// The engine claimed a counterexample that the interpreter does not reproduce: a bug in
    /// symex. Its status is `unknown`; text output prints it as an internal error.
    Unconfirmed(Unconfirmed),
}

/// The `status` of a property in a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    Violated,
    Safe,
    SafeUpTo,
    Unknown,
}

impl Status {
    /// The JSON name: `violated`, `safe`, `safe-up-to`, `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Violated => "violated",
            Status::Safe => "safe",
            Status::SafeUpTo => "safe-up-to",
            Status::Unknown => "unknown",
        }
    }

    pub fn from_name(name: &str) -> Option<Status> {
        [
            Status::Violated,
            Status::Safe,
            Status::SafeUpTo,
            Status::Unknown,
        ]
        .into_iter()
        .find(|s| s.name() == name)
    }
}

/// What an engine found out about one property.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// A path reaches the property and fails it with this witness; `replay` is how the concrete
    /// interpreter ended when it ran the witness.
    Reached { witness: Witness, replay: Replay },
    /// The search ended without reaching it (whether the search was complete is in the cuts).
    NotReached,
    /// The engine could not decide the property, for this reason (an unsupported feature, ...).
    GaveUp { reason: String },
    /// Every check of the property holds by its constant operand (`x % 2`): no run can fail
    /// it, whatever the search explored or left out.
    CannotFail,
}

impl Verdict {
    /// The verdict for property `prop` given what the engine found and what cut its search.
    pub fn conclude(prop: PropId, finding: Finding, cuts: &Cuts) -> Verdict {
        match finding {
            // No bug of the engine's, and no confirmed violation: the search reached the
            // property, but the judge could not run that far.
            Finding::Reached {
                replay: Replay::Limited(limit),
                ..
            } => Verdict::Unknown {
                reason: format!(
                    "a counterexample was found that the interpreter could not replay: {limit}"
                ),
            },
            Finding::Reached { witness, replay } => match witness.confirm(prop, &replay) {
                Ok(cex) => Verdict::Violated(cex),
                Err(unconfirmed) => Verdict::Unconfirmed(unconfirmed),
            },
            Finding::GaveUp { reason } if cuts.is_empty() => Verdict::Unknown { reason },
            Finding::GaveUp { reason } => Verdict::Unknown {
                reason: format!("{reason}, {}", cuts.describe(None)),
            },
            Finding::CannotFail => Verdict::Safe,
            Finding::NotReached if cuts.is_empty() => Verdict::Safe,
            Finding::NotReached => match cuts.first_bound() {
                Some(bound) if cuts.only_bounds() => Verdict::SafeUpTo {
                    bound,
                    reason: cuts.describe(Some(bound)),
                },
                _ => Verdict::Unknown {
                    reason: cuts.describe(None),
                },
            },
        }
    }

    pub fn status(&self) -> Status {
        match self {
            Verdict::Violated(_) => Status::Violated,
            Verdict::Safe => Status::Safe,
            Verdict::SafeUpTo { .. } => Status::SafeUpTo,
            Verdict::Unknown { .. } | Verdict::Unconfirmed(_) => Status::Unknown,
        }
    }

    /// K of `safe-up-to K`.
    pub fn bound(&self) -> Option<u32> {
        match self {
            Verdict::SafeUpTo { bound, .. } => Some(*bound),
            _ => None,
        }
    }

    /// Why the verdict is not `safe` or `violated`.
    pub fn reason(&self) -> Option<&str> {
        match self {
            Verdict::SafeUpTo { reason, .. } | Verdict::Unknown { reason } => Some(reason),
            Verdict::Unconfirmed(u) => Some(u.reason()),
            Verdict::Violated(_) | Verdict::Safe => None,
        }
    }

    /// The counterexample's data and whether it was confirmed (true only for `violated`).
    pub fn witness(&self) -> Option<(&Witness, bool)> {
        match self {
            Verdict::Violated(cex) => Some((cex.witness(), true)),
            Verdict::Unconfirmed(u) => Some((u.witness(), false)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cuts::Cut;

    const P: PropId = PropId(0);

    fn all_cuts() -> Vec<Cut> {
        vec![
            Cut::Unwind(4),
            Cut::Inline(2),
            Cut::Depth(1000),
            Cut::States(50),
            Cut::Timeout { ms: 10 },
            Cut::Memory { mib: 8 },
            Cut::SolverUnknown {
                reason: "incomplete".into(),
            },
        ]
    }

    #[test]
    fn not_reached_is_safe_only_without_cuts() {
        let all = all_cuts();
        for mask in 0u32..(1 << all.len()) {
            let cuts: Cuts = all
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, c)| c.clone())
                .collect();
            let v = Verdict::conclude(P, Finding::NotReached, &cuts);
            if mask == 0 {
                assert_eq!(v, Verdict::Safe);
                continue;
            }
            assert_ne!(v.status(), Status::Safe, "mask {mask:b}");
            let reason = v.reason().unwrap_or_default();
            assert!(!reason.is_empty(), "mask {mask:b}");
            // Bounds alone (the low three bits) allow safe-up-to; any limit makes it unknown.
            let expected = if mask & !0b111 == 0 {
                Status::SafeUpTo
            } else {
                Status::Unknown
            };
            assert_eq!(v.status(), expected, "mask {mask:b}: {reason}");
        }
    }

    #[test]
    fn bounds_give_the_first_bound_and_name_it() {
        let cuts: Cuts = [Cut::Unwind(4)].into_iter().collect();
        let v = Verdict::conclude(P, Finding::NotReached, &cuts);
        assert_eq!(v.bound(), Some(4));
        assert_eq!(v.reason(), Some("loop unwinding bound hit"));
        let cuts: Cuts = [Cut::Depth(30), Cut::Inline(3)].into_iter().collect();
        let v = Verdict::conclude(P, Finding::NotReached, &cuts);
        assert_eq!(v.bound(), Some(3));
        assert_eq!(
            v.reason(),
            Some("inlining depth bound hit, path depth bound 30 hit")
        );
    }

    #[test]
    fn limits_make_unknown_with_every_cut_named() {
        let cuts: Cuts = [Cut::Unwind(4), Cut::Timeout { ms: 30000 }]
            .into_iter()
            .collect();
        let v = Verdict::conclude(P, Finding::NotReached, &cuts);
        assert_eq!(
            v,
            Verdict::Unknown {
                reason: "loop unwinding bound 4 hit, time limit of 30000 ms reached".into()
            }
        );
        assert_eq!(v.bound(), None);
    }

    #[test]
    fn a_violation_needs_a_matching_replay() {
        let witness = Witness {
            inputs: vec![7],
            ..Witness::default()
        };
        let found = Finding::Reached {
            witness: witness.clone(),
            replay: Replay::Failed(P),
        };
        let cuts: Cuts = [Cut::Timeout { ms: 1 }].into_iter().collect();
        let v = Verdict::conclude(P, found, &cuts);
        assert_eq!(v.status(), Status::Violated);
        assert_eq!(v.witness(), Some((&witness, true)));

        let found = Finding::Reached {
            witness: witness.clone(),
            replay: Replay::Other("returned 0".into()),
        };
        let v = Verdict::conclude(P, found, &Cuts::new());
        assert!(matches!(v, Verdict::Unconfirmed(_)));
        assert_eq!(v.status(), Status::Unknown);
        assert_eq!(v.witness(), Some((&witness, false)));
        assert!(v.reason().unwrap_or_default().starts_with("internal error"));

        let found = Finding::Reached {
            witness,
            replay: Replay::Limited("the run hit a limit: call depth".into()),
        };
        let v = Verdict::conclude(P, found, &Cuts::new());
        assert!(matches!(v, Verdict::Unknown { .. }));
        assert!(v.reason().unwrap_or_default().ends_with("call depth"));
    }

    #[test]
    fn giving_up_is_unknown_and_keeps_the_cuts() {
        let v = Verdict::conclude(
            P,
            Finding::GaveUp {
                reason: "recursion is not supported".into(),
            },
            &Cuts::new(),
        );
        assert_eq!(v.reason(), Some("recursion is not supported"));
        let cuts: Cuts = [Cut::States(9)].into_iter().collect();
        let v = Verdict::conclude(P, Finding::GaveUp { reason: "x".into() }, &cuts);
        assert_eq!(v.reason(), Some("x, state limit of 9 reached"));
    }

    #[test]
    fn status_names_round_trip() {
        for s in [
            Status::Violated,
            Status::Safe,
            Status::SafeUpTo,
            Status::Unknown,
        ] {
            assert_eq!(Status::from_name(s.name()), Some(s));
        }
        assert_eq!(Status::from_name("ok"), None);
    }
}
