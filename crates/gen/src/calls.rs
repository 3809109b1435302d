//! Call-heavy programs in the shape of the thesis's Example 6 (seed 004 §4.1.2), for the
//! structural engine's scale benchmarks: a call tree of `depth` levels with `fan_out` calls per
//! inner function, whose leaves run the example's `scale`: an *expensive* pure callee
//! (`init_k`, `callee_lines` lines of products) writes through one pointer, a small *writing*
//! callee (`flip`) negates a negative value in place, and an assertion after `flip` holds by
//! local reasoning alone: whatever `init_k` returns, a negative number negated is not zero.
//!
//! With `bug`, the leaf chosen by the seed asserts `> 0` instead, after an `init` of
//! `3x + 1`: that fails (negating `INT_MIN` gives `INT_MIN`) only for the input -715827883, so
//! finding it needs that callee after all. Every program is deterministic in its parameters and
//! seed, well typed and terminating. Nothing here runs or checks a program.

use std::fmt::Write as _;

use crate::rng::Rng;

/// The shape of a call-heavy program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallTree {
    /// Levels of calls below `main` (1: `main` calls the leaves).
    pub depth: u32,
    /// Calls in each inner function.
    pub fan_out: u32,
    /// Lines of arithmetic in each expensive callee.
    pub callee_lines: u32,
    /// One leaf's assertion can fail.
    pub bug: bool,
}

impl CallTree {
    /// About how many lines [`call_tree_program`] writes.
    pub fn lines(&self) -> u64 {
        let leaves = u64::from(self.fan_out).pow(self.depth);
        let inner: u64 = (0..self.depth)
            .map(|d| u64::from(self.fan_out).pow(d))
            .sum();
        leaves * (u64::from(self.callee_lines) + 16) + inner * (u64::from(self.fan_out) + 5) + 20
    }

    /// A tree of about `lines` lines with this fan-out: of the depths whose callees fill the
    /// size, the one whose callee length is nearest to `callee_lines`.
    pub fn with_lines(lines: u64, fan_out: u32, callee_lines: u32, bug: bool) -> CallTree {
        let fan_out = fan_out.max(1);
        let shape = |depth: u32| {
            let mut tree = CallTree {
                depth,
                fan_out,
                callee_lines: 0,
                bug,
            };
            let leaves = u64::from(fan_out).pow(depth);
            let room = lines.saturating_sub(tree.lines()) / leaves;
            tree.callee_lines = u32::try_from(room).unwrap_or(u32::MAX);
            tree
        };
        (1..=12)
            .map(shape)
            .filter(|t| t.callee_lines > 0 || t.depth == 1)
            .min_by_key(|t| (i64::from(t.callee_lines) - i64::from(callee_lines)).abs())
            .unwrap_or_else(|| shape(1))
    }
}

/// The program of `tree`; `seed` picks the constants and the failing leaf.
pub fn call_tree_program(tree: &CallTree, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let leaves = tree.fan_out.max(1).pow(tree.depth);
    let buggy = tree.bug.then(|| rng.below(u64::from(leaves)) as u32);
    let mut out = String::new();
    out.push_str(
        "flip(data) {\n  var r;\n  r = 0;\n  if (*data < 0) {\n    *data = -(*data);\n    r = 1;\n  }\n  return r;\n}\n\n",
    );
    for leaf in 0..leaves {
        // The expensive callee: irrelevant to the leaf's assertion, except for the buggy leaf.
        let _ = writeln!(out, "init{leaf}(x) {{\n  var r;");
        if Some(leaf) == buggy {
            out.push_str("  r = x * 3 + 1;\n");
        } else {
            out.push_str("  r = x;\n");
            for _ in 0..tree.callee_lines {
                let a = 3 + rng.below(97);
                let b = rng.below(1000);
                let _ = writeln!(out, "  r = r * x + {a} * r - {b};");
            }
        }
        out.push_str("  return r;\n}\n\n");
        let check = if Some(leaf) == buggy { "> 0" } else { "!= 0" };
        let _ = writeln!(
            out,
            "scale{leaf}(g1, g2) {{\n  var r;\n  *g2 = init{leaf}(*g1);\n  r = flip(g2);\n  if (r) {{\n    assert(*g2 {check});\n    *g1 = *g1 / *g2;\n  }}\n  return 0;\n}}\n"
        );
    }
    // Inner levels, bottom up: node{d}_{j} calls the functions of level d + 1.
    for d in (0..tree.depth).rev() {
        let width = tree.fan_out.max(1).pow(d);
        for j in 0..width {
            let _ = writeln!(out, "node{d}_{j}(g1, g2) {{\n  var r;");
            for c in 0..tree.fan_out.max(1) {
                let child = j * tree.fan_out.max(1) + c;
                let callee = if d + 1 == tree.depth {
                    format!("scale{child}")
                } else {
                    format!("node{}_{child}", d + 1)
                };
                let _ = writeln!(out, "  r = {callee}(g1, g2);");
            }
            out.push_str("  return r;\n}\n\n");
        }
    }
    out.push_str(
        "main() {\n  var global1, global2, r;\n  global1 = input;\n  global2 = 0;\n  r = node0_0(&global1, &global2);\n  return global1;\n}\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_are_well_typed_and_about_as_long_as_promised() {
        for tree in [
            CallTree {
                depth: 1,
                fan_out: 1,
                callee_lines: 0,
                bug: false,
            },
            CallTree {
                depth: 2,
                fan_out: 3,
                callee_lines: 10,
                bug: true,
            },
        ] {
            let text = call_tree_program(&tree, 7);
            let front = symex_syntax::analyze(&text).expect("parses");
            assert!(front.types.is_ok(), "{text}");
            let lines = text.lines().count() as u64;
            assert!(
                lines <= tree.lines() && lines * 2 >= tree.lines(),
                "{lines} lines, {} promised",
                tree.lines()
            );
        }
        for target in [1_000, 5_000, 50_000] {
            let tree = CallTree::with_lines(target, 4, 40, false);
            assert!(
                tree.lines().abs_diff(target) * 20 < target,
                "{target}: {tree:?}"
            );
            assert!(tree.callee_lines >= 10, "{target}: {tree:?}");
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_program() {
        let tree = CallTree::with_lines(2_000, 3, 20, true);
        assert_eq!(call_tree_program(&tree, 3), call_tree_program(&tree, 3));
        assert_ne!(call_tree_program(&tree, 3), call_tree_program(&tree, 4));
    }
}
