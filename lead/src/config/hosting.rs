//! From the settings to how a review's or a run's actors are started: the one reading of the
//! heartbeat each runtime is held to, the wire limits and the remote runtime's listener and
//! secret ([`host::setup::Hosting`]).

use super::Settings;
use host::setup::Hosting;
use std::time::Duration;

impl Settings {
    /// What the settings say about hosting; `.open(runtime, faults)` starts it.
    pub fn hosting(&self) -> Hosting {
        let sup = &self.supervision;
        Hosting {
            remote_heartbeat: Duration::from_millis(sup.heartbeat_interval_ms),
            local_heartbeat: Duration::from_millis(sup.local_heartbeat_interval_ms),
            wire: self.wire.wire_config(),
            listen: self.review.listen.clone(),
            secret: self.wire.secret.clone(),
            connect_timeout: Duration::from_millis(sup.connect_timeout_ms),
        }
    }
}
