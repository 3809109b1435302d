//! What cut a search short: the record every engine fills while it explores.
//!
//! An engine calls [`Cuts::hit`] whenever a bound or limit stops some path or the whole search
//! (a loop unwound K times, a call inlined K deep, a path K steps long, the state limit, the time or
//! memory limit, a solver `unknown`). [`crate::Verdict::conclude`] turns a "not reached" finding
//! plus these cuts into `safe`, `safe-up-to` or `unknown`; that rule lives there, not here. The
//! set is ordered, so reasons read the same on every run.

use std::collections::BTreeSet;
use std::fmt;

/// One bound or limit that cut the search. Variants are ordered: bounds first, then limits.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Cut {
    /// Some loop would have been unwound more than K times.
    Unwind(u32),
    /// Some call would have been inlined (or recursion entered) more than K deep.
    Inline(u32),
    /// Some path would have grown past K steps.
    Depth(u32),
    /// Some path would have materialized more than K input-heap objects.
    HeapSize(u32),
    /// Some input reference would have had an access path of more than K fields.
    AccessDepth(u32),
    /// The search stopped after this many states.
    States(u64),
    /// The time limit, in milliseconds, ran out.
    Timeout { ms: u64 },
    /// The memory limit, in MiB, was reached.
    Memory { mib: u64 },
    /// The solver answered `unknown`, with its reason (may be empty).
    SolverUnknown { reason: String },
}

impl Cut {
    /// K for a bound that still lets the engine claim "safe up to K"; `None` for a limit that
    /// leaves the result unknown.
    pub fn bound(&self) -> Option<u32> {
        match *self {
            Cut::Unwind(k)
            | Cut::Inline(k)
            | Cut::Depth(k)
            | Cut::HeapSize(k)
            | Cut::AccessDepth(k) => Some(k),
            _ => None,
        }
    }

    /// The bound's name without its number ("loop unwinding bound"), for bounds only.
    fn bound_name(&self) -> Option<&'static str> {
        match self {
            Cut::Unwind(_) => Some("loop unwinding bound"),
            Cut::Inline(_) => Some("inlining depth bound"),
            Cut::Depth(_) => Some("path depth bound"),
            Cut::HeapSize(_) => Some("input heap size bound"),
            Cut::AccessDepth(_) => Some("access path depth bound"),
            _ => None,
        }
    }

    /// Describes the cut for a verdict that states `bound` itself: a bound equal to it is named
    /// without repeating the number.
    pub(crate) fn describe(&self, bound: Option<u32>) -> String {
        match (self.bound_name(), self.bound()) {
            (Some(name), Some(k)) if Some(k) == bound => format!("{name} hit"),
            _ => self.to_string(),
        }
    }
}

impl fmt::Display for Cut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cut::Unwind(k)
            | Cut::Inline(k)
            | Cut::Depth(k)
            | Cut::HeapSize(k)
            | Cut::AccessDepth(k) => {
                write!(f, "{} {k} hit", self.bound_name().unwrap_or("bound"))
            }
            Cut::States(n) => write!(f, "state limit of {n} reached"),
            Cut::Timeout { ms } => write!(f, "time limit of {ms} ms reached"),
            Cut::Memory { mib } => write!(f, "memory limit of {mib} MiB reached"),
            Cut::SolverUnknown { reason } if reason.is_empty() => {
                f.write_str("the solver answered unknown")
            }
            Cut::SolverUnknown { reason } => write!(f, "the solver answered unknown ({reason})"),
        }
    }
}

/// The set of cuts a search (or the part of it relevant to one property) met.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cuts {
    set: BTreeSet<Cut>,
}

impl Cuts {
    pub fn new() -> Cuts {
        Cuts::default()
    }

    /// Records that `cut` stopped something; recording the same cut again changes nothing.
    pub fn hit(&mut self, cut: Cut) {
        self.set.insert(cut);
    }

    /// Adds every cut of `other` (e.g. a worker's or one query's).
    pub fn merge(&mut self, other: &Cuts) {
        self.set.extend(other.set.iter().cloned());
    }

    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    /// The cuts in their fixed order: bounds (unwind, inline, depth), then limits.
    pub fn iter(&self) -> impl Iterator<Item = &Cut> {
        self.set.iter()
    }

    /// Whether every cut is a bound (so "safe up to K" is still a sound claim).
    pub fn only_bounds(&self) -> bool {
        self.set.iter().all(|c| c.bound().is_some())
    }

    /// The K of "safe up to K": the first bound in order.
    pub fn first_bound(&self) -> Option<u32> {
        self.set.iter().find_map(Cut::bound)
    }

    /// All cuts as one reason, for a verdict that states `bound`.
    pub(crate) fn describe(&self, bound: Option<u32>) -> String {
        let mut parts: Vec<String> = Vec::new();
        for cut in &self.set {
            let text = cut.describe(bound);
            if !parts.contains(&text) {
                parts.push(text);
            }
        }
        parts.join(", ")
    }
}

impl FromIterator<Cut> for Cuts {
    fn from_iter<I: IntoIterator<Item = Cut>>(iter: I) -> Cuts {
        Cuts {
            set: iter.into_iter().collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_are_ordered_and_deduplicated() {
        let mut cuts = Cuts::new();
        cuts.hit(Cut::Timeout { ms: 500 });
        cuts.hit(Cut::Unwind(4));
        cuts.hit(Cut::Unwind(4));
        let other: Cuts = [Cut::Depth(100)].into_iter().collect();
        cuts.merge(&other);
        let order: Vec<&Cut> = cuts.iter().collect();
        assert_eq!(
            order,
            [&Cut::Unwind(4), &Cut::Depth(100), &Cut::Timeout { ms: 500 }]
        );
        assert_eq!(cuts.first_bound(), Some(4));
        assert!(!cuts.only_bounds());
    }

    #[test]
    fn descriptions_name_the_bound_once() {
        let cuts: Cuts = [Cut::Unwind(4), Cut::Depth(100)].into_iter().collect();
        assert!(cuts.only_bounds());
        assert_eq!(
            cuts.describe(Some(4)),
            "loop unwinding bound hit, path depth bound 100 hit"
        );
        assert_eq!(Cut::Inline(2).to_string(), "inlining depth bound 2 hit");
        assert_eq!(Cut::States(10).to_string(), "state limit of 10 reached");
        assert_eq!(
            Cut::Memory { mib: 64 }.to_string(),
            "memory limit of 64 MiB reached"
        );
        assert_eq!(
            Cut::SolverUnknown {
                reason: String::new()
            }
            .to_string(),
            "the solver answered unknown"
        );
        assert_eq!(
            Cut::SolverUnknown {
                reason: "timeout".into()
            }
            .to_string(),
            "the solver answered unknown (timeout)"
        );
    }

    #[test]
    fn no_cuts_means_nothing_to_say() {
        let cuts = Cuts::new();
        assert!(cuts.is_empty() && cuts.only_bounds());
        assert_eq!(cuts.first_bound(), None);
        assert_eq!(cuts.describe(None), "");
    }
}
