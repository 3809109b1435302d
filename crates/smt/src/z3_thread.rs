//! Z3 calls on a thread of their own, so that the caller can stop waiting for them.
//!
//! Z3 4.8.12 does not always stop at its time limit or at an interrupt (`z3_backend.rs`'s
//! module doc: 0.5 s past an interrupt bit-blasting divisions, 47 s past a deadline on nested
//! multiplications). A call that must end by a deadline therefore runs on a thread with
//! everything it uses; past the wait, the caller gives that up, and the thread frees it when
//! Z3 returns (through the `Drop` of the result it sends back). This module only moves work
//! between threads: what a result owns, and who frees it, is the caller's design.

use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long each side polls before it sleeps on the channel: the caller for a result, the
/// worker for its next piece. Most checks of a search take tens of microseconds, and so does
/// the engine's work between them; a sleeping thread is woken through the kernel, which cost
/// more than the checks (a loop of 16,000 iterations with one small check each: 55 % of the
/// time in scheduling). A wait this short costs little where the other side takes long.
const POLL: Duration = Duration::from_micros(50);

/// Whether polling can pay: with one core, the other side cannot run while this one polls.
fn polls() -> bool {
    static MANY_CORES: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *MANY_CORES.get_or_init(|| std::thread::available_parallelism().is_ok_and(|n| n.get() > 1))
}

/// The next message of `rx`, polled for [`POLL`] (where [`polls`]) before sleeping until `wait`
/// ends (`None`: as long as it takes).
fn receive<T>(rx: &mpsc::Receiver<T>, wait: Option<Duration>) -> Result<T, mpsc::RecvTimeoutError> {
    let start = Instant::now();
    let poll = wait.map_or(POLL, |wait| wait.min(POLL));
    while polls() {
        match rx.try_recv() {
            Ok(message) => return Ok(message),
            Err(mpsc::TryRecvError::Disconnected) => {
                return Err(mpsc::RecvTimeoutError::Disconnected)
            }
            Err(mpsc::TryRecvError::Empty) if start.elapsed() < poll => std::hint::spin_loop(),
            Err(mpsc::TryRecvError::Empty) => break,
        }
    }
    match wait {
        None => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
        Some(wait) => rx.recv_timeout(wait.saturating_sub(start.elapsed())),
    }
}

/// Why [`Worker::run`] has no result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unfinished {
    /// The work did not run to its end: no thread could start (the work is dropped unrun),
    /// or it panicked.
    NoResult,
    /// The wait ran out and the caller gave the work up: its result is dropped where it ends.
    Abandoned,
}

type Job = Box<dyn FnOnce() + Send>;

/// A thread that runs the work it is given, one piece at a time, and is kept between pieces:
/// a check that needs a thread of its own then does not pay for a new one (its stack mapped
/// and faulted in, and its start and end: on a search that asks the solver a few thousand
/// small questions a second, a fresh thread per check made up a third of the time). A worker
/// whose work was given up is let go (it ends after that work) and the next piece gets a
/// new one.
pub(crate) struct Worker {
    name: &'static str,
    jobs: Option<mpsc::Sender<Job>>,
}

impl Worker {
    /// A worker whose thread, called `name`, starts with its first piece of work.
    pub(crate) fn new(name: &'static str) -> Self {
        Worker { name, jobs: None }
    }

    /// Runs `work` on the worker's thread and waits for its result at most `wait` (`None`: as
    /// long as it takes). When the wait runs out, `abandon` decides: `true` leaves the result
    /// to the thread (dropped there, or by whichever side lets go of the channel last) and
    /// lets the thread go; `false` waits on to the end. While `abandon` runs, the result is
    /// not dropped (a result that arrives meanwhile waits in the channel), so whatever the
    /// work uses is still alive there.
    pub(crate) fn run<T: Send + 'static>(
        &mut self,
        wait: Option<Duration>,
        work: impl FnOnce() -> T + Send + 'static,
        abandon: impl FnOnce() -> bool,
    ) -> Result<T, Unfinished> {
        let (result_tx, result_rx) = mpsc::channel();
        // A caller that gave up has dropped the receiver: the result is dropped on the thread.
        let job: Job = Box::new(move || {
            let _ = result_tx.send(work());
        });
        // A thread that ended (its work panicked) hands the job back: it goes to a new one.
        let job = match &self.jobs {
            Some(jobs) => jobs.send(job).err().map(|mpsc::SendError(job)| job),
            None => Some(job),
        };
        if let Some(job) = job {
            self.jobs = None;
            let (jobs_tx, jobs_rx) = mpsc::channel::<Job>();
            let spawned = std::thread::Builder::new()
                .name(self.name.into())
                .spawn(move || {
                    while let Ok(job) = receive(&jobs_rx, None) {
                        job();
                    }
                });
            if spawned.is_err() || jobs_tx.send(job).is_err() {
                return Err(Unfinished::NoResult);
            }
            self.jobs = Some(jobs_tx);
        }
        let received = match wait {
            None => receive(&result_rx, None).ok(),
            Some(wait) => match receive(&result_rx, Some(wait)) {
                Ok(result) => Some(result),
                Err(mpsc::RecvTimeoutError::Disconnected) => None,
                Err(mpsc::RecvTimeoutError::Timeout) if abandon() => {
                    // The thread is busy with the abandoned work: the next piece needs another.
                    self.jobs = None;
                    return Err(Unfinished::Abandoned);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => result_rx.recv().ok(),
            },
        };
        if received.is_none() {
            // The work panicked, and its thread may not have ended yet: a piece sent to it
            // now would be dropped unrun.
            self.jobs = None;
        }
        received.ok_or(Unfinished::NoResult)
    }
}

/// Runs `work` on a new thread called `name`: [`Worker::run`] on a worker of its own.
pub(crate) fn on_own_thread<T: Send + 'static>(
    name: &'static str,
    wait: Option<Duration>,
    work: impl FnOnce() -> T + Send + 'static,
    abandon: impl FnOnce() -> bool,
) -> Result<T, Unfinished> {
    Worker::new(name).run(wait, work, abandon)
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
    fn a_worker_keeps_its_thread_until_it_gives_work_up() {
        let mut worker = Worker::new("test");
        let wait = Some(Duration::from_secs(10));
        let id = || std::thread::current().id();
        let first = worker.run(wait, id, || true).expect("ran");
        assert_ne!(first, id(), "not on the caller's thread");
        assert_eq!(worker.run(wait, id, || true), Ok(first));
        let (release_tx, release_rx) = mpsc::channel::<()>();
        let given_up = worker.run(
            Some(Duration::from_millis(10)),
            move || release_rx.recv(),
            || true,
        );
        assert!(matches!(given_up, Err(Unfinished::Abandoned)));
        // The thread still waits on the work given up: the next piece runs on a new one.
        let next = worker.run(wait, id, || true).expect("ran");
        assert_ne!(next, first);
        drop(release_tx);
        // A piece that panics ends its thread; the worker goes on with a new one.
        let panicked: Result<u8, _> = worker.run(wait, || panic!("the work fails"), || true);
        assert_eq!(panicked, Err(Unfinished::NoResult));
        assert_eq!(worker.run(wait, || 5, || true), Ok(5));
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
