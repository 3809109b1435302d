//! The path dependency automaton of a loop (seed 002 §4.4.2.1, §5.4.4.1) and the periods of its
//! cycles (§4.4.2.4, §5.4.4.2).
//!
//! Vertices are the body paths; an edge p → q exists when, on a general state (every local a
//! fresh symbol), some run of k ≥ 1 iterations of p can be followed by q: the satisfiability of
//! "p at every iteration of 0..k, q at iteration k" (computed, never copied from the thesis's
//! tables, which have typos). The loop is sequential when the automaton has no cycle. A cycle
//! is periodic when a fixed number of iterations of each of its paths, in turn, can repeat:
//! that period becomes one walk (a macro step) whose repetitions are summarized like a single
//! path's. Strongly connected parts that are not one simple cycle (connected cycles), and
//! cycles without a period of at most `MAX_PERIOD` per path, make the loop irregular: left to
//! plain execution. Periods are searched, not read from one model: any period used is exact by
//! construction (the walk's condition says what happens), so a wrong guess costs only a
//! fallback.

use symex_ir::cfg::LocalId;
use symex_smt::{Answer, TermId};

use crate::common::terms::{self, WIDTH};
use crate::error::EngineError;
use crate::forward::machine::Machine;
use crate::forward::summarize::closed::{Atom, ClosedForm};
use crate::forward::summarize::phase::Phase;
use crate::forward::summarize::walk::Slot;

type Result<T> = std::result::Result<T, EngineError>;

/// The largest period tried per path of a cycle.
const MAX_PERIOD: usize = 3;

/// The automaton's edges: `edges[p]` lists the paths that can follow a run of p.
pub fn edges(
    machine: &mut Machine<'_>,
    paths: &[ClosedForm],
    general: &[Option<TermId>],
) -> Result<Vec<Vec<usize>>> {
    let mut edges = vec![Vec::new(); paths.len()];
    let last = machine.store.bv_var("pda.m", WIDTH)?;
    for (p, from) in paths.iter().enumerate() {
        let phase = Phase {
            form: from,
            start: general,
        };
        let run = phase.taken_throughout(&mut machine.store, last)?;
        let after = phase.values_after(&mut machine.store, last)?;
        for (q, to) in paths.iter().enumerate() {
            if p == q {
                continue;
            }
            let next = Phase {
                form: to,
                start: &after,
            }
            .taken_from(&mut machine.store, &after)?;
            let both = machine.store.and_all(&[run, next])?;
            if machine.queries.may_be_true(&machine.store, &[], both)? != Answer::No {
                edges[p].push(q);
            }
        }
    }
    Ok(edges)
}

/// The macro steps of the automaton's cycles: for each cycle, its periodic walk starting at
/// each of its paths; an error message if the loop is irregular.
pub fn cycles(
    machine: &mut Machine<'_>,
    paths: &[ClosedForm],
    slots: &[Slot],
    havoc: &[LocalId],
    edges: &[Vec<usize>],
    general: &[Option<TermId>],
) -> Result<std::result::Result<Vec<ClosedForm>, String>> {
    let mut macros = Vec::new();
    for component in strongly_connected(edges) {
        if component.len() < 2 {
            continue;
        }
        let inner = |p: usize| -> Vec<usize> {
            edges[p]
                .iter()
                .copied()
                .filter(|q| component.contains(q))
                .collect()
        };
        if component.iter().any(|&p| inner(p).len() != 1) {
            return Ok(Err(
                "its path dependency automaton has connected cycles".into()
            ));
        }
        // The cycle in order from its smallest path.
        let mut cycle = vec![component[0]];
        while cycle.len() < component.len() {
            let next = inner(*cycle.last().unwrap_or(&component[0]))[0];
            cycle.push(next);
        }
        match periodic(machine, paths, slots, havoc, &cycle, general)? {
            Some(periods) => {
                for rotation in 0..cycle.len() {
                    let order: Vec<(usize, usize)> = (0..cycle.len())
                        .map(|i| {
                            let at = (rotation + i) % cycle.len();
                            (cycle[at], periods[at])
                        })
                        .collect();
                    if let Ok(form) = ClosedForm::of(unrolled(paths, &order), slots, havoc) {
                        macros.push(form);
                    }
                }
            }
            // A cycle through a path whose `==` test holds at one iteration only (its sides
            // move apart, `if (i == k)`) is gone round once per meeting: its phases are
            // enumerated one by one, as a sequence's are.
            None if cycle
                .iter()
                .any(|&p| paths[p].atoms.iter().any(Atom::meets_once)) => {}
            None => {
                return Ok(Err(
                    "a cycle of its path dependency automaton has no period".into(),
                ))
            }
        }
    }
    Ok(Ok(macros))
}

/// The walk of `order`: each path repeated its number of times.
fn unrolled(
    paths: &[ClosedForm],
    order: &[(usize, usize)],
) -> crate::forward::summarize::walk::Walk {
    let mut walk: Option<crate::forward::summarize::walk::Walk> = None;
    for &(p, times) in order {
        for _ in 0..times {
            let step = &paths[p].walk;
            walk = Some(match walk {
                None => step.clone(),
                Some(w) => w.then(step),
            });
        }
    }
    walk.unwrap_or_else(|| paths[order[0].0].walk.clone())
}

/// The first periods (smallest total first) with which the cycle can run twice in a row.
fn periodic(
    machine: &mut Machine<'_>,
    paths: &[ClosedForm],
    slots: &[Slot],
    havoc: &[LocalId],
    cycle: &[usize],
    general: &[Option<TermId>],
) -> Result<Option<Vec<usize>>> {
    let mut candidates: Vec<Vec<usize>> = vec![Vec::new()];
    for _ in cycle {
        candidates = candidates
            .into_iter()
            .flat_map(|c| {
                (1..=MAX_PERIOD).map(move |a| {
                    let mut c = c.clone();
                    c.push(a);
                    c
                })
            })
            .collect();
    }
    candidates.sort_by_key(|c| (c.iter().sum::<usize>(), c.clone()));
    for periods in candidates {
        let order: Vec<(usize, usize)> =
            cycle.iter().copied().zip(periods.iter().copied()).collect();
        let Ok(form) = ClosedForm::of(unrolled(paths, &order), slots, havoc) else {
            continue;
        };
        let phase = Phase {
            form: &form,
            start: general,
        };
        let second = terms::int_const(&mut machine.store, 1)?;
        let twice = phase.taken_throughout(&mut machine.store, second)?;
        if machine.queries.may_be_true(&machine.store, &[], twice)? == Answer::Yes {
            return Ok(Some(periods));
        }
    }
    Ok(None)
}

/// Tarjan's strongly connected components, each sorted, in a fixed order.
fn strongly_connected(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    struct Tarjan<'e> {
        edges: &'e [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, v: usize) {
            self.index[v] = Some(self.next);
            self.low[v] = self.next;
            self.next += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            for &w in &self.edges[v] {
                match self.index[w] {
                    None => {
                        self.visit(w);
                        self.low[v] = self.low[v].min(self.low[w]);
                    }
                    Some(i) if self.on_stack[w] => self.low[v] = self.low[v].min(i),
                    Some(_) => {}
                }
            }
            if Some(self.low[v]) == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                component.sort_unstable();
                self.out.push(component);
            }
        }
    }
    let n = edges.len();
    let mut t = Tarjan {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if t.index[v].is_none() {
            t.visit(v);
        }
    }
    t.out.sort();
    t.out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_of_a_cycle_and_a_chain() {
        let edges = vec![vec![1, 3], vec![2], vec![1], vec![]];
        assert_eq!(
            strongly_connected(&edges),
            vec![vec![0], vec![1, 2], vec![3]]
        );
    }
}
