//! Durable writes off the hubs' threads. A journal or state write fsyncs a file and its folder,
//! which can take tens of milliseconds on a busy disk; a hub runs on the System arbiter beside
//! every connection's reader and writer, so a write there would hold up every actor's
//! heartbeats. A [`Writer`] runs the writes on one thread of its own, one at a time in the order
//! they were asked for (an append to the timeline never overtakes an earlier one).
//!
//! Two ways to use it: [`Writer::wait`], after which the hub handles nothing else until the write
//! is done and then continues with its result (a report is durable before it is forwarded), and
//! [`Writer::submit`], which returns at once and tells the hub when the write is done
//! ([`Written`]; the hub holds back what must not be said before it); [`Writer::flush`] waits for
//! every write asked before it.

use actix::prelude::*;
use std::io;
use std::sync::{Arc, Mutex, PoisonError};

type Job = Box<dyn FnOnce() + Send>;

/// One job for the writer's thread.
struct Run(Job);

impl Message for Run {
    type Result = ();
}

/// The writer's thread, as a sync actor: it handles its mailbox in order.
struct Thread;

impl Actor for Thread {
    type Context = SyncContext<Self>;
}

impl Handler<Run> for Thread {
    type Result = ();
    fn handle(&mut self, job: Run, _: &mut SyncContext<Self>) {
        (job.0)()
    }
}

/// A submitted write done, for the hub that submitted it: `Err` says what failed.
#[derive(Debug, Message)]
#[rtype(result = "()")]
pub struct Written(pub Result<(), String>);

/// One serial writer thread, stopped when the last clone is dropped.
#[derive(Clone)]
pub struct Writer {
    thread: Addr<Thread>,
    /// The first submitted write that failed, for [`Writer::flush`].
    failed: Arc<Mutex<Option<String>>>,
}

impl std::fmt::Debug for Writer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Writer")
    }
}

impl Writer {
    /// Starts the thread; needs a running actix System.
    pub fn start() -> Writer {
        Writer {
            thread: SyncArbiter::start(1, || Thread),
            failed: Arc::default(),
        }
    }

    /// `write` on the writer's thread, after every write asked before it; the result.
    pub fn run<T: Send + 'static>(
        &self,
        write: impl FnOnce() -> io::Result<T> + Send + 'static,
    ) -> impl std::future::Future<Output = io::Result<T>> + 'static {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let _gone = tx.send(write());
        });
        let sent = self.thread.send(Run(job));
        async move {
            sent.await
                .map_err(|_| io::Error::other("the state writer stopped"))?;
            rx.await
                .map_err(|_| io::Error::other("the state writer stopped"))?
        }
    }

    /// Runs `write`, and then `then` with its result in the actor `ctx` belongs to, which
    /// handles no message and no timer in between: as if it had written on its own thread.
    pub fn wait<A, T>(
        &self,
        ctx: &mut Context<A>,
        write: impl FnOnce() -> io::Result<T> + Send + 'static,
        then: impl FnOnce(&mut A, io::Result<T>, &mut Context<A>) + 'static,
    ) where
        A: Actor<Context = Context<A>>,
        T: Send + 'static,
    {
        let done = actix::fut::wrap_future::<_, A>(self.run(write));
        ctx.wait(done.map(|result, actor, ctx| then(actor, result, ctx)));
    }

    /// Queues `write` and returns; `hub` is told when it is done ([`Written`]), a failure
    /// with `what` before it.
    pub fn submit(
        &self,
        hub: Recipient<Written>,
        what: String,
        write: impl FnOnce() -> io::Result<()> + Send + 'static,
    ) {
        let failed = Arc::clone(&self.failed);
        let job: Job = Box::new(move || {
            let done = write().map_err(|e| {
                let why = format!("{what}: {e}");
                lock(&failed).get_or_insert_with(|| why.clone());
                why
            });
            hub.do_send(Written(done));
        });
        self.thread.do_send(Run(job));
    }

    /// Waits until every write asked before it is done; the first submitted write that failed,
    /// if one did.
    pub fn flush(&self) -> impl std::future::Future<Output = io::Result<()>> + 'static {
        let failed = Arc::clone(&self.failed);
        self.run(move || match lock(&failed).clone() {
            Some(why) => Err(io::Error::other(why)),
            None => Ok(()),
        })
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic while holding the lock leaves an Option behind, still consistent.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write as _;

    /// Records what it was told, in order.
    #[derive(Default)]
    struct Hub {
        seen: Vec<String>,
    }

    impl Actor for Hub {
        type Context = Context<Self>;
    }

    impl Handler<Written> for Hub {
        type Result = ();
        fn handle(&mut self, written: Written, _: &mut Context<Self>) {
            self.seen.push(match written.0 {
                Ok(()) => "ok".into(),
                Err(why) => why,
            });
        }
    }

    /// Journals `.0` and, once it is on disk, records it.
    struct Journal(String, std::path::PathBuf, Writer);

    impl Message for Journal {
        type Result = ();
    }

    impl Handler<Journal> for Hub {
        type Result = ();
        fn handle(&mut self, Journal(line, path, writer): Journal, ctx: &mut Context<Self>) {
            let written = line.clone();
            let write = move || {
                std::thread::sleep(std::time::Duration::from_millis(30));
                let mut f = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)?;
                writeln!(f, "{written}")
            };
            writer.wait(ctx, write, move |hub, result, _| {
                hub.seen.push(format!("{line}: {}", result.is_ok()));
            });
        }
    }

    /// What the hub has seen.
    struct Seen;

    impl Message for Seen {
        type Result = Vec<String>;
    }

    impl Handler<Seen> for Hub {
        type Result = MessageResult<Seen>;
        fn handle(&mut self, _: Seen, _: &mut Context<Self>) -> MessageResult<Seen> {
            MessageResult(self.seen.clone())
        }
    }

    #[test]
    fn writes_land_in_order_and_a_waiting_hub_continues_before_its_next_message() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("timeline");
        let seen = actix::System::new().block_on(async {
            let writer = Writer::start();
            let hub = Hub::default().start();
            for n in 0..5 {
                let (p, w) = (path.clone(), writer.clone());
                hub.do_send(Journal(format!("line {n}"), p, w));
            }
            hub.send(Seen).await.expect("hub")
        });
        let want: Vec<String> = (0..5).map(|n| format!("line {n}: true")).collect();
        assert_eq!(seen, want, "each continuation ran before the next message");
        let text = std::fs::read_to_string(&path).expect("written");
        assert_eq!(text, "line 0\nline 1\nline 2\nline 3\nline 4\n");
    }

    #[test]
    fn submitted_writes_are_told_to_the_hub_in_order_and_a_failure_fails_the_flush() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (seen, flushed) = actix::System::new().block_on(async {
            let writer = Writer::start();
            let hub = Hub::default().start();
            let ok = dir.path().join("ok");
            writer.submit(hub.clone().recipient(), "first".into(), move || {
                std::fs::write(ok, "x")
            });
            let missing = dir.path().join("no/such/folder/file");
            writer.submit(hub.clone().recipient(), "cannot write".into(), move || {
                std::fs::write(missing, "x")
            });
            let flushed = writer.flush().await.map_err(|e| e.to_string());
            // Both were told before the flush answered.
            (hub.send(Seen).await.expect("hub"), flushed)
        });
        assert!(dir.path().join("ok").is_file());
        assert_eq!(seen.len(), 2, "{seen:?}");
        assert_eq!(seen[0], "ok");
        assert!(seen[1].starts_with("cannot write: "), "{seen:?}");
        assert_eq!(flushed, Err(seen[1].clone()));
    }
}
