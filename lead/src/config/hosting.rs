//! From the settings to how a review's or a run's actors are started ([`host::setup::Setup`]):
//! one place for the heartbeat each runtime is held to and for opening the remote runtime's
//! worker pool.

use super::Settings;
use host::remote::open_pool;
use host::setup::Setup;
use host::Runtime;
use protocol::chaos::FaultPlan;
use std::time::Duration;

impl Settings {
    /// How actors are started in `runtime` with `faults`: in the remote runtime the process's
    /// worker pool is opened (an error names why it cannot be).
    pub fn hosting(&self, runtime: Runtime, faults: &FaultPlan) -> Result<Setup, String> {
        let sup = &self.supervision;
        // Workers of the remote runtime heartbeat at their own pace (`--heartbeat-ms`, 1 s by
        // default), over a network: they are judged by the slower interval.
        let heartbeat = Duration::from_millis(match runtime {
            Runtime::Remote => sup.heartbeat_interval_ms,
            Runtime::Local | Runtime::Inproc => sup.local_heartbeat_interval_ms,
        });
        let wire = self.wire.wire_config();
        let pool = match runtime {
            Runtime::Remote => {
                let secret = self.wire.secret.as_deref();
                Some(open_pool(
                    &self.review.listen,
                    secret,
                    &wire,
                    heartbeat,
                    faults,
                )?)
            }
            Runtime::Local | Runtime::Inproc => None,
        };
        let exe = std::env::current_exe()
            .map_err(|e| format!("cannot find the retake executable: {e}"))?;
        Ok(Setup {
            runtime,
            exe,
            wire,
            heartbeat,
            faults: faults.clone(),
            pool,
            connect_timeout: Duration::from_millis(sup.connect_timeout_ms),
        })
    }
}
