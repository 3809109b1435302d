//! The degree-counting benchmark of the AskTheCode paper (seed 001, §5): a linked list whose
//! nodes also hold an `other` reference; the program counts each node's in-degree through
//! `other` and asserts that no node has an in-degree greater than both its zero-based index and
//! the parameter `a`. With loops unwound `b` times (lists of at most `b` nodes) the assertion is
//! refutable iff `a + 2 <= b`: node 0 needs `a + 1` other nodes pointing to it.
//!
//! The paper gives no code; this is the digest's reconstruction (self references not counted),
//! the same as the corpus files `bse_degree_counting_*.uc`. Nothing here runs it.

/// The program for parameter `a`; the entry is `degree_counting(head)` and the assertion is on
/// line [`ASSERT_LINE`].
pub fn degree_counting(a: u32) -> String {
    format!(
        "degree_counting(head) {{
  var n, o, i;
  n = head;
  while (n != null) {{
    n->indeg = 0;
    n = n->next;
  }}
  n = head;
  while (n != null) {{
    o = n->other;
    if (o != null && o != n) {{
      o->indeg = o->indeg + 1;
    }}
    n = n->next;
  }}
  n = head;
  i = 0;
  while (n != null) {{
    assert(!(n->indeg > i && n->indeg > {a}));
    n = n->next;
    i = i + 1;
  }}
  return 0;
}}

main() {{
  return 0;
}}
"
    )
}

/// The line of the assertion in [`degree_counting`]'s program.
pub const ASSERT_LINE: u32 = 19;

/// The assertion's column: the line also has null-dereference and initialization checks, and
/// a target of line and column is the assertion alone.
pub const ASSERT_COLUMN: u32 = 5;

/// The paper's rule: refutable (violated within `b` unwindings) iff `a + 2 <= b`.
pub fn refutable(a: u32, b: u32) -> bool {
    a + 2 <= b
}

/// The twelve `(a, b)` rows of the paper's Table 3, in its order.
pub const TABLE3_ROWS: [(u32, u32); 12] = [
    (0, 3),
    (1, 3),
    (2, 3),
    (1, 4),
    (2, 4),
    (3, 4),
    (2, 5),
    (3, 5),
    (4, 5),
    (3, 6),
    (4, 6),
    (5, 6),
];

/// The paper's times in milliseconds per row, columns Disj_Set, Disj_Z3, Disj_Comb, Conj_Never,
/// Conj_Always, Conj_Loops (Intel Core i7, 6 GB; P Table 3).
pub const TABLE3_PAPER_MS: [[u32; 6]; 12] = [
    [298, 775, 668, 18, 55, 20],
    [302, 773, 688, 21, 60, 26],
    [284, 752, 675, 15, 59, 20],
    [2062, 1225, 791, 31, 119, 46],
    [2075, 1152, 822, 43, 121, 53],
    [1949, 874, 754, 25, 115, 32],
    [13334, 1856, 1287, 91, 242, 102],
    [13381, 1947, 1360, 85, 232, 99],
    [13226, 1764, 1125, 40, 246, 50],
    [81282, 4728, 4052, 200, 469, 219],
    [80853, 4566, 4214, 161, 427, 178],
    [80915, 3116, 2364, 62, 390, 78],
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_assertion_is_on_its_line_and_the_rows_follow_the_rule() {
        let program = degree_counting(2);
        let line = program.lines().nth(ASSERT_LINE as usize - 1).unwrap_or("");
        assert!(line.contains("assert(") && line.contains("> 2"), "{line}");
        assert_eq!(line.find("assert("), Some(ASSERT_COLUMN as usize - 1));
        let refutable_rows = TABLE3_ROWS
            .iter()
            .filter(|&&(a, b)| refutable(a, b))
            .count();
        assert_eq!(refutable_rows, 8);
    }
}
