//! The one-line status on stderr while a check runs (`options.progress`, set by the CLI only
//! when stderr is a terminal): paths, live states, queries, coverage, elapsed time, refreshed at
//! most four times a second and erased at the end. Nothing here affects the search or the
//! report.

use std::io::Write;
use std::time::{Duration, Instant};

const REFRESH: Duration = Duration::from_millis(250);

pub struct Progress {
    enabled: bool,
    last: Option<Instant>,
}

/// What the status line shows.
pub struct Status {
    pub paths: u64,
    pub live_states: usize,
    pub queries: u64,
    pub coverage: symex_report::Ratio,
    pub elapsed: Duration,
}

impl Progress {
    pub fn new(enabled: bool) -> Progress {
        Progress {
            enabled,
            last: None,
        }
    }

    /// Whether a refresh is due (so that the caller only gathers figures when needed).
    pub fn due(&self) -> bool {
        self.enabled && self.last.is_none_or(|t| t.elapsed() >= REFRESH)
    }

    pub fn show(&mut self, status: &Status) {
        self.last = Some(Instant::now());
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r\x1b[2K[symex] paths {}  states {}  queries {}  coverage {}  {:.1}s",
            status.paths,
            status.live_states,
            status.queries,
            status.coverage,
            status.elapsed.as_secs_f64()
        );
        let _ = err.flush();
    }

    /// Erases the line if one was printed.
    pub fn finish(&mut self) {
        if self.enabled && self.last.is_some() {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
    }
}
