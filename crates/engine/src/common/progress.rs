//! Live figures of a running check (paths, live states, queries, properties decided), which an
//! engine publishes as it goes and a front end may show while it waits (the CLI's progress
//! bar, drawn from another thread). Engines only store relaxed counters here: reading them
//! never affects a search, and a check without a sink stores nothing.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::common::shared::Shared;

/// The figures, each the latest value an engine stored.
#[derive(Debug, Default)]
pub struct Progress {
    paths: AtomicU64,
    states: AtomicU64,
    queries: AtomicU64,
    decided: AtomicU64,
    properties: AtomicU64,
}

/// One reading of [`Progress`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProgressReading {
    /// Paths finished so far.
    pub paths: u64,
    /// States alive now.
    pub states: u64,
    /// Solver queries so far.
    pub queries: u64,
    /// Properties whose verdict is settled.
    pub decided: u64,
    /// Properties of the check (0 while unknown).
    pub properties: u64,
}

impl Progress {
    pub fn read(&self) -> ProgressReading {
        ProgressReading {
            paths: self.paths.load(Ordering::Relaxed),
            states: self.states.load(Ordering::Relaxed),
            queries: self.queries.load(Ordering::Relaxed),
            decided: self.decided.load(Ordering::Relaxed),
            properties: self.properties.load(Ordering::Relaxed),
        }
    }
}

/// Where an engine publishes its figures: a shared [`Progress`], or nowhere (the default).
pub type ProgressSink = Shared<Progress>;

impl ProgressSink {
    /// Stores the figures an engine knows; `None` leaves one as it is.
    pub fn publish(&self, figures: ProgressUpdate) {
        let Some(progress) = self.get() else {
            return;
        };
        let store = |slot: &AtomicU64, value: Option<u64>| {
            if let Some(value) = value {
                slot.store(value, Ordering::Relaxed);
            }
        };
        store(&progress.paths, figures.paths);
        store(&progress.states, figures.states);
        store(&progress.queries, figures.queries);
        store(&progress.decided, figures.decided);
        store(&progress.properties, figures.properties);
    }
}

/// The figures one [`ProgressSink::publish`] stores (the others stay).
#[derive(Clone, Copy, Debug, Default)]
pub struct ProgressUpdate {
    pub paths: Option<u64>,
    pub states: Option<u64>,
    pub queries: Option<u64>,
    pub decided: Option<u64>,
    pub properties: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn published_figures_are_read_and_unset_ones_kept() {
        let progress = Arc::new(Progress::default());
        let sink = ProgressSink::to(progress.clone());
        sink.publish(ProgressUpdate {
            paths: Some(3),
            properties: Some(10),
            ..ProgressUpdate::default()
        });
        sink.publish(ProgressUpdate {
            decided: Some(4),
            ..ProgressUpdate::default()
        });
        let reading = progress.read();
        assert_eq!(
            (reading.paths, reading.decided, reading.properties),
            (3, 4, 10)
        );
        assert_eq!(sink, ProgressSink::to(progress));
        assert_ne!(sink, ProgressSink::default());
        // Nowhere: nothing happens.
        ProgressSink::default().publish(ProgressUpdate::default());
    }
}
