//! Running one container scenario: a fresh Compose project over a copy of the repository, the
//! job submitted to its Lead, the actions done at their triggers, the report and journal read,
//! the stack healed (unpaused, reconnected, killed containers started again, every worker back
//! in the pool), then taken down with its volumes — always, whatever happened before.

use super::api::{Api, JobState};
use super::docker::{compose_program, docker, logs, remove, Compose};
use super::run_error::{ActionError, JournalError, NotYet, WholeError};
use super::{claims, registrations, worker_host, Action, Stack, Trigger, Verb, REPO_IN_STACK};
use crate::observed::Observed;
use crate::runner::{copy_for, Execution};
use crate::{io, Scenario, ScenarioError};
use std::time::{Duration, Instant};

/// The environment variable whose value prefixes the Compose project names (default
/// `retake-scenario`); each scenario adds a random suffix.
pub const PROJECT_ENV: &str = "RETAKE_SCENARIO_PROJECT";

/// How long the stack gets to start, and to heal, before that is a failed check.
const STACK_WAIT: Duration = Duration::from_secs(60);
/// How often the job and the Lead's log are looked at.
const POLL: Duration = Duration::from_millis(100);

/// Runs `scenario` in its stack and observes the outcome.
pub fn execute(scenario: &Scenario, stack: &Stack, keep: bool) -> Result<Execution, ScenarioError> {
    let program = compose_program()?;
    let tmp = tempfile::Builder::new()
        .prefix("retake-scenario-")
        .tempdir()
        .map_err(io("cannot create a temporary folder"))?;
    let copy = tmp.path().join("repo");
    copy_for(scenario, &copy)?;
    let mut files = stack.files.clone();
    if !scenario.env.is_empty() {
        // The scenario's configuration reaches the Lead's container through its environment.
        // JSON is YAML, so no YAML writer is needed.
        let env: serde_json::Map<String, serde_json::Value> = scenario
            .env
            .iter()
            .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
            .collect();
        let doc = serde_json::json!({ "services": { "lead": { "environment": env } } });
        let path = tmp.path().join("lead-config.yaml");
        std::fs::write(&path, doc.to_string()).map_err(io("cannot write the Lead's config"))?;
        files.push(path);
    }
    let port = free_port().map_err(io("cannot find a free port for the API"))?;
    let token = hex::encode(rand::random::<[u8; 32]>());
    let compose = Compose {
        program,
        project: project_name(),
        files,
        env: vec![
            ("RETAKE_REPO".into(), copy.display().to_string()),
            (
                "RETAKE_SECRET".into(),
                hex::encode(rand::random::<[u8; 32]>()),
            ),
            ("RETAKE_API_PORT".into(), port.to_string()),
            ("RETAKE_API_TOKEN".into(), token.clone()),
            // The image's user, who owns a fresh state volume (whatever deploy/.env says).
            ("RETAKE_UID".into(), "10001".into()),
            ("RETAKE_GID".into(), "10001".into()),
            // The claims the triggers wait for are logged at info.
            ("RUST_LOG".into(), "info".into()),
        ],
    };
    let scale: Vec<(String, u32)> = stack.scale.iter().map(|(s, n)| (s.clone(), *n)).collect();
    let api = Api::new(port, &token, Duration::from_secs(5));
    let mut run = Run {
        compose: &compose,
        api: &api,
        observed: Observed::default(),
        lead: None,
        healing: Vec::new(),
    };
    eprintln!("  [{}] compose project {}", scenario.name, compose.project);
    run.in_stack(scenario, stack, &scale);
    if let Some(log) = run.lead.as_deref().and_then(|lead| logs(lead).ok()) {
        // Beside the reviewed copy, for `--keep`: what the Lead did, claim by claim.
        let _written = std::fs::write(tmp.path().join("lead.log"), log);
    }
    let down_started = Instant::now();
    if let Err(e) = compose.down(5) {
        run.problem(format!("the stack did not come down: {e}"));
    }
    let left = compose.leftovers();
    remove(&left);
    eprintln!(
        "  [{}] stack down in {:.1} s",
        scenario.name,
        down_started.elapsed().as_secs_f64()
    );
    let mut observed = run.observed;
    observed.leftovers = left;
    let kept = keep.then(|| tmp.keep());
    Ok(Execution { observed, kept })
}

/// One scenario's run against its stack.
struct Run<'a> {
    compose: &'a Compose,
    api: &'a Api,
    observed: Observed,
    /// The Lead's container, once the stack is up.
    lead: Option<String>,
    /// What the actions did that healing undoes: `unpause C`, `connect NET C`.
    healing: Vec<(Verb, String, String)>,
}

impl Run<'_> {
    fn problem(&mut self, message: String) {
        eprintln!("  problem: {message}");
        self.observed.problems.push(message);
    }

    fn in_stack(&mut self, scenario: &Scenario, stack: &Stack, scale: &[(String, u32)]) {
        let started = Instant::now();
        if let Err(e) = self.compose.up(scale) {
            return self.problem(format!("the stack did not start: {e}"));
        }
        if let Err(e) = self.whole(STACK_WAIT) {
            return self.problem(format!("the stack did not start: {e}"));
        }
        eprintln!(
            "  [{}] stack up in {:.1} s",
            scenario.name,
            started.elapsed().as_secs_f64()
        );
        let (idle, during): (Vec<Action>, Vec<Action>) = stack
            .actions
            .iter()
            .cloned()
            .partition(|a| a.when == Trigger::Idle);
        for (i, action) in idle.iter().enumerate() {
            std::thread::sleep(action.after);
            let worker = self.next_in_line(&action.service);
            let at = started.elapsed().as_secs_f64();
            if let Err(e) = self.act(action, worker.as_deref(), at) {
                self.problem(format!(
                    "action {i} ({} {}): {e}",
                    action.verb.as_str(),
                    action.service
                ));
            }
        }
        std::thread::sleep(stack.submit_after);
        let id = match self.api.submit(REPO_IN_STACK, &scenario.args) {
            Ok(id) => id,
            Err(e) => return self.problem(format!("the job was not accepted: {e}")),
        };
        let limit = Duration::from_secs_f64(scenario.expect.max_seconds() * 2.0);
        let job = self.follow(&id, &during, limit);
        self.observe(&id, job);
        if !stack.claims.is_empty() {
            self.count_claims(&stack.claims);
        }
        if stack.heal {
            self.heal(scale);
        }
    }

    /// Waits until the Lead answers and every worker container is idle in its pool; notes the
    /// Lead's container (a restart keeps it).
    fn whole(&mut self, within: Duration) -> Result<(), WholeError> {
        let deadline = Instant::now() + within;
        let lead = self.compose.containers(Some("lead"))?;
        self.lead = lead.first().cloned();
        // `up -d` has returned: every container of the stack exists and was started.
        let workers = self
            .compose
            .containers(None)?
            .into_iter()
            .filter(|c| !lead.contains(c))
            .count();
        let mut last = NotYet::NoAnswer;
        while Instant::now() < deadline {
            if self.api.healthy() {
                match self.api.idle_workers() {
                    Ok(idle) if idle as usize >= workers => return Ok(()),
                    Ok(idle) => last = NotYet::Registering { idle, workers },
                    Err(e) => last = NotYet::Metrics(Box::new(e)),
                }
            }
            std::thread::sleep(Duration::from_millis(250));
        }
        Err(WholeError::NotWhole { within, last })
    }

    /// Polls job `id` until it finishes or `limit` passes, doing `actions` at their triggers.
    fn follow(&mut self, id: &str, actions: &[Action], limit: Duration) -> Option<JobState> {
        let submitted = Instant::now();
        let mut pending = actions.iter().enumerate().peekable();
        let mut triggered: Option<(Instant, Option<String>)> = None;
        loop {
            if let Some((i, action)) = pending.peek().copied() {
                if triggered.is_none() {
                    triggered = self.trigger(&action.when, submitted);
                }
                if let Some((at, worker)) = &triggered {
                    if at.elapsed() >= action.after {
                        let elapsed = submitted.elapsed().as_secs_f64();
                        if let Err(e) = self.act(action, worker.as_deref(), elapsed) {
                            self.problem(format!(
                                "action {i} ({} {}): {e}",
                                action.verb.as_str(),
                                action.service
                            ));
                        }
                        pending.next();
                        triggered = None;
                    }
                }
            }
            // A restarting Lead does not answer for a while: that is not the job's end.
            if let Ok(job) = self.api.job(id) {
                if job.finished() {
                    self.observed.seconds = submitted.elapsed().as_secs_f64();
                    for (i, action) in pending {
                        self.problem(format!(
                            "action {i} ({} {}) never happened: the job ended first",
                            action.verb.as_str(),
                            action.service
                        ));
                    }
                    return Some(job);
                }
            }
            if submitted.elapsed() >= limit {
                self.observed.seconds = submitted.elapsed().as_secs_f64();
                self.observed.timed_out = true;
                return None;
            }
            std::thread::sleep(POLL);
        }
    }

    /// The worker of `service` that the next claim of its kind would take: of the workers the
    /// Lead logged registering, the longest-registered one whose container belongs to the
    /// service.
    fn next_in_line(&self, service: &str) -> Option<String> {
        let log = logs(self.lead.as_deref()?).ok()?;
        let containers = self.compose.containers(Some(service)).ok()?;
        registrations(&log).into_iter().find(|worker| {
            worker_host(worker).is_some_and(|h| containers.iter().any(|c| c.starts_with(h)))
        })
    }

    /// When `when` has happened: now, and for a claim the worker's name.
    fn trigger(&self, when: &Trigger, submitted: Instant) -> Option<(Instant, Option<String>)> {
        match when {
            // Done before the job: never pending while it runs.
            Trigger::Idle => None,
            Trigger::Submitted => Some((submitted, None)),
            Trigger::Claimed(instance) => {
                let log = logs(self.lead.as_deref()?).ok()?;
                let claim = claims(&log).into_iter().find(|c| &c.instance == instance)?;
                Some((Instant::now(), Some(claim.worker)))
            }
        }
    }

    /// Does `action` to its container: the one whose worker is `worker` when the service has
    /// it, else the service's only container.
    fn act(&mut self, action: &Action, worker: Option<&str>, at: f64) -> Result<(), ActionError> {
        if action.verb == Verb::Run {
            return self.run_once(action, at);
        }
        let containers = self.compose.containers(Some(&action.service))?;
        let host = worker.and_then(worker_host);
        let serving = host.and_then(|h| containers.iter().find(|c| c.starts_with(h)));
        let shown = serving.and(worker);
        let target = match serving {
            Some(c) => c.clone(),
            None if containers.len() == 1 => containers[0].clone(),
            None => {
                return Err(ActionError::NoTarget {
                    running: containers.len(),
                    worker: worker.map(str::to_string),
                })
            }
        };
        let started = Instant::now();
        let short: String = target.chars().take(12).collect();
        eprintln!(
            "  {at:.1} s: {} {} ({short}{})",
            action.verb.as_str(),
            action.service,
            shown.map(|w| format!(", worker {w}")).unwrap_or_default()
        );
        let network = self.compose.network(&action.network);
        match action.verb {
            Verb::Kill => drop(docker(&["kill", &target])?),
            Verb::Crash => crash(&target)?,
            Verb::Pause => {
                docker(&["pause", &target])?;
                self.healing
                    .push((Verb::Unpause, String::new(), target.clone()));
            }
            Verb::Unpause => {
                docker(&["unpause", &target])?;
                self.healing
                    .retain(|(v, _, c)| !(*v == Verb::Unpause && *c == target));
            }
            Verb::Disconnect => {
                docker(&["network", "disconnect", &network, &target])?;
                self.healing
                    .push((Verb::Connect, network.clone(), target.clone()));
            }
            Verb::Connect => {
                docker(&["network", "connect", &network, &target])?;
                self.healing
                    .retain(|(v, _, c)| !(*v == Verb::Connect && *c == target));
            }
            Verb::Restart => drop(docker(&["restart", "-t", "5", &target])?),
            // Handled above: a one-shot container is not one of the stack's.
            Verb::Run => return Err(ActionError::OneShot),
        }
        // A busy machine can make `docker` slow: when it acted shows whether the window held.
        eprintln!("  {:.1} s: done", at + started.elapsed().as_secs_f64());
        Ok(())
    }

    /// Runs the one-shot container of `action` and checks how it ended.
    fn run_once(&mut self, action: &Action, at: f64) -> Result<(), ActionError> {
        eprintln!("  {at:.1} s: run {}", action.service);
        let (code, stderr) = self.compose.run_once(&action.service)?;
        // retake's own error line, else the last line (Compose may add lines of its own).
        let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
        let last = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("retake:"))
            .or(lines.last())
            .copied()
            .unwrap_or("");
        eprintln!("  one-shot {} ended: exit {code:?}: {last}", action.service);
        if let Some(wanted) = action.exit_code {
            if code != Some(wanted) {
                return Err(ActionError::ExitCode {
                    code,
                    wanted,
                    last: last.to_string(),
                });
            }
        }
        match &action.stderr {
            Some(text) if !stderr.contains(text.as_str()) => Err(ActionError::Stderr {
                text: text.clone(),
                last: last.to_string(),
            }),
            _ => Ok(()),
        }
    }

    /// Reads what the finished job left: exit code, report, journal.
    fn observe(&mut self, id: &str, job: Option<JobState>) {
        let Some(job) = job else { return };
        self.observed.exit_code = job.exit_code;
        self.observed.stderr_tail = job.error.clone().unwrap_or_default();
        if job.status != "done" {
            return;
        }
        match self.api.result(id) {
            Ok(report) => {
                let run_id = report["run_id"].as_str().map(str::to_string);
                self.observed.json = Some(report);
                if let Some(run_id) = run_id {
                    self.observed.journal = self.journal(&run_id);
                }
            }
            Err(e) => self.problem(format!("no report: {e}")),
        }
    }

    /// The report names journaled for `run_id` on the state volume, copied out of the Lead.
    fn journal(&mut self, run_id: &str) -> Vec<String> {
        let lead = self.lead.clone().unwrap_or_default();
        let listed = (|| -> Result<Vec<String>, JournalError> {
            let out = tempfile::tempdir().map_err(JournalError::Scratch)?;
            let dest = out.path().join("reports");
            let source = format!("{lead}:{REPO_IN_STACK}/.retake/runs/{run_id}/reports");
            docker(&["cp", &source, &dest.display().to_string()])?;
            let mut names: Vec<String> = std::fs::read_dir(&dest)
                .map_err(JournalError::Listing)?
                .flatten()
                .filter_map(|e| {
                    e.file_name()
                        .to_str()?
                        .strip_suffix(".cpf")
                        .map(str::to_string)
                })
                .collect();
            names.sort();
            Ok(names)
        })();
        listed.unwrap_or_else(|e| {
            self.problem(format!("cannot read the journal of {run_id}: {e}"));
            Vec::new()
        })
    }

    /// Compares the claims in the Lead's log with `wanted` (instance → count).
    fn count_claims(&mut self, wanted: &std::collections::BTreeMap<String, u32>) {
        let log = logs(self.lead.as_deref().unwrap_or_default());
        let log = match log {
            Ok(log) => log,
            Err(e) => return self.problem(format!("cannot read the Lead's log: {e}")),
        };
        let got = claims(&log);
        for (instance, want) in wanted {
            let n = got.iter().filter(|c| &c.instance == instance).count();
            if n != *want as usize {
                self.problem(format!(
                    "claims of {instance}: expected {want}, the Lead's log has {n}"
                ));
            }
        }
    }

    /// Undoes pauses and disconnections, starts killed containers again (`up`), and waits for
    /// every worker to be back in the Lead's pool.
    fn heal(&mut self, scale: &[(String, u32)]) {
        let started = Instant::now();
        for (verb, network, container) in std::mem::take(&mut self.healing) {
            let done = match verb {
                Verb::Unpause => docker(&["unpause", &container]),
                _ => docker(&["network", "connect", &network, &container]),
            };
            if let Err(e) = done {
                self.problem(format!("the stack did not heal: {e}"));
            }
        }
        let healed = self
            .compose
            .up(scale)
            .map_err(WholeError::from)
            .and_then(|()| self.whole(STACK_WAIT));
        match healed {
            Ok(()) => eprintln!(
                "  healed in {:.1} s: every worker registered again",
                started.elapsed().as_secs_f64()
            ),
            Err(e) => self.problem(format!("the stack did not heal: {e}")),
        }
    }
}

/// Kills the first process of `container` (its init) from the host with SIGKILL: the container
/// exits 137 without Docker having stopped it, so its restart policy applies.
fn crash(container: &str) -> Result<(), ActionError> {
    let reported = docker(&["inspect", "-f", "{{.State.Pid}}", container])?;
    let reported = reported.trim();
    let pid: i32 =
        reported
            .parse()
            .ok()
            .filter(|p| *p > 0)
            .ok_or_else(|| ActionError::NoProcess {
                container: container.to_string(),
                pid: reported.to_string(),
            })?;
    // The pid is the one Docker reports for the container's first process, so the signal
    // goes to that container alone.
    protocol::exec::child::kill_process(pid).map_err(|source| ActionError::Signal {
        pid,
        container: container.to_string(),
        source,
    })
}

/// A Compose project name unique to this run: `PREFIX-XXXXXXXX` in the characters Compose keeps.
fn project_name() -> String {
    let prefix = std::env::var(PROJECT_ENV).unwrap_or_else(|_| "retake-scenario".into());
    let prefix: String = prefix
        .to_lowercase()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    format!("{prefix}-{}", hex::encode(rand::random::<[u8; 4]>()))
}

/// A loopback port free now (bound and released: the stack publishes the API on it next).
fn free_port() -> std::io::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}
