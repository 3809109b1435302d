//! The `symex` binary's global allocator: the system allocator, plus a clear end when an
//! allocation fails. Rust's own reaction is an abort (signal 6, "memory allocation of N bytes
//! failed"); here the process prints what happened and how to avoid it, and exits with the
//! documented code [`Exit::OutOfMemory`].
//!
//! Ordinarily a check never gets here: every engine polls its memory limit (`--max-memory`,
//! by default a share of the machine's memory; `symex_engine::common::budget`) and ends with a
//! report. A failed allocation means one request larger than what is left, faster than the
//! polling could see. Nothing here may allocate.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;

use crate::exit::Exit;

pub struct ReportingAllocator;

// SAFETY: every method forwards to the system allocator with the caller's arguments; a failed
// allocation never returns (it ends the process), which `GlobalAlloc` allows.
unsafe impl GlobalAlloc for ReportingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged (the caller upholds `alloc`'s contract).
        let p = unsafe { System.alloc(layout) };
        if p.is_null() {
            out_of_memory(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as in `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if p.is_null() {
            out_of_memory(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged (the caller upholds `dealloc`'s contract).
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded unchanged (the caller upholds `realloc`'s contract).
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            out_of_memory(new_size);
        }
        p
    }
}

/// Ends the process after a failed allocation of `bytes`, without allocating.
fn out_of_memory(bytes: usize) -> ! {
    // Integer formatting and the unbuffered standard error need no heap.
    let _ = writeln!(
        std::io::stderr(),
        "error: out of memory: an allocation of {bytes} bytes failed, so no report could be \
         written; `--max-memory MB` (or a smaller `--timeout`) stops the check earlier with a report"
    );
    std::process::exit(Exit::OutOfMemory.code())
}
