//! From the settings to a review's configuration ([`review::config::ReviewConfig`]): the one
//! place that reads `[review]`, `[test]`, `[inspector]`, `[rules]`, `[audit]`, `[agent]` and
//! `[supervision]` for a review.

use super::Settings;
use protocol::message::{Backend, InspectOptions};
use protocol::InspectorKind;
use review::config::{ReviewConfig, Supervision};
use std::time::Duration;

impl Settings {
    /// The configuration a review runs with.
    pub fn review_config(&self) -> ReviewConfig {
        let sv = &self.supervision;
        let inspect = InspectOptions {
            test_command: self.test.command.clone(),
            coverage_command: self.test.coverage_command.clone(),
            test_timeout_ms: self.test.timeout_secs * 1000,
            max_file_bytes: self.inspector.max_file_bytes,
            rule_overrides: self.rule_overrides(),
            profile: self.rules.profile,
            linters: self.inspector.linters.clone(),
            cache: self.inspector.cache,
            dimensions: self.review.dimensions.clone(),
            ..InspectOptions::default()
        };
        let backends = InspectorKind::ALL
            .into_iter()
            .map(|kind| {
                let backend = self.backend_for(kind);
                let agent = (backend != Backend::Builtin).then(|| self.agent_spec(kind));
                (kind, (backend, agent))
            })
            .collect();
        ReviewConfig {
            inspect,
            backends,
            agent_budget: self.agent_budget(),
            test_timeout: Duration::from_secs(self.test.timeout_secs),
            audit_budget_ms: self.audit.budget_ms,
            test_failure: self.audit.test_failure,
            supervision: Supervision {
                suspect_after: sv.suspect_after,
                connect_timeout: Duration::from_millis(sv.connect_timeout_ms),
                nudge_timeout: Duration::from_millis(sv.nudge_timeout_ms),
                max_restarts: sv.max_restarts,
                restart_window: Duration::from_secs(sv.restart_window_secs),
                shutdown_grace: Duration::from_millis(sv.shutdown_grace_ms),
                inspect_deadline: Duration::from_secs(sv.inspect_deadline_secs),
                audit_deadline: Duration::from_millis(sv.audit_deadline_ms),
            },
            timeout: Duration::from_secs(self.review.timeout_secs),
            hosting: self.hosting(),
            questions: review::config::Questions {
                timeout: Duration::from_secs(self.review.question_timeout_secs),
                template: self
                    .agent
                    .roles
                    .get(protocol::prompt::Role::Answer)
                    .to_string(),
            },
        }
    }
}
