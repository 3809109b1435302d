//! A property's verdict from what an engine found, the same way in every engine: a property no
//! run can fail (every check of it holds by its constant operand,
//! [`symex_ir::cfg::Module::infallible_properties`]) is [`Finding::CannotFail`], so `safe` even
//! when a bound, the time limit or an unmodelled construct cut the search (`x % 2` after a loop
//! the search never leaves needs no search); everything else goes to [`Verdict::conclude`] as
//! found. Nothing here explores or replays.

use symex_ir::cfg::PropId;
use symex_report::{Cuts, Finding, Verdict};

/// The verdict of `prop`; `infallible` is the module's
/// [`symex_ir::cfg::Module::infallible_properties`].
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
