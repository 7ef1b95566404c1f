//! Accepting Implementers into the team hub: the review's [`crate::review::hub`] does the
//! handshake and the pumping; this says where the team hub's events go.

use super::hub::{Connected, Incoming, Lost, TeamHub};
use crate::review::hub::Hub;
use actix::Addr;
use futures::future::BoxFuture;
use futures::FutureExt as _;
use protocol::wire::Outbox;
use protocol::Envelope;

pub use crate::review::hub::{accept_loop, attach};

impl Hub for Addr<TeamHub> {
    fn connected(&self, name: String, outbox: Outbox) -> BoxFuture<'static, bool> {
        // A hub that is gone took nobody.
        let sent = self.send(Connected { name, outbox });
        sent.map(|taken| taken.unwrap_or(false)).boxed()
    }

    fn incoming(&self, from: String, env: Envelope) {
        self.do_send(Incoming { from, env });
    }

    fn lost(&self, name: String, reason: String) {
        self.do_send(Lost { name, reason });
    }
}
