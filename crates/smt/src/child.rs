//! A child process spoken to line by line, with deadlines on every read.
//!
//! Standard output is read by a thread that sends each line through a channel, so the caller
//! waits with `recv_timeout` and can never hang on a silent child; standard error is drained
//! by another thread into a small buffer kept for error messages. The child runs in its own
//! process group and the whole group is killed on time-out and on drop, so helpers that a
//! wrapper script forked do not outlive it. This module knows nothing of SMT-LIB.

use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Instant;

/// How much of the child's standard error is kept.
const STDERR_KEEP: usize = 4096;

/// Why no line could be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ReadError {
    /// The deadline passed first.
    Timeout,
    /// The child closed its output (exited or crashed); with what is known about it.
    Closed(String),
}

/// A running child process.
pub(crate) struct Child {
    program: String,
    process: std::process::Child,
    stdin: BufWriter<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
    stderr_reader: thread::JoinHandle<()>,
}

impl Child {
    /// Starts `program` with `args` and pipes on all three standard streams.
    pub(crate) fn spawn(program: &str, args: &[String]) -> io::Result<Child> {
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        let mut process = command.spawn()?;
        let missing = |what| io::Error::other(format!("no {what} pipe"));
        let stdin = process.stdin.take().ok_or_else(|| missing("stdin"))?;
        let stdout = process.stdout.take().ok_or_else(|| missing("stdout"))?;
        let stderr_pipe = process.stderr.take().ok_or_else(|| missing("stderr"))?;
        let (tx, lines) = mpsc::channel();
        thread::Builder::new()
            .name("smt-stdout".into())
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                            if tx.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            })?;
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&stderr);
        let stderr_reader = thread::Builder::new()
            .name("smt-stderr".into())
            .spawn(move || {
                let mut pipe = stderr_pipe;
                let mut chunk = [0u8; 1024];
                while let Ok(n) = pipe.read(&mut chunk) {
                    if n == 0 {
                        break;
                    }
                    if let Ok(mut kept) = sink.lock() {
                        if kept.len() < STDERR_KEEP {
                            kept.push_str(&String::from_utf8_lossy(&chunk[..n]));
                        }
                    }
                }
            })?;
        Ok(Child {
            program: program.to_string(),
            process,
            stdin: BufWriter::new(stdin),
            lines,
            stderr,
            stderr_reader,
        })
    }

    /// Queues `text` for the child (sent on [`Child::flush`] or when the buffer fills).
    pub(crate) fn write(&mut self, text: &str) -> io::Result<()> {
        self.stdin.write_all(text.as_bytes())
    }

    /// Sends everything queued.
    pub(crate) fn flush(&mut self) -> io::Result<()> {
        self.stdin.flush()
    }

    /// The next line of output, waiting until `deadline` at most (`None`: no limit).
    pub(crate) fn read_line(&mut self, deadline: Option<Instant>) -> Result<String, ReadError> {
        let received = match deadline {
            None => self
                .lines
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
            Some(d) => self
                .lines
                .recv_timeout(d.saturating_duration_since(Instant::now())),
        };
        match received {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(ReadError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(ReadError::Closed(self.describe_exit())),
        }
    }

    /// What is known about the child's end: exit status and the start of its standard error.
    fn describe_exit(&mut self) -> String {
        // The output closed, so the process is ending: give its exit status and the rest of
        // its standard error a moment (bounded: a forked helper may hold the pipes open).
        let deadline = Instant::now() + std::time::Duration::from_secs(1);
        let mut status = None;
        while Instant::now() < deadline {
            if status.is_none() {
                status = self.process.try_wait().ok().flatten();
            }
            if status.is_some() && self.stderr_reader.is_finished() {
                break;
            }
            thread::sleep(std::time::Duration::from_millis(2));
        }
        let mut text = match status {
            Some(s) => format!("`{}` exited ({s})", self.program),
            None => format!("`{}` closed its output", self.program),
        };
        let err = self
            .stderr
            .lock()
            .map(|s| s.trim().to_string())
            .unwrap_or_default();
        if !err.is_empty() {
            text.push_str(": ");
            text.push_str(&crate::sexp::clip(&err));
        }
        text
    }

    /// Kills the child (and its process group) and reaps it.
    pub(crate) fn kill(&mut self) {
        #[cfg(unix)]
        {
            extern "C" {
                fn kill(pid: i32, sig: i32) -> i32;
            }
            const SIGKILL: i32 = 9;
            if let Ok(pid) = i32::try_from(self.process.id()) {
                // SAFETY: signals the process group that `spawn` created for this child
                // (its id is the child's pid); no memory is involved.
                unsafe { kill(-pid, SIGKILL) };
            }
        }
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn sh(script: &str) -> Child {
        Child::spawn("sh", &["-c".to_string(), script.to_string()]).expect("sh runs")
    }

    #[test]
    fn reads_lines_and_sees_the_end() {
        let mut c = sh("read x; echo got $x; echo oops >&2; exit 3");
        c.write("hello\n").expect("write");
        c.flush().expect("flush");
        let deadline = Some(Instant::now() + Duration::from_secs(5));
        assert_eq!(c.read_line(deadline), Ok("got hello".to_string()));
        match c.read_line(deadline) {
            Err(ReadError::Closed(why)) => {
                assert!(why.contains("exit status: 3"), "{why}");
                assert!(why.contains("oops"), "{why}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn times_out_on_a_silent_child() {
        let mut c = sh("sleep 30");
        let start = Instant::now();
        let r = c.read_line(Some(Instant::now() + Duration::from_millis(100)));
        assert_eq!(r, Err(ReadError::Timeout));
        c.kill();
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn missing_programs_fail_to_spawn() {
        assert!(Child::spawn("/nonexistent/solver-binary", &[]).is_err());
    }
}
