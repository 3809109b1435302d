//! Z3 calls on a thread of their own, so that the caller can stop waiting for them.
//!
//! Z3 4.8.12 does not always stop at its time limit or at an interrupt (`z3_backend.rs`'s
//! module doc: 0.5 s past an interrupt bit-blasting divisions, 47 s past a deadline on nested
//! multiplications). A call that must end by a deadline therefore runs on a thread with
//! everything it uses; past the wait, the caller gives that up, and the thread frees it when
//! Z3 returns (through the `Drop` of the result it sends back). This module only moves work
//! between threads: what a result owns, and who frees it, is the caller's design.

use std::sync::mpsc;
use std::time::Duration;

/// Why [`on_own_thread`] has no result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unfinished {
    /// The work did not run to its end: no thread could start (the work is dropped unrun),
    /// or it panicked.
    NoResult,
    /// The wait ran out and the caller gave the work up: its result is dropped where it ends.
    Abandoned,
}

/// Runs `work` on a new thread called `name` and waits for its result at most `wait`
/// (`None`: as long as it takes). When the wait runs out, `abandon` decides: `true` leaves the
/// result to the thread (dropped there, or by whichever side lets go of the channel last);
/// `false` waits on to the end. While `abandon` runs, the result is not dropped (a result
/// that arrives meanwhile waits in the channel), so whatever the work uses is still alive
/// there.
pub(crate) fn on_own_thread<T: Send + 'static>(
    name: &str,
    wait: Option<Duration>,
    work: impl FnOnce() -> T + Send + 'static,
    abandon: impl FnOnce() -> bool,
) -> Result<T, Unfinished> {
    let (result_tx, result_rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            // A caller that gave up has dropped the receiver: the result is dropped here.
            let _ = result_tx.send(work());
        });
    if spawned.is_err() {
        return Err(Unfinished::NoResult);
    }
    let received = match wait {
        None => result_rx.recv().ok(),
        Some(wait) => match result_rx.recv_timeout(wait) {
            Ok(result) => Some(result),
            Err(mpsc::RecvTimeoutError::Disconnected) => None,
            Err(mpsc::RecvTimeoutError::Timeout) if abandon() => return Err(Unfinished::Abandoned),
            Err(mpsc::RecvTimeoutError::Timeout) => result_rx.recv().ok(),
        },
    };
    received.ok_or(Unfinished::NoResult)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    #[test]
    fn a_result_on_time_comes_back() {
        let answer = on_own_thread("test", Some(Duration::from_secs(10)), || 42, || true);
        assert_eq!(answer, Ok(42));
    }

    /// Counts its drops.
    struct Counted(Arc<AtomicUsize>);

    impl Drop for Counted {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn a_result_given_up_is_dropped_once_by_the_thread() {
        let drops = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&drops);
        let (release_tx, release_rx) = mpsc::channel::<()>();
        let answer = on_own_thread(
            "test",
            Some(Duration::from_millis(10)),
            move || {
                let _ = release_rx.recv();
                Counted(counter)
            },
            || true,
        );
        assert!(matches!(answer, Err(Unfinished::Abandoned)));
        assert_eq!(
            drops.load(Ordering::SeqCst),
            0,
            "dropped before the work ended"
        );
        release_tx.send(()).unwrap();
        let start = std::time::Instant::now();
        while drops.load(Ordering::SeqCst) == 0 {
            assert!(start.elapsed() < Duration::from_secs(10), "never dropped");
            std::thread::sleep(Duration::from_millis(1));
        }
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(drops.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_result_that_ends_while_the_caller_gives_up_lives_until_abandon_returns() {
        let drops = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&drops);
        let (done_tx, done_rx) = mpsc::channel::<()>();
        let (go_tx, go_rx) = mpsc::channel::<()>();
        let seen = Arc::clone(&drops);
        let answer = on_own_thread(
            "test",
            Some(Duration::from_millis(10)),
            move || {
                let _ = go_rx.recv();
                let result = Counted(counter);
                let _ = done_tx.send(());
                result
            },
            || {
                // The work ends (and sends its result) while this runs.
                go_tx.send(()).unwrap();
                done_rx.recv().unwrap();
                std::thread::sleep(Duration::from_millis(20));
                assert_eq!(seen.load(Ordering::SeqCst), 0, "dropped during abandon");
                true
            },
        );
        assert!(matches!(answer, Err(Unfinished::Abandoned)));
        let start = std::time::Instant::now();
        while drops.load(Ordering::SeqCst) == 0 {
            assert!(start.elapsed() < Duration::from_secs(10), "never dropped");
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(drops.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_caller_that_does_not_give_up_waits_to_the_end() {
        let answer = on_own_thread(
            "test",
            Some(Duration::from_millis(1)),
            || {
                std::thread::sleep(Duration::from_millis(50));
                7
            },
            || false,
        );
        assert_eq!(answer, Ok(7));
    }

    #[test]
    fn work_that_panics_has_no_result() {
        let answer: Result<u8, _> = on_own_thread(
            "test",
            Some(Duration::from_secs(10)),
            || panic!("the work fails"),
            || true,
        );
        assert_eq!(answer, Err(Unfinished::NoResult));
    }
}
