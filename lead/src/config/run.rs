//! From the settings to the configuration of the two loops that change a repository: a run's
//! ([`run::config::RunConfig`], for `retake run` and `retake resume`; its review rounds, hosting
//! and supervision are a review's: [`Settings::review_config`]) and a fix session's
//! ([`fix::config::FixConfig`]). The one place that reads `[executor]`, `[loop]` and `[test]`
//! for them.

use super::Settings;
use fix::config::FixConfig;
use run::config::RunConfig;
use std::time::Duration;

impl Settings {
    /// The configuration a run goes with.
    pub fn run_config(&self) -> RunConfig {
        let l = &self.team_loop;
        RunConfig {
            executor: self.executor.spec(),
            executor_key: if self.executor.preset.is_some() {
                "[executor] preset (or fallback)"
            } else {
                "[executor] command"
            },
            test_command: self.test.command.clone(),
            discussion: l.discussion,
            gate: l.gate,
            spec_update: l.spec_update,
            max_attempts: l.max_attempts,
            max_retakes: l.max_retakes,
            runner: l.spec(None, self.test.timeout_secs),
            rules: l.rules.clone(),
            template: l.evaluator.map(|e| e.template_id()),
            prompts: self.agent.roles.clone(),
            review: self.review_config(),
        }
    }
    /// The configuration a fix session goes with.
    pub fn fix_config(&self) -> FixConfig {
        FixConfig {
            executor: self.executor.spec(),
            executor_timeout: Duration::from_secs(self.executor.timeout_secs.max(1)),
            test_command: self.test.command.clone(),
            test_timeout: Duration::from_secs(self.test.timeout_secs.max(1)),
            rules: self.team_loop.rules.clone(),
            prompts: self.agent.roles.clone(),
        }
    }
}
