use super::pool::*;
use super::*;
use protocol::wire::{client_handshake_kind, Secret, WireConfig};

/// Connects a worker of `role`/`kind` to `pool` and keeps its connection open until dropped.
async fn worker(
    pool: &WorkerPool,
    secret: &Secret,
    role: &str,
    kind: &str,
    name: &str,
) -> (protocol::wire::LinkReader, protocol::wire::LinkWriter) {
    let stream = tokio::net::TcpStream::connect(pool.local_addr())
        .await
        .expect("connect");
    client_handshake_kind(stream, secret, role, kind, name, &WireConfig::default())
        .await
        .expect("handshake")
}

/// Polls until the pool's idle workers are `want` (registration finishes on the pool's thread).
async fn idle_becomes(pool: &WorkerPool, want: &[(&str, usize)]) {
    let want: std::collections::BTreeMap<String, usize> =
        want.iter().map(|(k, n)| (k.to_string(), *n)).collect();
    for _ in 0..200 {
        if pool.idle_counts() == want {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(pool.idle_counts(), want);
}

#[test]
fn workers_register_by_role_and_kind_and_are_claimed_by_kind() {
    let secret = Secret::generate();
    let pool =
        WorkerPool::start("127.0.0.1:0", secret.clone(), WireConfig::default()).expect("pool");
    actix::System::new().block_on(async move {
        let _quality = worker(&pool, &secret, "inspector", "quality", "q@w1").await;
        let _auditor = worker(&pool, &secret, "auditor", "", "a@w2").await;
        idle_becomes(&pool, &[("inspector/quality", 1), ("auditor/", 1)]).await;

        let claimed = pool
            .claim("inspector", "quality", Duration::from_secs(1))
            .await
            .expect("a quality worker");
        assert_eq!(claimed.name, "q@w1");
        idle_becomes(&pool, &[("auditor/", 1)]).await;
        assert!(pool
            .claim("inspector", "test", Duration::from_millis(100))
            .await
            .is_none());
    });
}

#[test]
fn a_claim_waits_for_a_worker_that_registers_later() {
    let secret = Secret::generate();
    let pool =
        WorkerPool::start("127.0.0.1:0", secret.clone(), WireConfig::default()).expect("pool");
    actix::System::new().block_on(async move {
        let waiting = {
            let pool = Arc::clone(&pool);
            actix::spawn(async move {
                pool.claim("inspector", "test", Duration::from_secs(5))
                    .await
                    .map(|c| c.name)
            })
        };
        tokio::time::sleep(Duration::from_millis(100)).await;
        let _late = worker(&pool, &secret, "inspector", "test", "t@late").await;
        assert_eq!(waiting.await.expect("joined"), Some("t@late".to_string()));
    });
}

#[test]
fn a_worker_that_disconnects_while_idle_leaves_the_pool_and_a_wrong_secret_never_enters() {
    let secret = Secret::generate();
    let pool =
        WorkerPool::start("127.0.0.1:0", secret.clone(), WireConfig::default()).expect("pool");
    actix::System::new().block_on(async move {
        let gone = worker(&pool, &secret, "inspector", "holistic", "h@w").await;
        idle_becomes(&pool, &[("inspector/holistic", 1)]).await;
        drop(gone);
        idle_becomes(&pool, &[]).await;

        let stream = tokio::net::TcpStream::connect(pool.local_addr())
            .await
            .expect("connect");
        let refused = client_handshake_kind(
            stream,
            &Secret::generate(),
            "inspector",
            "holistic",
            "intruder",
            &WireConfig::default(),
        )
        .await;
        assert!(refused.is_err());
        idle_becomes(&pool, &[]).await;
    });
}

#[test]
fn an_address_in_use_is_a_clear_error() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let at = taken.local_addr().expect("addr").to_string();
    let err = WorkerPool::start(&at, Secret::generate(), WireConfig::default())
        .err()
        .expect("refused");
    assert!(
        err.to_string()
            .starts_with(&format!("cannot listen on {at} for workers: ")),
        "{err}"
    );
}

#[test]
fn a_reservation_takes_a_whole_set_or_waits_and_then_takes_what_there_is() {
    let secret = Secret::generate();
    let pool =
        WorkerPool::start("127.0.0.1:0", secret.clone(), WireConfig::default()).expect("pool");
    actix::System::new().block_on(async move {
        let _q = worker(&pool, &secret, "inspector", "quality", "q@1").await;
        let _a = worker(&pool, &secret, "auditor", "", "a@1").await;
        idle_becomes(&pool, &[("inspector/quality", 1), ("auditor/", 1)]).await;
        let set = [("inspector", "quality"), ("auditor", "")];

        let first = pool.reserve(&set, Duration::from_secs(1)).await;
        let mut names: Vec<&str> = first.iter().map(|c| c.name.as_str()).collect();
        names.sort_unstable();
        assert_eq!(names, vec!["a@1", "q@1"]);
        idle_becomes(&pool, &[]).await;

        // Half a set registers: the second reservation takes nothing until its deadline,
        // then the half there is.
        let _q2 = worker(&pool, &secret, "inspector", "quality", "q@2").await;
        idle_becomes(&pool, &[("inspector/quality", 1)]).await;
        let started = tokio::time::Instant::now();
        let second = pool.reserve(&set, Duration::from_millis(300)).await;
        assert!(started.elapsed() >= Duration::from_millis(300));
        let names: Vec<&str> = second.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, vec!["q@2"]);

        // A worker given back is idle again, first in line.
        for claimed in first {
            pool.give_back(claimed);
        }
        idle_becomes(&pool, &[("inspector/quality", 1), ("auditor/", 1)]).await;
    });
}

#[test]
fn a_workers_report_is_named_after_the_instance_it_serves() {
    use protocol::{Coverage, Finding, InspectorReport, Location, Severity};
    let worker = "inspector-quality@3f2a1b0c9d8e-7";
    let finding = |agents: &[&str]| Finding {
        agents: agents.iter().map(|a| a.to_string()).collect(),
        ..Finding::new(
            worker,
            "quality/todo-marker",
            "todo",
            Severity::Medium,
            Location {
                path: "src/lib.rs".into(),
                line: Some(3),
                ..Location::default()
            },
            "a TODO",
            "todo",
        )
    };
    let mut body = protocol::Body::InspectorReport(InspectorReport {
        review: "r1".into(),
        inspector: worker.into(),
        kind: Some(protocol::InspectorKind::Quality),
        scope: "repository".into(),
        findings: vec![finding(&[worker]), finding(&["quality-agent", worker])],
        notes: Vec::new(),
        claims: Vec::new(),
        coverage: Coverage::default(),
        preexisting: Vec::new(),
    });
    pool::as_instance(&mut body, worker, "inspector-quality-r1");
    let protocol::Body::InspectorReport(report) = body else {
        panic!("still a report")
    };
    assert_eq!(report.inspector, "inspector-quality-r1");
    let agents: Vec<Vec<String>> = report.findings.iter().map(|f| f.agents.clone()).collect();
    assert_eq!(
        agents,
        vec![
            vec!["inspector-quality-r1".to_string()],
            vec![
                "quality-agent".to_string(),
                "inspector-quality-r1".to_string()
            ],
        ]
    );
}

/// A worker's heartbeat, or the Lead's.
fn beat(from: &str, to: &str) -> protocol::Envelope {
    let body = protocol::Body::Heartbeat {
        phase: protocol::message::Phase::Idle,
        progress: protocol::message::Progress::default(),
        busy_since_ms: None,
    };
    protocol::Envelope::new(from, to, body)
}

#[test]
fn a_silent_idle_worker_is_dropped_and_counted_lost_while_one_that_heartbeats_stays() {
    let secret = Secret::generate();
    let pool =
        WorkerPool::start("127.0.0.1:0", secret.clone(), WireConfig::default()).expect("pool");
    // Silent for 3 intervals (600 ms) is lost; the live worker beats every 50 ms, so a test
    // thread held up by a loaded machine for half a second still keeps it.
    pool.set_heartbeat(Duration::from_millis(200));
    let kinds = [
        ("inspector", "quality"),
        ("inspector", "test"),
        ("auditor", ""),
    ];
    actix::System::new().block_on(async move {
        let (mut silent, _silent_writer) =
            worker(&pool, &secret, "inspector", "quality", "q@paused").await;
        let (mut live, mut live_writer) = worker(&pool, &secret, "inspector", "test", "t@up").await;
        idle_becomes(&pool, &[("inspector/quality", 1), ("inspector/test", 1)]).await;
        for _ in 0..24 {
            live_writer.send(&beat("t@up", "lead")).await.expect("send");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        idle_becomes(&pool, &[("inspector/test", 1)]).await;
        // The idle worker that stayed hears the Lead's heartbeats.
        let heard = tokio::time::timeout(Duration::from_secs(5), live.recv())
            .await
            .expect("the Lead heartbeats")
            .expect("a frame")
            .expect("open");
        let expected = beat("lead", "t@up");
        assert_eq!(
            (heard.from, heard.to, heard.body),
            (expected.from, expected.to, expected.body)
        );
        // The silent one's connection is closed (after the Lead's heartbeats it was sent).
        let closed = loop {
            let next = tokio::time::timeout(Duration::from_secs(5), silent.recv())
                .await
                .expect("closed, not left open");
            if !matches!(next, Ok(Some(_))) {
                break next;
            }
        };
        assert!(matches!(closed, Ok(None) | Err(_)), "{closed:?}");
        let count = |role: &str, kind: &str, idle, busy, lost| WorkerCount {
            role: role.into(),
            kind: kind.into(),
            idle,
            busy,
            lost,
        };
        assert_eq!(
            pool.worker_counts(&kinds),
            vec![
                count("inspector", "quality", 0, 0, 1),
                count("inspector", "test", 1, 0, 0),
                count("auditor", "", 0, 0, 0),
            ]
        );
        let claimed = pool
            .claim("inspector", "test", Duration::from_secs(1))
            .await
            .expect("claimed");
        assert_eq!(
            pool.worker_counts(&kinds)[1],
            count("inspector", "test", 0, 1, 0),
            "claimed is busy"
        );
        drop(claimed);
    });
}

/// A hub that records what reaches it, in order.
struct Recorder(Arc<Mutex<Vec<String>>>);

impl actix::Actor for Recorder {
    type Context = actix::Context<Self>;
}

impl actix::Handler<crate::hub::Connected> for Recorder {
    type Result = bool;
    fn handle(&mut self, msg: crate::hub::Connected, _: &mut Self::Context) -> bool {
        lock(&self.0).push(format!("connected {}", msg.name));
        true
    }
}

impl actix::Handler<crate::hub::Incoming> for Recorder {
    type Result = ();
    fn handle(&mut self, msg: crate::hub::Incoming, _: &mut Self::Context) {
        lock(&self.0).push(format!("{} from {}", msg.env.body.name(), msg.from));
    }
}

impl actix::Handler<crate::hub::Lost> for Recorder {
    type Result = ();
    fn handle(&mut self, msg: crate::hub::Lost, _: &mut Self::Context) {
        lock(&self.0).push(format!("lost {}", msg.name));
    }
}

#[test]
fn what_a_worker_says_while_it_waits_reaches_the_hub_that_claims_it_first() {
    use actix::Actor as _;
    let secret = Secret::generate();
    let pool =
        WorkerPool::start("127.0.0.1:0", secret.clone(), WireConfig::default()).expect("pool");
    actix::System::new().block_on(async move {
        // An Implementer asks for a task as soon as it is connected, before any hub has it.
        let (_reader, mut writer) = worker(&pool, &secret, "implementer", "", "i@w").await;
        idle_becomes(&pool, &[("implementer/", 1)]).await;
        let to_lead = |body| protocol::Envelope::new("i@w", protocol::message::LEAD, body);
        writer
            .send(&to_lead(protocol::Body::ClaimTask))
            .await
            .expect("sent");
        writer
            .send(&to_lead(protocol::Body::Heartbeat {
                phase: protocol::message::Phase::Idle,
                progress: protocol::message::Progress::default(),
                busy_since_ms: None,
            }))
            .await
            .expect("sent");
        tokio::time::sleep(Duration::from_millis(100)).await;

        let seen = Arc::new(Mutex::new(Vec::new()));
        let hub: crate::hub::HubRef = Arc::new(Recorder(Arc::clone(&seen)).start());
        let mut spawner = RemoteSpawner::reserving(
            Arc::clone(&pool),
            &[ActorKind::Implementer],
            Duration::from_secs(1),
        )
        .await;
        let spec = ActorSpec {
            kind: ActorKind::Implementer,
            logical: "implementer-1".into(),
            instance: "implementer-1".into(),
            spawn_no: 1,
        };
        spawner.spawn(&spec, hub).expect("claimed");
        for _ in 0..100 {
            if lock(&seen).len() >= 2 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        // The held claim, under the instance's name; the heartbeat was not held.
        assert_eq!(
            *lock(&seen),
            ["connected implementer-1", "ClaimTask from implementer-1"]
        );
    });
}
