//! The dashboard's scale benchmark (BENCHMARKS.md, "Dashboard"), not a test of speed: a run of
//! 50 tasks whose review holds 5,000 findings is served from a feed, a headless Chromium opens
//! it (the first screen's time is read from the browser's own navigation and paint timings),
//! then the feed publishes a busy Lead's events for 20 s while the page watches, and the
//! dashboard thread's CPU time is read from `/proc`. It checks that the page shows what was
//! published (every row, every judgment), and prints the figures.
//! `cargo test --release -p retake-lead --test dashboard_scale -- --ignored --nocapture`

#[path = "browser/mod.rs"]
mod browser;

use host::live::Feed;
use protocol::live::{
    ActorLine, ActorState, FindingLine, JudgmentLine, LiveEvent, PhaseLine, ReviewView, RunPhase,
    TaskLine,
};
use protocol::Severity;
use std::time::{Duration, Instant};

const TASKS: u32 = 50;
const FINDINGS: usize = 5_000;
const WATCH: Duration = Duration::from_secs(20);

fn actors(seen_ms: u64, tick: u64) -> Vec<ActorLine> {
    (0..12)
        .map(|i| ActorLine {
            name: format!("actor-{i}"),
            instance: format!("actor-{i}"),
            state: ActorState::Working,
            detail: format!("{} steps", tick * 10 + i),
            seen_ms,
            restarts: 0,
            last_restart: None,
        })
        .collect()
}

fn board(done: u32) -> Vec<TaskLine> {
    (1..=TASKS)
        .map(|id| TaskLine {
            id,
            subject: format!("Task {id}: change module {id}"),
            status: if id <= done {
                "completed"
            } else {
                "in progress"
            }
            .into(),
            owner: Some(format!("implementer-{}", id % 5 + 1)),
            attempts: 1,
        })
        .collect()
}

fn review() -> ReviewView {
    let severities = [
        Severity::Critical,
        Severity::High,
        Severity::Medium,
        Severity::Low,
    ];
    ReviewView {
        verdict: "NO-GO".into(),
        explanation: "decision REJECT (grade D)".into(),
        answered: 6,
        expected: 6,
        findings: (0..FINDINGS)
            .map(|i| FindingLine {
                severity: severities[i % 4],
                rule: format!("quality/rule-{}", i % 40),
                inspectors: vec![format!("inspector-{}", i % 6)],
                path: format!("src/module_{}/file_{}.rs", i % 50, i % 400),
                line: Some((i % 900) as u32 + 1),
                description: format!("finding number {i}: something a maintainer would fix"),
            })
            .collect(),
        notes: Vec::new(),
    }
}

/// Opens `url`, checks that it holds `rows` findings and every task, prints its timings.
fn first_screen(browser: &browser::Browser, url: &str, rows: usize) {
    let started = Instant::now();
    browser.goto(url);
    let navigated = started.elapsed();
    let timings = browser.eval(
        "var n = performance.getEntriesByType('navigation')[0]; \
         var p = performance.getEntriesByName('first-contentful-paint')[0]; \
         return [n.responseEnd, n.domContentLoadedEventEnd, n.loadEventEnd, p ? p.startTime : -1, document.documentElement.outerHTML.length];",
    );
    let largest = browser.eval(
        "return new Promise(function (done) { new PerformanceObserver(function (list) { var e = list.getEntries(); done(e[e.length - 1].startTime); }).observe({type: 'largest-contentful-paint', buffered: true}); });",
    );
    let shown =
        browser.eval("return document.querySelectorAll('#findings tr[data-severity]').length");
    assert_eq!(shown, rows as u64);
    let tasks = browser.eval("return document.querySelectorAll('#tasks tr[data-task]').length");
    assert_eq!(tasks, u64::from(TASKS));
    println!(
        "{url} ({rows} rows): response end {} ms, first contentful paint {} ms, largest contentful paint {largest} ms, DOMContentLoaded {} ms, load {} ms, page {} bytes (WebDriver navigation {navigated:?})",
        timings[0], timings[3], timings[1], timings[2], timings[4]
    );
}

/// CPU time (user + system) of this process's thread named `name`, in clock ticks.
fn thread_ticks(name: &str) -> u64 {
    let mut total = 0;
    for entry in std::fs::read_dir("/proc/self/task")
        .expect("tasks")
        .flatten()
    {
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        if &stat[open + 1..close] != name {
            continue;
        }
        let fields: Vec<&str> = stat[close + 2..].split(' ').collect();
        // utime and stime are fields 14 and 15 of stat(5); 12 and 13 after the name.
        total += fields[11].parse::<u64>().unwrap_or(0) + fields[12].parse::<u64>().unwrap_or(0);
    }
    total
}

#[test]
#[ignore = "a benchmark: needs chromium and chromium-driver"]
fn a_large_run_renders_its_first_screen_and_streams_cheaply() {
    let dir = tempfile::tempdir().expect("tempdir");
    let feed = Feed::new();
    feed.publish(LiveEvent::Watching {
        title: "retake run — scale".into(),
    });
    feed.publish(LiveEvent::Phase(PhaseLine {
        phase: RunPhase::Implement,
        iteration: 2,
        retakes: 1,
        max_retakes: 3,
    }));
    feed.publish(LiveEvent::Tasks { tasks: board(0) });
    feed.publish(LiveEvent::Review(review()));
    let served = lead::dashboard::start(
        dir.path().to_path_buf(),
        "127.0.0.1:0",
        Some(feed.clone()),
        "the scale benchmark",
    )
    .expect("served");
    let base = format!("http://{}/", served.addr);
    let browser = browser::Browser::start();
    // Every row (`?all=1`) first, then the page as it opens (its first rows), which then watches.
    for (query, rows) in [
        ("?all=1", FINDINGS),
        ("", dashboard::findings::ROWS_AT_MOST),
    ] {
        first_screen(&browser, &format!("{base}{query}"), rows);
    }
    // A busy Lead for WATCH: 12 actors' list every 100 ms, a judgment every 300 ms, the board
    // every second — far more than the hubs publish (only what changed, heartbeats every 5 s).
    let before = thread_ticks("dashboard");
    let begun = Instant::now();
    let (mut events, mut judged, mut tick) = (0u64, 0u32, 0u64);
    while begun.elapsed() < WATCH {
        tick += 1;
        feed.publish(LiveEvent::Actors {
            hub: "team".into(),
            actors: actors(host::live::now_ms(), tick),
        });
        events += 1;
        if tick % 3 == 0 {
            judged += 1;
            feed.publish(LiveEvent::Judgment(JudgmentLine {
                task: judged % TASKS + 1,
                iteration: judged / TASKS + 1,
                judgment: if judged % 2 == 0 { "PASS" } else { "REJECT" }.into(),
                failed: vec!["Q3".into()],
                summary: Some("a TODO is left".into()),
                prompt: None,
                implementer: Some("implementer-1".into()),
            }));
            events += 1;
        }
        if tick % 10 == 0 {
            feed.publish(LiveEvent::Tasks {
                tasks: board((tick / 10) as u32),
            });
            events += 1;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let wall = begun.elapsed();
    let ticks = thread_ticks("dashboard") - before;
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    let cpu = ticks as f64 / hz;
    let shown = browser.eval("return document.querySelectorAll('#tasks li[data-judgment]').length");
    assert_eq!(shown, u64::from(judged), "every judgment reached the page");
    browser.screenshot("scale");
    println!(
        "event stream: {events} events in {:.1} s to one page; dashboard thread {cpu:.2} s CPU = {:.2} % of one core",
        wall.as_secs_f64(),
        100.0 * cpu / wall.as_secs_f64()
    );
    served.end("exit 0");
}
