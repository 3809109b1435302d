//! The check's resource limits (`--timeout`, `--max-memory`) as one value that every engine
//! polls inside each loop whose work grows with the program or the bound: graph building and
//! unwinding, substitution, formula construction, and between solver calls (a solver call itself
//! gets [`Budget::remaining`] as its own limit).
//!
//! Polling is cheap enough for inner loops: the clock on every call, the process's resident
//! memory at most once per [`MEMORY_POLL`]. A budget decides nothing about a property: an engine
//! that finds it spent stops and records the returned [`Cut`], which keeps every undecided
//! property `unknown` (never `safe`).
//!
//! Without `--max-memory`, the limit is [`default_memory_limit_mib`] (a share of the machine's
//! memory), so a run that grows without bound ends with a report, not with the kernel's OOM
//! killer or a failed allocation (the `symex` binary's allocator turns one that fails anyway
//! into a message and exit code 30).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use symex_report::Cut;

/// The longest time between two readings of the resident memory.
pub const MEMORY_POLL: Duration = Duration::from_millis(10);

/// The share of the machine's memory (in percent) that a check may use without `--max-memory`.
const DEFAULT_MEMORY_PERCENT: u64 = 75;

/// The time and memory a check may spend, from the moment it started.
#[derive(Debug)]
pub struct Budget {
    start: Instant,
    timeout: Option<Duration>,
    memory_mib: Option<u64>,
    /// Nanoseconds after `start` before which the resident memory is not read again.
    next_memory_poll: AtomicU64,
    /// A reading found the memory limit reached (it stays spent).
    memory_spent: AtomicBool,
}

impl Budget {
    /// A budget of `timeout` and `memory_mib` (the default share of the machine's memory when
    /// `None`) starting at `start`.
    pub fn new(start: Instant, timeout: Option<Duration>, memory_mib: Option<u64>) -> Budget {
        Budget {
            start,
            timeout,
            memory_mib: memory_mib.or_else(default_memory_limit_mib),
            next_memory_poll: AtomicU64::new(0),
            memory_spent: AtomicBool::new(false),
        }
    }

    /// A budget without a time limit (memory as [`Budget::new`]), for internal uses.
    pub fn untimed() -> Budget {
        Budget::new(Instant::now(), None, None)
    }

    /// The time since the check started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// When the time limit runs out, if there is one.
    pub fn deadline(&self) -> Option<Instant> {
        self.timeout.map(|limit| self.start + limit)
    }

    /// The time left before the deadline (zero once it passed); `None` without a time limit.
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline()
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// The limit that has run out, as the cut a report records; `None` while both hold.
    pub fn exhausted(&self) -> Option<Cut> {
        let elapsed = self.start.elapsed();
        if let Some(limit) = self.timeout {
            if elapsed >= limit {
                return Some(Cut::Timeout {
                    ms: limit.as_millis() as u64,
                });
            }
        }
        let mib = self.memory_mib?;
        let spent = Some(Cut::Memory { mib });
        if self.memory_spent.load(Ordering::Relaxed) {
            return spent;
        }
        let now = elapsed.as_nanos() as u64;
        if now < self.next_memory_poll.load(Ordering::Relaxed) {
            return None;
        }
        self.next_memory_poll
            .store(now + MEMORY_POLL.as_nanos() as u64, Ordering::Relaxed);
        if resident_mib().is_some_and(|used| used >= mib) {
            self.memory_spent.store(true, Ordering::Relaxed);
            return spent;
        }
        None
    }

    /// `Err` with the cut of the limit that has run out.
    pub fn check(&self) -> Result<(), Cut> {
        match self.exhausted() {
            Some(cut) => Err(cut),
            None => Ok(()),
        }
    }
}

/// The memory limit of a check without `--max-memory`: 75 % of the machine's memory or of the
/// control group's limit, whichever is smaller (Linux; `None` elsewhere).
pub fn default_memory_limit_mib() -> Option<u64> {
    let total = meminfo_total_mib();
    let group = cgroup_limit_mib();
    let machine = match (total, group) {
        (Some(t), Some(g)) => t.min(g),
        (t, g) => t.or(g)?,
    };
    Some(machine * DEFAULT_MEMORY_PERCENT / 100)
}

/// The process's resident memory in MiB (Linux; `None` elsewhere).
pub fn resident_mib() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096 / (1024 * 1024))
}

/// The process's peak resident memory in KiB (Linux; `None` elsewhere).
pub fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn meminfo_total_mib() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// cgroup v2's `memory.max` of this process's group (`max` means none).
fn cgroup_limit_mib() -> Option<u64> {
    let text = std::fs::read_to_string("/sys/fs/cgroup/memory.max").ok()?;
    let bytes: u64 = text.trim().parse().ok()?;
    Some(bytes / (1024 * 1024))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spent_time_limit_is_a_timeout_cut() {
        let start = Instant::now() - Duration::from_secs(3);
        let budget = Budget::new(start, Some(Duration::from_secs(2)), Some(u64::MAX));
        assert_eq!(budget.exhausted(), Some(Cut::Timeout { ms: 2000 }));
        assert_eq!(budget.remaining(), Some(Duration::ZERO));
        assert!(budget.check().is_err());
    }

    #[test]
    fn a_budget_with_time_left_holds() {
        let budget = Budget::new(
            Instant::now(),
            Some(Duration::from_secs(60)),
            Some(u64::MAX),
        );
        assert_eq!(budget.exhausted(), None);
        assert!(budget
            .remaining()
            .is_some_and(|left| left > Duration::from_secs(50)));
    }

    #[test]
    fn memory_above_the_limit_is_a_memory_cut() {
        if resident_mib().is_none() {
            return; // not Linux: nothing to read
        }
        let budget = Budget::new(Instant::now(), None, Some(0));
        assert_eq!(budget.exhausted(), Some(Cut::Memory { mib: 0 }));
        // Spent for good, also before the next reading is due.
        assert_eq!(budget.exhausted(), Some(Cut::Memory { mib: 0 }));
    }

    #[test]
    fn the_default_memory_limit_is_a_share_of_the_machine() {
        if let (Some(limit), Some(total)) = (default_memory_limit_mib(), meminfo_total_mib()) {
            assert!(limit > 0 && limit < total);
        }
    }
}
