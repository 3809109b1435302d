//! A property's verdict from what an engine found, the same way in every engine: a property no
//! run of the entry can fail ([`cannot_fail`]: every check of it holds by its constant operand,
//! or no call chain from the entry reaches its function) is [`Finding::CannotFail`], so `safe`
//! even when a bound, the time limit or an unmodelled construct cut the search (`x % 2` after a
//! loop the search never leaves needs no search, nor does a function whose every call C's
//! `--inline-calls` replaced); everything else goes to [`Verdict::conclude`] as found. Nothing
//! here explores or replays.

use symex_ir::cfg::{FuncId, Module, PropId};
use symex_report::{Cuts, Finding, Verdict};

/// Per property of `module`: whether no run of `entry` can fail it.
pub fn cannot_fail(module: &Module, entry: FuncId) -> Vec<bool> {
    let mut cannot = module.infallible_properties();
    let reachable = module.functions_reachable_from(entry);
    for (p, property) in module.properties.iter().enumerate() {
        if !reachable[property.func.index()] {
            cannot[p] = true;
        }
    }
    cannot
}

/// The verdict of `prop`; `infallible` is [`cannot_fail`] of the module and entry.
pub fn conclude(infallible: &[bool], prop: PropId, finding: Finding, cuts: &Cuts) -> Verdict {
    let reached = matches!(finding, Finding::Reached { .. });
    let finding = match infallible.get(prop.index()) {
        Some(true) if !reached => Finding::CannotFail,
        _ => finding,
    };
    Verdict::conclude(prop, finding, cuts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use symex_report::{Cut, Status};

    #[test]
    fn an_infallible_property_is_safe_whatever_cut_the_search() {
        let mut cuts = Cuts::new();
        cuts.hit(Cut::Timeout { ms: 1000 });
        let gave_up = || Finding::GaveUp {
            reason: "unsupported".into(),
        };
        for finding in [Finding::NotReached, gave_up()] {
            let verdict = conclude(&[true], PropId(0), finding, &cuts);
            assert_eq!(verdict.status(), Status::Safe);
        }
        let open = conclude(&[false], PropId(0), Finding::NotReached, &cuts);
        assert_eq!(open.status(), Status::Unknown);
    }
}
