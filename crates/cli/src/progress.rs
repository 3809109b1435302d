//! The progress bar of `symex check` on a terminal: the figures the engine publishes (paths,
//! live states, queries, properties decided) and the time left of `--timeout`, redrawn ten
//! times a second on stderr by a thread of its own and erased when the check ends. Never on a
//! pipe or a file, never with `--quiet`: the caller decides. Drawing never touches the check.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use symex_engine::common::progress::{Progress, ProgressReading};

const REDRAW: Duration = Duration::from_millis(100);

/// A bar being drawn; [`Bar::finish`] erases it.
pub struct Bar {
    stop: Arc<AtomicBool>,
    drawer: JoinHandle<()>,
}

impl Bar {
    /// Starts drawing `progress` for a check with this time limit.
    pub fn start(progress: Arc<Progress>, timeout: Option<Duration>) -> Bar {
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let drawer = std::thread::spawn(move || {
            let start = Instant::now();
            let bar = match timeout {
                // The bar fills as the time limit runs out.
                Some(limit) => ProgressBar::new(limit.as_millis() as u64).with_style(
                    ProgressStyle::with_template("{spinner} {bar:24} {msg}")
                        .unwrap_or_else(|_| ProgressStyle::default_bar()),
                ),
                None => ProgressBar::new_spinner().with_style(
                    ProgressStyle::with_template("{spinner} {msg}")
                        .unwrap_or_else(|_| ProgressStyle::default_spinner()),
                ),
            };
            bar.set_draw_target(ProgressDrawTarget::stderr_with_hz(10));
            while !stopped.load(Ordering::Relaxed) {
                let elapsed = start.elapsed();
                bar.set_position(elapsed.as_millis() as u64);
                bar.set_message(status(&progress.read(), elapsed, timeout));
                bar.tick();
                std::thread::sleep(REDRAW);
            }
            bar.finish_and_clear();
        });
        Bar { stop, drawer }
    }

    pub fn finish(self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.drawer.join();
    }
}

/// `paths 120 · states 4 · queries 310 · properties 3/12 · 17.2 s left`.
fn status(reading: &ProgressReading, elapsed: Duration, timeout: Option<Duration>) -> String {
    let mut text = format!(
        "paths {} · states {} · queries {} · properties {}/{}",
        reading.paths, reading.states, reading.queries, reading.decided, reading.properties
    );
    match timeout {
        Some(limit) => {
            let left = limit.saturating_sub(elapsed).as_secs_f64();
            text.push_str(&format!(" · {left:.1} s left"));
        }
        None => text.push_str(&format!(" · {:.1} s", elapsed.as_secs_f64())),
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_status_names_every_figure_and_the_time_left() {
        let reading = ProgressReading {
            paths: 120,
            states: 4,
            queries: 310,
            decided: 3,
            properties: 12,
        };
        let text = status(
            &reading,
            Duration::from_millis(2_800),
            Some(Duration::from_secs(20)),
        );
        assert_eq!(
            text,
            "paths 120 · states 4 · queries 310 · properties 3/12 · 17.2 s left"
        );
        assert!(status(&reading, Duration::from_secs(1), None).ends_with("· 1.0 s"));
    }
}
