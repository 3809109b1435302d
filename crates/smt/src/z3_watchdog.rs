//! Hard deadlines for in-process Z3 ([`Solver::set_deadline`](crate::Solver::set_deadline)).
//!
//! Z3's `timeout` parameter covers checks only. Asserting a formula (Z3 rewrites it at once) or
//! pushing a scope can take minutes on large formulas, and nothing in them looks at that limit.
//! `Z3_interrupt` cancels whatever a context is doing, from any thread; it also leaves the
//! context cancelled for good, so it must hit only a solver that is past its deadline anyway.
//!
//! One thread for the process (started on first use) sleeps until the earliest deadline of the
//! armed solvers. A solver marks the Z3 calls it makes as *busy*; at its deadline the watchdog
//! marks it *expired* and interrupts it only if it is busy. An expired solver makes no further
//! Z3 call that could be cancelled, for good, even if armed again (it answers `Unknown`
//! instead), and a model read is never interrupted, so a cancelled context is never read. The registry's lock is held while a
//! context is interrupted, and a solver disarms under it before deleting its context.

use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};
use std::time::Instant;

use crate::z3_ffi::{Z3_context, Z3_interrupt};

/// What the watchdog and one solver share.
#[derive(Debug, Default)]
struct Shared {
    /// The solver is inside a Z3 call that may be interrupted.
    busy: bool,
    /// The deadline has passed.
    expired: bool,
}

struct Entry {
    id: u64,
    /// The context, as an address (raw pointers are not `Send`); valid while armed.
    ctx: usize,
    deadline: Instant,
    shared: Arc<Mutex<Shared>>,
}

#[derive(Default)]
struct Registry {
    entries: Vec<Entry>,
    next_id: u64,
}

struct Watchdog {
    registry: Mutex<Registry>,
    wake: Condvar,
}

fn watchdog() -> &'static Watchdog {
    static WATCHDOG: OnceLock<&'static Watchdog> = OnceLock::new();
    WATCHDOG.get_or_init(|| {
        let dog: &'static Watchdog = Box::leak(Box::new(Watchdog {
            registry: Mutex::new(Registry::default()),
            wake: Condvar::new(),
        }));
        // Without the thread, deadlines are not enforced beyond Z3's own time limit.
        let _ = std::thread::Builder::new()
            .name("z3-watchdog".into())
            .spawn(move || dog.run());
        dog
    })
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Nothing panics while holding these locks; a poisoned one still holds consistent data.
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Watchdog {
    fn run(&self) {
        let mut registry = lock(&self.registry);
        loop {
            let now = Instant::now();
            registry.entries.retain(|entry| {
                if entry.deadline > now {
                    return true;
                }
                let mut shared = lock(&entry.shared);
                shared.expired = true;
                if shared.busy {
                    // SAFETY: the context is live while its entry is registered (a solver
                    // disarms under this lock before deleting it), and `Z3_interrupt` may be
                    // called from any thread.
                    unsafe { Z3_interrupt(entry.ctx as Z3_context) };
                }
                false
            });
            registry = match registry.entries.iter().map(|e| e.deadline).min() {
                None => self
                    .wake
                    .wait(registry)
                    .unwrap_or_else(|poisoned| poisoned.into_inner()),
                Some(next) => {
                    let wait = next.saturating_duration_since(Instant::now());
                    self.wake
                        .wait_timeout(registry, wait)
                        .unwrap_or_else(|poisoned| poisoned.into_inner())
                        .0
                }
            };
        }
    }
}

/// One solver's hold on the watchdog: armed with a deadline until dropped.
#[derive(Debug)]
pub struct Watch {
    id: u64,
    deadline: Instant,
    shared: Arc<Mutex<Shared>>,
}

impl Watch {
    /// Arms the watchdog for `ctx` at `deadline`. The caller must drop the watch before it
    /// deletes the context.
    pub fn arm(ctx: Z3_context, deadline: Instant) -> Watch {
        let dog = watchdog();
        let shared = Arc::new(Mutex::new(Shared::default()));
        let mut registry = lock(&dog.registry);
        let id = registry.next_id;
        registry.next_id += 1;
        registry.entries.push(Entry {
            id,
            ctx: ctx as usize,
            deadline,
            shared: Arc::clone(&shared),
        });
        drop(registry);
        dog.wake.notify_one();
        Watch {
            id,
            deadline,
            shared,
        }
    }

    /// The deadline this watch was armed with.
    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    /// Marks the start of an interruptible Z3 call; `false` (and nothing to end) when the
    /// deadline has passed, so the call must not be made.
    pub fn begin(&self) -> bool {
        let mut shared = lock(&self.shared);
        // The clock too: the watchdog may not have run yet (or not be running at all).
        if shared.expired || Instant::now() >= self.deadline {
            shared.expired = true;
            return false;
        }
        shared.busy = true;
        true
    }

    /// Marks the end of the call [`Watch::begin`] allowed; `true` when the deadline passed
    /// during it (the call may have been interrupted: its result is not to be trusted).
    pub fn end(&self) -> bool {
        let mut shared = lock(&self.shared);
        shared.busy = false;
        shared.expired
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let dog = watchdog();
        lock(&dog.registry).entries.retain(|e| e.id != self.id);
    }
}
