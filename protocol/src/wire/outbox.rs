//! A cloneable sending handle: many tasks queue envelopes, one writer task seals and sends them
//! in order, so sequence numbers never race. Besides envelopes the queue carries two markers
//! for fault injection: a garbage frame, and an explicit close after everything queued before it.

use super::{LinkWriter, WireError};
use crate::message::Envelope;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// How many envelopes an outbox queues before `send` waits (and `try_send` refuses).
pub const OUTBOX_CAPACITY: usize = 256;

/// A cloneable handle on a connection's writer task; dropping every clone closes the connection.
#[derive(Debug, Clone)]
pub struct Outbox {
    tx: mpsc::Sender<Item>,
}

/// What the writer task does next, in queue order.
// Envelopes are queued by value as before; boxing them would cost an allocation per message
// to save space on two rare markers.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
enum Item {
    Envelope(Envelope),
    Garbage,
    Close,
}

impl Outbox {
    /// Spawns the writer task (on the current tokio runtime) and returns the first handle.
    /// The task ends with `Ok(())` once every handle is dropped, or with the first send error.
    pub fn spawn(writer: LinkWriter) -> (Outbox, JoinHandle<Result<(), WireError>>) {
        let (tx, rx) = mpsc::channel(OUTBOX_CAPACITY);
        (Outbox { tx }, tokio::spawn(run(rx, writer)))
    }

    /// Queues an envelope, waiting while the queue is full; [`WireError::Closed`] once the
    /// writer task has stopped (the connection failed).
    pub async fn send(&self, env: Envelope) -> Result<(), WireError> {
        self.queue(Item::Envelope(env)).await
    }

    /// Fault injection only (`garbage-frame`): queues an unsealed garbage frame, which makes the
    /// peer drop the connection (see [`LinkWriter::send_garbage`]).
    pub async fn send_garbage(&self) -> Result<(), WireError> {
        self.queue(Item::Garbage).await
    }

    /// Closes the connection once everything queued before is sent, even while other handles
    /// live (fault injection's `drop-after`); later sends get [`WireError::Closed`].
    pub async fn close(&self) -> Result<(), WireError> {
        self.queue(Item::Close).await
    }

    async fn queue(&self, item: Item) -> Result<(), WireError> {
        self.tx.send(item).await.map_err(|_| WireError::Closed)
    }

    /// Queues an envelope without waiting: [`WireError::OutboxFull`] when the queue is full
    /// (the envelope is dropped), [`WireError::Closed`] once the writer task has stopped.
    pub fn try_send(&self, env: Envelope) -> Result<(), WireError> {
        self.tx.try_send(Item::Envelope(env)).map_err(|e| match e {
            mpsc::error::TrySendError::Full(_) => WireError::OutboxFull {
                capacity: OUTBOX_CAPACITY,
            },
            mpsc::error::TrySendError::Closed(_) => WireError::Closed,
        })
    }
}

async fn run(mut rx: mpsc::Receiver<Item>, mut writer: LinkWriter) -> Result<(), WireError> {
    while let Some(item) = rx.recv().await {
        let sent = match item {
            Item::Envelope(env) => writer.send(&env).await,
            Item::Garbage => writer.send_garbage().await,
            Item::Close => break,
        };
        if let Err(e) = sent {
            // Refuse further envelopes at once rather than letting senders fill a dead queue.
            rx.close();
            return Err(e);
        }
    }
    rx.close();
    writer.close().await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{Body, Count, Phase, Progress, Unit};
    use crate::wire::{client_handshake, server_handshake, Secret, WireConfig};

    fn progress(from: &str, n: u64) -> Envelope {
        let body = Body::Heartbeat {
            phase: Phase::Inspect,
            progress: Progress::counted(Count::tally(n, Unit::Steps)),
            busy_since_ms: None,
        };
        Envelope::new(from, "lead", body)
    }

    /// The number a [`progress`] heartbeat counted.
    fn counted(body: Body) -> u64 {
        match body {
            Body::Heartbeat {
                progress: Progress {
                    count: Some(count), ..
                },
                ..
            } => count.done,
            other => panic!("unexpected {}", other.name()),
        }
    }

    #[tokio::test]
    async fn two_clones_deliver_everything_and_dropping_them_closes_the_stream() {
        let (a, b) = tokio::io::duplex(64 * 1024);
        let (secret, cfg) = (Secret::generate(), WireConfig::default());
        let (client, server) = tokio::join!(
            client_handshake(a, &secret, "implementer", "implementer-1", &cfg),
            server_handshake(b, &secret, &cfg),
        );
        let (_c_rx, c_tx) = client.unwrap();
        let (_, mut s_rx, _s_tx) = server.unwrap();

        let (outbox, task) = Outbox::spawn(c_tx);
        let other = outbox.clone();
        let first = tokio::spawn(async move {
            for n in 0..50 {
                outbox.send(progress("first", n)).await.unwrap();
            }
        });
        let second = tokio::spawn(async move {
            for n in 0..50 {
                other.try_send(progress("second", n)).unwrap_or(());
                other.send(progress("second", n + 100)).await.unwrap();
            }
        });
        first.await.unwrap();
        second.await.unwrap();

        let mut from_first = Vec::new();
        let mut from_second = 0;
        while let Some(env) = s_rx.recv().await.unwrap() {
            let n = counted(env.body);
            match env.from.as_str() {
                "first" => from_first.push(n),
                _ => from_second += 1,
            }
        }
        assert_eq!(
            from_first,
            (0..50).collect::<Vec<_>>(),
            "one sender's order is kept"
        );
        assert_eq!(from_second, 100);
        assert!(task.await.unwrap().is_ok());
    }

    #[tokio::test]
    async fn a_failed_connection_turns_sends_into_closed() {
        let (a, b) = tokio::io::duplex(64 * 1024);
        let (secret, cfg) = (Secret::generate(), WireConfig::default());
        let (client, server) = tokio::join!(
            client_handshake(a, &secret, "implementer", "implementer-1", &cfg),
            server_handshake(b, &secret, &cfg),
        );
        let (_c_rx, c_tx) = client.unwrap();
        drop(server.unwrap());

        let (outbox, task) = Outbox::spawn(c_tx);
        outbox.send(progress("x", 1)).await.unwrap();
        assert!(matches!(task.await.unwrap(), Err(WireError::Io(_))));
        assert!(matches!(
            outbox.send(progress("x", 2)).await,
            Err(WireError::Closed)
        ));
        assert!(matches!(
            outbox.try_send(progress("x", 3)),
            Err(WireError::Closed)
        ));
    }

    #[tokio::test]
    async fn close_sends_what_was_queued_then_ends_the_stream_while_handles_live() {
        let (a, b) = tokio::io::duplex(64 * 1024);
        let (secret, cfg) = (Secret::generate(), WireConfig::default());
        let (client, server) = tokio::join!(
            client_handshake(a, &secret, "inspector", "inspector-test", &cfg),
            server_handshake(b, &secret, &cfg),
        );
        let (_c_rx, c_tx) = client.unwrap();
        let (_, mut s_rx, _s_tx) = server.unwrap();

        let (outbox, task) = Outbox::spawn(c_tx);
        outbox.send(progress("x", 1)).await.unwrap();
        outbox.send(progress("x", 2)).await.unwrap();
        outbox.close().await.unwrap();
        assert!(task.await.unwrap().is_ok());
        assert!(matches!(
            outbox.send(progress("x", 3)).await,
            Err(WireError::Closed)
        ));
        let mut got = Vec::new();
        while let Some(env) = s_rx.recv().await.unwrap() {
            got.push(counted(env.body));
        }
        assert_eq!(got, [1, 2]);
    }
}
