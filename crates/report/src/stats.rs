//! Search statistics and their `--stats` table.
//!
//! The five required counters are always present; the rest are optional and absent from JSON
//! until an engine measures them, so adding one never changes other engines' output. Counters
//! follow seed 002 §5.3.4: a finished state adds the number of paths it stands for (1, or the
//! sum of its constituents after merging); paths that end in an error are not counted. Nothing
//! here measures anything: engines fill the numbers.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Explored paths that finished without an error (merged states count their constituents).
    pub paths: u64,
    /// Symbolic states created.
    pub states: u64,
    /// Solver queries (satisfiability checks).
    pub queries: u64,
    /// Time spent in the solver, in milliseconds.
    pub solver_ms: u64,
    /// Wall-clock time of the whole check, in milliseconds.
    pub time_ms: u64,
    /// Complete execution traces, for engines that count them apart from paths (POSE-style).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traces: Option<u64>,
    /// Checks that reached the solver (the rest of `queries` was answered by the query
    /// layers: simplification, the cache, model reuse).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solver_calls: Option<u64>,
    /// The solver's work in deterministic units (Z3's `rlimit count`; forward engine with
    /// in-process Z3): unlike `solver_ms`, the same checks count the same on any machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solver_work: Option<u64>,
    /// Queries answered by the cache.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_hits: Option<u64>,
    /// Queries answered `sat` by model reuse.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_hits: Option<u64>,
    /// Microseconds spent computing the query count estimates before the search
    /// (`--merge qce|dynamic`; they take well under a millisecond on small programs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qce_us: Option<u64>,
    /// Functions the query count estimate gave up on (too large or irreducible): states in
    /// them are never merged by `qce`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qce_unestimated: Option<u64>,
    /// The most symbolic states alive at once (forward engine).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_states: Option<u64>,
    /// Queries answered `unsat` by an earlier unsatisfiable question they contain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unsat_subset_hits: Option<u64>,
    /// Times a state was split in two.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forks: Option<u64>,
    /// Pairs of states merged into one (`--merge`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merges: Option<u64>,
    /// States pruned by path subsumption (`--subsume`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subsumed: Option<u64>,
    /// States pruned as equal to one seen before at a loop header (`--match-states`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matched: Option<u64>,
    /// Loop headers whose annotation was proved inductive (`--subsume`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loop_invariants: Option<u64>,
    /// The part of `solver_work` that subsumption spent for nothing: coverage checks that
    /// pruned nothing, invariant attempts that proved nothing (`--subsume` under a time limit,
    /// where its payoff cap counts it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subsume_unpaid_work: Option<u64>,
    /// What cut the whole search short (bounds hit, limits reached; forward engine), whatever
    /// the verdicts say: a property that cannot fail is `safe` even when the search was cut.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub search_cuts: Vec<String>,
    /// The search stopped with states left because every property was decided (forward
    /// engine without `--explore-all`): `paths` and `coverage` count what it explored.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stopped_decided: bool,
    /// Peak resident memory, in KiB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_rss_kb: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coverage: Option<Coverage>,
    /// Loops a summary jumped over at least once (`--summarize`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loops_summarized: Option<u64>,
    /// Loops reached but run by plain execution only (`--summarize`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loops_not_summarized: Option<u64>,
    /// Why each loop reached has no summary (`--summarize`), as `line L: reason`, by line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub loops_refused: Vec<String>,
    /// Verification conditions decided (structural engine: one per property and cut goal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vcs: Option<u64>,
    /// Summary operators expanded one at a time by refinement (structural engine).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refinements: Option<u64>,
    /// Summary operators (side effects of calls in context) defined so far.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summaries_expanded: Option<u64>,
    /// Summary operators created.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summaries_total: Option<u64>,
    /// Nodes of the hash-consed term graph: every term the forward engine built, or the
    /// structural engine's function summaries (the maximally shared graph).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub term_nodes: Option<u64>,
}

/// Instruction and branch coverage of the explored paths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coverage {
    /// IR instructions (terminators included) executed on some explored path.
    pub instructions: Ratio,
    /// Branch directions (two per conditional branch) taken on some explored path.
    pub branches: Ratio,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ratio {
    pub covered: u64,
    pub total: u64,
}

impl std::fmt::Display for Ratio {
    /// `covered/total (p%)` with one decimal, rounded down (so 100% means all of it).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.covered, self.total)?;
        if self.total > 0 {
            let permille = u128::from(self.covered) * 1000 / u128::from(self.total);
            write!(f, " ({}.{}%)", permille / 10, permille % 10)?;
        }
        Ok(())
    }
}

impl Stats {
    /// Zeroes every figure measured on the machine (times and resident memory; the rest of a
    /// report is a function of the program, the options and the seed): for comparing runs.
    pub fn clear_timings(&mut self) {
        self.time_ms = 0;
        self.solver_ms = 0;
        self.qce_us = self.qce_us.map(|_| 0);
        self.peak_rss_kb = self.peak_rss_kb.map(|_| 0);
    }

    /// The `--stats` table: one `name  value` row per measured counter, names aligned.
    pub fn table(&self) -> String {
        let mut rows: Vec<(&str, String)> = vec![
            ("paths explored", self.paths.to_string()),
            ("states", self.states.to_string()),
            ("solver queries", self.queries.to_string()),
            ("solver time", format!("{} ms", self.solver_ms)),
            ("total time", format!("{} ms", self.time_ms)),
        ];
        if let Some(n) = self.peak_states {
            rows.push(("peak live states", n.to_string()));
        }
        if let Some(us) = self.qce_us {
            rows.push(("qce estimates", format!("{:.3} ms", us as f64 / 1000.0)));
        }
        if let Some(n) = self.qce_unestimated {
            rows.push(("qce functions unestimated", n.to_string()));
        }
        if let Some(n) = self.solver_calls {
            rows.push(("solver calls", n.to_string()));
        }
        if let Some(n) = self.solver_work {
            rows.push(("solver work", n.to_string()));
        }
        if let Some(n) = self.cache_hits {
            rows.push(("cache hits", n.to_string()));
        }
        if let Some(n) = self.model_hits {
            rows.push(("model reuse hits", n.to_string()));
        }
        if let Some(n) = self.unsat_subset_hits {
            rows.push(("unsat subset hits", n.to_string()));
        }
        if let Some(traces) = self.traces {
            rows.push(("traces", traces.to_string()));
        }
        if let Some(forks) = self.forks {
            rows.push(("forks", forks.to_string()));
        }
        if let Some(n) = self.merges {
            rows.push(("states merged", n.to_string()));
        }
        if let Some(n) = self.subsumed {
            rows.push(("states subsumed", n.to_string()));
        }
        if let Some(n) = self.matched {
            rows.push(("states matched", n.to_string()));
        }
        if let Some(n) = self.loop_invariants {
            rows.push(("loop invariants", n.to_string()));
        }
        if let Some(n) = self.subsume_unpaid_work {
            rows.push(("subsume unpaid work", n.to_string()));
        }
        if !self.search_cuts.is_empty() {
            rows.push(("search cut", self.search_cuts.join("; ")));
        }
        if self.stopped_decided {
            rows.push((
                "search stopped",
                "every property decided (--explore-all goes on)".to_string(),
            ));
        }
        if let Some(kb) = self.peak_rss_kb {
            rows.push(("peak memory", format!("{kb} KiB")));
        }
        if let Some(coverage) = self.coverage {
            rows.push(("instruction coverage", coverage.instructions.to_string()));
            rows.push(("branch coverage", coverage.branches.to_string()));
        }
        if let Some(n) = self.loops_summarized {
            rows.push(("loops summarized", n.to_string()));
        }
        if let Some(n) = self.loops_not_summarized {
            rows.push(("loops not summarized", n.to_string()));
        }
        if !self.loops_refused.is_empty() {
            rows.push(("loops without summary", self.loops_refused.join("; ")));
        }
        if let Some(n) = self.vcs {
            rows.push(("verification conditions", n.to_string()));
        }
        if let Some(n) = self.refinements {
            rows.push(("refinements", n.to_string()));
        }
        if let (Some(done), Some(all)) = (self.summaries_expanded, self.summaries_total) {
            rows.push(("summaries expanded", format!("{done} of {all}")));
        }
        if let Some(n) = self.term_nodes {
            rows.push(("term nodes", n.to_string()));
        }
        let width = rows.iter().map(|(name, _)| name.len()).max().unwrap_or(0);
        rows.iter()
            .map(|(name, value)| format!("{name:<width$}  {value}\n"))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn required_fields_only_until_measured() {
        let stats = Stats {
            paths: 3,
            states: 7,
            queries: 5,
            solver_ms: 2,
            time_ms: 9,
            ..Stats::default()
        };
        assert_eq!(
            serde_json::to_string(&stats).unwrap(),
            r#"{"paths":3,"states":7,"queries":5,"solver_ms":2,"time_ms":9}"#
        );
        let full = Stats {
            forks: Some(1),
            coverage: Some(Coverage {
                instructions: Ratio {
                    covered: 5,
                    total: 6,
                },
                branches: Ratio {
                    covered: 1,
                    total: 2,
                },
            }),
            ..stats
        };
        let json = serde_json::to_string(&full).unwrap();
        assert!(json.ends_with(
            r#""forks":1,"coverage":{"instructions":{"covered":5,"total":6},"branches":{"covered":1,"total":2}}}"#
        ));
        assert_eq!(serde_json::from_str::<Stats>(&json).unwrap(), full);
    }

    #[test]
    fn table_is_aligned() {
        let stats = Stats {
            paths: 12,
            time_ms: 40,
            peak_rss_kb: Some(2048),
            coverage: Some(Coverage {
                instructions: Ratio {
                    covered: 2,
                    total: 3,
                },
                branches: Ratio::default(),
            }),
            ..Stats::default()
        };
        let expected = "\
paths explored        12
states                0
solver queries        0
solver time           0 ms
total time            40 ms
peak memory           2048 KiB
instruction coverage  2/3 (66.6%)
branch coverage       0/0
";
        assert_eq!(stats.table(), expected);
    }
}
