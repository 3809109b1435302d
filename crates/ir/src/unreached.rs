//! What [`Rvalue::Unreached`](crate::cfg::Rvalue::Unreached) counts: the live heap objects
//! that certainly no chain of pointers from a set of roots reaches (C's memory leaks where
//! `main` returns, the roots being the globals: SV-COMP's `valid-memtrack`), over any memory
//! of cells. A count above 0 is a leak; 0 claims nothing (an object reached may still be lost
//! in C: a pointer in a union member another member overwrote, or in a variable whose block
//! ended, which symex does not end).
//! The interpreter's concrete memory and the forward engine's symbolic one implement
//! [`Cells`]; the count is this one function, so the engine and the replay agree by
//! construction. Nothing here reads a value itself or decides which values are roots.
//!
//! * A cell is a **heap object** by its heap state ([`HEAP_STATE_FIELD`] of its record, or of
//!   its array's first element, as the front end writes them): [`HEAP_LIVE`] is a live one.
//! * The chains pass through every cell but those whose object ended ([`HEAP_FREED`],
//!   [`HEAP_DEAD`]): what such memory held is gone in C.
//! * A live object that no chain reaches is still reachable in C where a pointer to a **part**
//!   of it is (a member whose address is taken lives in a cell of its own, its box). A part is
//!   not a live heap object and its object points to it, so a live object that points
//!   directly to a reached cell that is not a live heap object (its part, or a variable: the
//!   count cannot tell) counts as reached, and so does what it points to.

use crate::cfg::{Module, HEAP_DEAD, HEAP_FREED, HEAP_LIVE, HEAP_STATE_FIELD};
use crate::FieldId;

/// A memory cannot answer: a pointer or a heap state it holds is not one value (a symbolic
/// one, under the forward engine).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unknown;

/// A memory of cells `0..count()`, as the count sees it.
pub trait Cells {
    fn count(&self) -> usize;
    /// The heap state of a cell, `None` where its value has none.
    fn state(&self, cell: usize) -> Result<Option<i32>, Unknown>;
    /// Appends every cell that a pointer inside the cell's value points to.
    fn pointees(&self, cell: usize, out: &mut Vec<usize>) -> Result<(), Unknown>;
}

/// The id of the heap-state field in `module`, if any object has one.
pub fn heap_state_field(module: &Module) -> Option<FieldId> {
    (module.fields.iter())
        .position(|name| name == HEAP_STATE_FIELD)
        .map(|i| FieldId(i as u32))
}

/// How many live heap objects `cells` hold (what [`Rvalue::LiveObjects`](crate::cfg::Rvalue)
/// counts).
pub fn live_objects(cells: &impl Cells) -> Result<i32, Unknown> {
    let mut live = 0;
    for cell in 0..cells.count() {
        live += i32::from(cells.state(cell)? == Some(HEAP_LIVE));
    }
    Ok(live)
}

/// How many live heap objects of `cells` certainly no chain of pointers from `roots` (cells
/// the roots' values point to) reaches. One walk: each cell's state is read once, and the
/// live objects that may own a part are found before it, so reaching the part reaches them.
pub fn unreached(cells: &impl Cells, roots: Vec<usize>) -> Result<i32, Unknown> {
    let count = cells.count();
    let states = (0..count)
        .map(|cell| cells.state(cell))
        .collect::<Result<Vec<_>, _>>()?;
    let live = |cell: usize| states[cell] == Some(HEAP_LIVE);
    // The live objects that point directly to each cell that is no live heap object: the
    // objects it may be a part of (a list item, when the list links its member's box).
    let mut owners: Vec<Vec<usize>> = vec![Vec::new(); count];
    let mut parts = Vec::new();
    for object in (0..count).filter(|&cell| live(cell)) {
        parts.clear();
        cells.pointees(object, &mut parts)?;
        for &part in &parts {
            match states.get(part) {
                None => return Err(Unknown),
                Some(&state) if state != Some(HEAP_LIVE) => owners[part].push(object),
                Some(_) => {}
            }
        }
    }
    let mut reached = vec![false; count];
    let mut work = roots;
    while let Some(cell) = work.pop() {
        match reached.get_mut(cell) {
            Some(seen) if !*seen => *seen = true,
            Some(_) => continue,
            None => return Err(Unknown),
        }
        if !live(cell) {
            work.extend(&owners[cell]);
        }
        // What an ended object held is gone in C.
        if !matches!(states[cell], Some(HEAP_FREED | HEAP_DEAD)) {
            cells.pointees(cell, &mut work)?;
        }
    }
    let lost = (0..count)
        .filter(|&cell| live(cell) && !reached[cell])
        .count();
    Ok(lost as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cells as (heap state, pointees).
    struct Table(Vec<(Option<i32>, Vec<usize>)>);

    impl Cells for Table {
        fn count(&self) -> usize {
            self.0.len()
        }
        fn state(&self, cell: usize) -> Result<Option<i32>, Unknown> {
            Ok(self.0[cell].0)
        }
        fn pointees(&self, cell: usize, out: &mut Vec<usize>) -> Result<(), Unknown> {
            out.extend(&self.0[cell].1);
            Ok(())
        }
    }

    const NOT_HEAP: Option<i32> = Some(0);
    const LIVE: Option<i32> = Some(HEAP_LIVE);

    #[test]
    fn objects_reached_from_the_roots_are_not_lost() {
        // A global (0) points to a list 1 -> 2; 3 is live and nothing points to it.
        let cells = Table(vec![
            (NOT_HEAP, vec![1]),
            (LIVE, vec![2]),
            (LIVE, vec![]),
            (LIVE, vec![1]),
        ]);
        assert_eq!(unreached(&cells, vec![0]), Ok(1));
        assert_eq!(unreached(&cells, vec![0, 3]), Ok(0));
        assert_eq!(unreached(&cells, vec![]), Ok(3));
    }

    #[test]
    fn live_objects_are_counted_whatever_points_to_them() {
        let cells = Table(vec![
            (NOT_HEAP, vec![1]),
            (LIVE, vec![]),
            (Some(HEAP_FREED), vec![]),
            (Some(HEAP_DEAD), vec![]),
            (None, vec![]),
            (LIVE, vec![1]),
        ]);
        assert_eq!(live_objects(&cells), Ok(2));
    }

    #[test]
    fn freed_and_ended_objects_hold_no_pointers() {
        let cells = Table(vec![
            (Some(HEAP_FREED), vec![2]),
            (Some(HEAP_DEAD), vec![2]),
            (LIVE, vec![]),
        ]);
        assert_eq!(unreached(&cells, vec![0, 1]), Ok(1));
    }

    #[test]
    fn an_object_whose_part_is_reached_is_reached_with_what_it_points_to() {
        // Object 1's member box (2) is reached from the global (0); object 3's box (4) is not.
        let cells = Table(vec![
            (NOT_HEAP, vec![2]),
            (LIVE, vec![2]),
            (Some(3), vec![]),
            (LIVE, vec![4]),
            (Some(3), vec![]),
        ]);
        assert_eq!(unreached(&cells, vec![0]), Ok(1));
        // What such an object points to is reached through it (found by a review: a list
        // item linked by its member owns a buffer, which was counted lost).
        let mut owning = Table(cells.0.clone());
        owning.0[1].1.push(5);
        owning.0.push((LIVE, vec![]));
        assert_eq!(unreached(&owning, vec![0]), Ok(1));
        let mut without_pointer = cells;
        without_pointer.0[0].1.clear();
        assert_eq!(unreached(&without_pointer, vec![0]), Ok(2));
    }

    #[test]
    fn a_pointer_to_no_cell_is_unknown() {
        let cells = Table(vec![(NOT_HEAP, vec![7])]);
        assert_eq!(unreached(&cells, vec![0]), Err(Unknown));
    }
}
