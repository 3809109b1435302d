//! Z3 calls on a thread of their own, so that the caller can stop waiting for them.
//!
//! Z3 4.8.12 does not always stop at its time limit or at an interrupt: bit-blasting a check
//! with 176 signed divisions ran 0.8 s past both, a one-shot pipeline 47 s. A call that must
//! end by a deadline therefore runs on a thread with everything it uses; past the wait, the
//! caller gives that up, and the thread frees it when Z3 returns (through the `Drop` of the
//! result it sends back). This module only moves work between threads: what a result owns,
//! and who frees it, is the caller's design.

use std::sync::mpsc;
use std::time::Duration;

/// Runs `work` on a new thread called `name` and waits for its result at most `wait`
/// (`None`: as long as it takes). When the wait runs out, `give_up` decides: `true` leaves the
/// result to the thread (dropped there, or by whichever side lets go of the channel last)
/// and answers `None`; `false` waits on to the end. `None` too when no thread could start
/// (then `work` is dropped unrun).
pub(crate) fn on_own_thread<T: Send + 'static>(
    name: &str,
    wait: Option<Duration>,
    work: impl FnOnce() -> T + Send + 'static,
    give_up: impl FnOnce() -> bool,
) -> Option<T> {
    let (result_tx, result_rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            // A caller that gave up has dropped the receiver: the result is dropped here.
            let _ = result_tx.send(work());
        });
    if spawned.is_err() {
        return None;
    }
    let Some(wait) = wait else {
        return result_rx.recv().ok();
    };
    match result_rx.recv_timeout(wait) {
        Ok(result) => Some(result),
        Err(mpsc::RecvTimeoutError::Disconnected) => None,
        Err(mpsc::RecvTimeoutError::Timeout) if give_up() => None,
        Err(mpsc::RecvTimeoutError::Timeout) => result_rx.recv().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    /// Sets its flag when dropped.
    struct Freed(Arc<AtomicBool>);

    impl Drop for Freed {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }

    #[test]
    fn a_result_on_time_comes_back() {
        let answer = on_own_thread("test", Some(Duration::from_secs(10)), || 42, || true);
        assert_eq!(answer, Some(42));
    }

    #[test]
    fn a_result_given_up_is_freed_by_the_thread() {
        let freed = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&freed);
        let (release_tx, release_rx) = mpsc::channel::<()>();
        let answer = on_own_thread(
            "test",
            Some(Duration::from_millis(10)),
            move || {
                let _ = release_rx.recv();
                Freed(flag)
            },
            || true,
        );
        assert!(answer.is_none());
        assert!(!freed.load(Ordering::SeqCst), "freed before the work ended");
        release_tx.send(()).unwrap();
        let start = std::time::Instant::now();
        while !freed.load(Ordering::SeqCst) {
            assert!(start.elapsed() < Duration::from_secs(10), "never freed");
            std::thread::sleep(Duration::from_millis(1));
        }
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
        assert_eq!(answer, Some(7));
    }
}
