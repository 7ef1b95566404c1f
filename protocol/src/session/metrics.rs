//! What an actor process counts about itself, for its `/metrics` and `/readyz` endpoints.
//!
//! Plain atomics updated where the session sends and receives, rendered on demand in the
//! Prometheus text format (version 0.0.4). No metrics crate: a handful of counters and gauges
//! with fixed names need no registry, and the exact text is unit-tested.

use crate::domain::Severity;
use crate::message::Body;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The content type of [`Metrics::render`]'s output.
pub const METRICS_CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// One actor process's counters, shared by its sessions and its health endpoint.
#[derive(Debug)]
pub struct Metrics {
    role: String,
    kind: String,
    name: String,
    restarts: u32,
    sent: AtomicU64,
    received: AtomicU64,
    heartbeats: AtomicU64,
    sessions: AtomicU64,
    session_up: AtomicBool,
    stopping: AtomicBool,
    outputs: AtomicU64,
    work_ms: AtomicU64,
    /// Findings reported, indexed like [`Severity::ALL_DESC`].
    findings: [AtomicU64; 4],
    /// Agent backend calls, prompt tokens, completion tokens, milliseconds.
    agent: [AtomicU64; 4],
}

/// What an agent backend cost in one piece of work.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AgentUsage {
    /// Calls made (attempts, usable or not).
    pub calls: u64,
    /// Prompt tokens, as the endpoint reported them (0 for a command).
    pub prompt_tokens: u64,
    /// Completion tokens, likewise.
    pub completion_tokens: u64,
    /// Time spent waiting for the agent, milliseconds.
    pub millis: u64,
}

/// What the metrics keep of one output: its findings by severity (a report), taken before
/// the output is handed to the wire.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Tally {
    /// Indexed like [`Severity::ALL_DESC`].
    findings: [u64; 4],
}

impl Tally {
    pub(super) fn of(body: &Body) -> Tally {
        let mut tally = Tally::default();
        if let Body::InspectorReport(report) = body {
            for finding in &report.findings {
                if let Some(i) = Severity::ALL_DESC
                    .iter()
                    .position(|s| *s == finding.severity)
                {
                    tally.findings[i] += 1;
                }
            }
        }
        tally
    }
}

/// Marks the session up while it lives; dropping it marks the session down.
#[derive(Debug)]
pub(super) struct SessionUp<'a>(&'a Metrics);

impl Drop for SessionUp<'_> {
    fn drop(&mut self) {
        self.0.session_up.store(false, Ordering::SeqCst);
    }
}

impl Metrics {
    /// Counters for the actor `name` of `role` (and `kind`, empty when the role has none),
    /// which is spawn number `spawn_no` (1 for the first) of its logical slot.
    pub fn new(role: &str, kind: &str, name: &str, spawn_no: u32) -> Metrics {
        Metrics {
            role: role.to_string(),
            kind: kind.to_string(),
            name: name.to_string(),
            restarts: spawn_no.saturating_sub(1),
            sent: AtomicU64::new(0),
            received: AtomicU64::new(0),
            heartbeats: AtomicU64::new(0),
            sessions: AtomicU64::new(0),
            session_up: AtomicBool::new(false),
            stopping: AtomicBool::new(false),
            outputs: AtomicU64::new(0),
            work_ms: AtomicU64::new(0),
            findings: Default::default(),
            agent: Default::default(),
        }
    }

    /// An agent backend's calls, tokens and time in one piece of work.
    pub fn on_agent(&self, usage: AgentUsage) {
        let parts = [
            usage.calls,
            usage.prompt_tokens,
            usage.completion_tokens,
            usage.millis,
        ];
        for (count, n) in self.agent.iter().zip(parts) {
            count.fetch_add(n, Ordering::Relaxed);
        }
    }

    /// Why the actor is not ready, or `Ok` while a session with the Lead is established and
    /// the process is not shutting down.
    pub fn readiness(&self) -> Result<(), &'static str> {
        if self.stopping.load(Ordering::SeqCst) {
            Err("shutting down")
        } else if !self.session_up.load(Ordering::SeqCst) {
            Err("no session with the Lead")
        } else {
            Ok(())
        }
    }

    /// Records that the process is shutting down (readiness fails from now on).
    pub fn set_stopping(&self) {
        self.stopping.store(true, Ordering::SeqCst);
    }

    /// How many sessions with the Lead were established so far.
    pub fn sessions(&self) -> u64 {
        self.sessions.load(Ordering::SeqCst)
    }

    /// How many heartbeats were sent so far.
    pub fn heartbeats(&self) -> u64 {
        self.heartbeats.load(Ordering::SeqCst)
    }

    pub(super) fn session_started(&self) -> SessionUp<'_> {
        self.sessions.fetch_add(1, Ordering::SeqCst);
        self.session_up.store(true, Ordering::SeqCst);
        SessionUp(self)
    }

    pub(super) fn on_sent(&self) {
        self.sent.fetch_add(1, Ordering::Relaxed);
    }

    pub(super) fn on_received(&self) {
        self.received.fetch_add(1, Ordering::Relaxed);
    }

    pub(super) fn on_heartbeat(&self) {
        self.heartbeats.fetch_add(1, Ordering::Relaxed);
    }

    /// An output (report, verdict, task result) was delivered after `work_ms` of work.
    pub(super) fn on_output(&self, tally: &Tally, work_ms: u64) {
        self.outputs.fetch_add(1, Ordering::Relaxed);
        self.work_ms.fetch_add(work_ms, Ordering::Relaxed);
        for (count, n) in self.findings.iter().zip(tally.findings) {
            count.fetch_add(n, Ordering::Relaxed);
        }
    }

    /// The Prometheus text exposition of every metric.
    pub fn render(&self) -> String {
        let load = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let flag = |a: &AtomicBool| u8::from(a.load(Ordering::SeqCst));
        let mut out = String::new();
        let mut family = |name: &str, kind: &str, help: &str, samples: &[(String, String)]| {
            // Writing to a String cannot fail.
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
            for (labels, value) in samples {
                let _ = writeln!(out, "{name}{labels} {value}");
            }
        };
        let plain = |v: u64| vec![(String::new(), v.to_string())];
        let plain_text = |v: String| vec![(String::new(), v)];
        family(
            "retake_actor_messages_total",
            "counter",
            "Envelopes exchanged with the Lead after the handshake, heartbeats included.",
            &[
                (r#"{direction="sent"}"#.into(), load(&self.sent).to_string()),
                (
                    r#"{direction="received"}"#.into(),
                    load(&self.received).to_string(),
                ),
            ],
        );
        family(
            "retake_actor_heartbeats_total",
            "counter",
            "Heartbeats sent to the Lead.",
            &plain(load(&self.heartbeats)),
        );
        family(
            "retake_actor_restarts",
            "gauge",
            "Times this actor's logical slot was replaced before this process (spawn number - 1).",
            &plain(self.restarts.into()),
        );
        family(
            "retake_actor_session_up",
            "gauge",
            "1 while a session with the Lead is established, else 0.",
            &plain(flag(&self.session_up).into()),
        );
        family(
            "retake_actor_sessions_total",
            "counter",
            "Sessions established with the Lead (a worker opens one per job).",
            &plain(load(&self.sessions)),
        );
        family(
            // A summary's samples are `name_sum` and `name_count`: the suffix goes where labels would.
            "retake_actor_work_seconds",
            "summary",
            "Time from starting a piece of work to delivering its output (report, verdict, task result).",
            &[
                ("_sum".into(), seconds(load(&self.work_ms))),
                ("_count".into(), load(&self.outputs).to_string()),
            ],
        );
        let findings: Vec<_> = Severity::ALL_DESC
            .iter()
            .zip(&self.findings)
            .map(|(s, n)| {
                let label = format!(r#"{{severity="{}"}}"#, s.word().to_ascii_lowercase());
                (label, load(n).to_string())
            })
            .collect();
        family(
            "retake_actor_findings_total",
            "counter",
            "Findings in the reports this actor delivered, by severity.",
            &findings,
        );
        family(
            "retake_actor_agent_calls_total",
            "counter",
            "Calls to the agent backend (a command or a model endpoint), usable answers or not.",
            &plain(load(&self.agent[0])),
        );
        family(
            "retake_actor_agent_tokens_total",
            "counter",
            "Tokens the agent's model endpoint reported, by kind.",
            &[
                (
                    r#"{kind="prompt"}"#.into(),
                    load(&self.agent[1]).to_string(),
                ),
                (
                    r#"{kind="completion"}"#.into(),
                    load(&self.agent[2]).to_string(),
                ),
            ],
        );
        family(
            "retake_actor_agent_seconds_total",
            "counter",
            "Time spent waiting for the agent backend.",
            &plain_text(seconds(load(&self.agent[3]))),
        );
        let info = format!(
            r#"{{version="{}",role="{}",kind="{}",name="{}"}}"#,
            env!("CARGO_PKG_VERSION"),
            escape(&self.role),
            escape(&self.kind),
            escape(&self.name),
        );
        family(
            "retake_build_info",
            "gauge",
            "The build and identity of this actor process; always 1.",
            &[(info, "1".into())],
        );
        out
    }
}

/// Milliseconds as seconds with three decimals, exactly (no float rounding).
fn seconds(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}

/// A label value escaped as the text format requires (backslash, double quote, newline).
fn escape(value: &str) -> String {
    value
        .replace('\\', r"\\")
        .replace('"', r#"\""#)
        .replace('\n', r"\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Coverage, Finding, InspectorReport, Location};

    fn finding(severity: Severity) -> Finding {
        let at = Location::parse("src/lib.rs:3");
        Finding::new("inspector-test", "test/x", "Test", severity, at, "x", "k")
    }

    #[test]
    fn a_fresh_actor_renders_every_family_with_zeroes_and_its_identity() {
        let m = Metrics::new("inspector", "quality", "inspector-quality-r2", 3);
        let expected = format!(
            "\
# HELP retake_actor_messages_total Envelopes exchanged with the Lead after the handshake, heartbeats included.
# TYPE retake_actor_messages_total counter
retake_actor_messages_total{{direction=\"sent\"}} 0
retake_actor_messages_total{{direction=\"received\"}} 0
# HELP retake_actor_heartbeats_total Heartbeats sent to the Lead.
# TYPE retake_actor_heartbeats_total counter
retake_actor_heartbeats_total 0
# HELP retake_actor_restarts Times this actor's logical slot was replaced before this process (spawn number - 1).
# TYPE retake_actor_restarts gauge
retake_actor_restarts 2
# HELP retake_actor_session_up 1 while a session with the Lead is established, else 0.
# TYPE retake_actor_session_up gauge
retake_actor_session_up 0
# HELP retake_actor_sessions_total Sessions established with the Lead (a worker opens one per job).
# TYPE retake_actor_sessions_total counter
retake_actor_sessions_total 0
# HELP retake_actor_work_seconds Time from starting a piece of work to delivering its output (report, verdict, task result).
# TYPE retake_actor_work_seconds summary
retake_actor_work_seconds_sum 0.000
retake_actor_work_seconds_count 0
# HELP retake_actor_findings_total Findings in the reports this actor delivered, by severity.
# TYPE retake_actor_findings_total counter
retake_actor_findings_total{{severity=\"critical\"}} 0
retake_actor_findings_total{{severity=\"high\"}} 0
retake_actor_findings_total{{severity=\"medium\"}} 0
retake_actor_findings_total{{severity=\"low\"}} 0
# HELP retake_actor_agent_calls_total Calls to the agent backend (a command or a model endpoint), usable answers or not.
# TYPE retake_actor_agent_calls_total counter
retake_actor_agent_calls_total 0
# HELP retake_actor_agent_tokens_total Tokens the agent's model endpoint reported, by kind.
# TYPE retake_actor_agent_tokens_total counter
retake_actor_agent_tokens_total{{kind=\"prompt\"}} 0
retake_actor_agent_tokens_total{{kind=\"completion\"}} 0
# HELP retake_actor_agent_seconds_total Time spent waiting for the agent backend.
# TYPE retake_actor_agent_seconds_total counter
retake_actor_agent_seconds_total 0.000
# HELP retake_build_info The build and identity of this actor process; always 1.
# TYPE retake_build_info gauge
retake_build_info{{version=\"{}\",role=\"inspector\",kind=\"quality\",name=\"inspector-quality-r2\"}} 1
",
            env!("CARGO_PKG_VERSION")
        );
        assert_eq!(m.render(), expected);
    }

    #[test]
    fn counters_move_with_the_session_and_its_outputs() {
        let m = Metrics::new("inspector", "test", "w\"1", 1);
        {
            let _up = m.session_started();
            m.on_sent();
            m.on_sent();
            m.on_heartbeat();
            m.on_received();
            let report = InspectorReport {
                review: "r1".into(),
                inspector: "inspector-test".into(),
                kind: None,
                scope: "repository".into(),
                findings: vec![
                    finding(Severity::Critical),
                    finding(Severity::Low),
                    finding(Severity::Low),
                ],
                notes: Vec::new(),
                claims: Vec::new(),
                coverage: Coverage::default(),
                preexisting: Vec::new(),
            };
            m.on_output(&Tally::of(&Body::InspectorReport(report)), 1_250);
            m.on_output(&Tally::of(&Body::Goodbye), 30);
            for _ in 0..2 {
                m.on_agent(AgentUsage {
                    calls: 2,
                    prompt_tokens: 2_558,
                    completion_tokens: 9,
                    millis: 5_480,
                });
            }
            let text = m.render();
            for line in [
                "retake_actor_agent_calls_total 4",
                r#"retake_actor_agent_tokens_total{kind="prompt"} 5116"#,
                r#"retake_actor_agent_tokens_total{kind="completion"} 18"#,
                "retake_actor_agent_seconds_total 10.960",
                r#"retake_actor_messages_total{direction="sent"} 2"#,
                r#"retake_actor_messages_total{direction="received"} 1"#,
                "retake_actor_heartbeats_total 1",
                "retake_actor_restarts 0",
                "retake_actor_session_up 1",
                "retake_actor_sessions_total 1",
                "retake_actor_work_seconds_sum 1.280",
                "retake_actor_work_seconds_count 2",
                r#"retake_actor_findings_total{severity="critical"} 1"#,
                r#"retake_actor_findings_total{severity="high"} 0"#,
                r#"retake_actor_findings_total{severity="low"} 2"#,
            ] {
                assert!(
                    text.lines().any(|l| l == line),
                    "no line {line:?} in\n{text}"
                );
            }
            assert!(text.contains(r#"name="w\"1"}"#), "{text}");
            assert_eq!(m.readiness(), Ok(()));
        }
        assert!(m.render().lines().any(|l| l == "retake_actor_session_up 0"));
        assert_eq!(m.readiness(), Err("no session with the Lead"));
        let _again = m.session_started();
        m.set_stopping();
        assert_eq!(m.readiness(), Err("shutting down"));
        assert_eq!(m.sessions(), 2);
    }
}
