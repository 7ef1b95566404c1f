//! The dashboard in a real headless Chromium, driven over WebDriver (`browser/`): a team run
//! watched live as its task is rejected and then passes, a review whose Inspector is lost and
//! replaced, the findings filter, and the history of three batches. Each test checks the DOM
//! and saves a screenshot (`target/screenshots/`; `RETAKE_SCREENSHOTS=docs` for the README's).
//! Ignored by a plain `cargo test` (they need `chromium` and `chromium-driver`):
//! `.ci/browser-tests` installs those and runs them.

#[path = "browser/mod.rs"]
mod browser;
#[path = "dashboard_support/mod.rs"]
mod dashboard_support;
#[path = "run_fixture/mod.rs"]
mod run_fixture;
#[path = "support/mod.rs"]
mod support;

use browser::Browser;
use dashboard_support::{serve, three_batches};
use run_fixture::{agent_script, fixture_custom, retake_command, Agent, PLAN};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// A mark the test leaves in the page's window: still there later means no reload happened.
const MARK: &str = "window.retakeTestMark = 42; return true;";
const MARKED: &str = "return window.retakeTestMark === 42;";

/// `shop-nogo` as a fresh git repository under `dir`.
fn shop(dir: &Path) -> std::path::PathBuf {
    let repo = dir.join("shop");
    support::copy_example("shop-nogo", &repo);
    support::git(&repo, &["init", "-q"]);
    support::git(&repo, &["add", "-A"]);
    support::git(&repo, &["commit", "-q", "-m", "start"]);
    repo
}

/// `retake review` of `repo` with the dashboard, the Auditor's verdict held back `delay` ms so
/// that the page opens before it, and `faults` more.
fn review_live(repo: &Path, delay: u64, faults: &[&str]) -> (dashboard_support::Serving, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_retake"));
    command
        .current_dir(repo)
        .args(["review", ".", "--no-exec", "--dashboard", "--chaos"])
        .args(["--fault", &format!("auditor:delay={delay}")]);
    for f in faults {
        command.args(["--fault", f]);
    }
    command.env_remove("RETAKE_API_TOKEN");
    serve(command)
}

#[test]
#[ignore = "needs chromium and chromium-driver: .ci/browser-tests"]
fn a_run_shows_the_reject_and_then_the_pass_without_a_reload() {
    let dir = tempfile::tempdir().expect("tempdir");
    // The agent waits for the page: its first call starts once the test says go.
    let go = dir.path().join("go");
    let script = format!(
        "while [ ! -e '{}' ]; do sleep 0.1; done\n{}",
        go.display(),
        agent_script(dir.path(), Agent::Good)
    );
    let plan = PLAN.lines().take(3).collect::<Vec<_>>().join("\n") + "\n";
    let repo = fixture_custom(dir.path(), &plan, &script, "", &[]);
    let command = retake_command(
        &repo,
        "dashboard-run",
        &["run", "all", "--yes", "--no-discuss", "--dashboard"],
    );
    let (running, url) = serve(command);
    let browser = Browser::start();
    browser.goto(&url);
    browser.eval(MARK);
    browser.wait_for(
        "the task on the board",
        "return document.querySelector('#tasks tr[data-task=\"1\"]') !== null",
        Duration::from_secs(30),
    );
    assert_eq!(
        browser.eval("return document.querySelectorAll('#tasks li[data-judgment]').length"),
        0,
        "no judgment before the agent ran"
    );
    std::fs::write(&go, "").expect("go");
    let first = browser.wait_for(
        "the REJECT",
        "var j = document.querySelector('#judgments-1 li[data-judgment]'); return j && j.getAttribute('data-judgment');",
        Duration::from_secs(120),
    );
    assert_eq!(first, "REJECT");
    browser.wait_for(
        "the PASS after it",
        "return Array.from(document.querySelectorAll('#judgments-1 li[data-judgment]')).map(function (l) { return l.getAttribute('data-judgment'); }).join(' ') === 'REJECT PASS';",
        Duration::from_secs(120),
    );
    let rejected = browser.eval(
        "return document.querySelector('#judgments-1 li[data-judgment=\"REJECT\"]').textContent",
    );
    let rejected = rejected.as_str().unwrap_or_default();
    assert!(rejected.contains("failed checks:"), "{rejected}");
    assert!(
        browser
            .eval("return document.querySelector('#judgments-1 li[data-judgment=\"REJECT\"] pre') !== null")
            == true,
        "the modification prompt is there"
    );
    assert_eq!(browser.eval(MARKED), true, "the page was not reloaded");
    browser.wait_for(
        "the run's end",
        "return document.querySelector('#status').textContent.indexOf('Ended: exit') >= 0",
        Duration::from_secs(240),
    );
    browser.eval("document.querySelectorAll('#tasks details').forEach(function (d) { d.open = true; }); document.querySelector('#status').scrollIntoView(); return true;");
    browser.screenshot("run");
    let (code, stderr) = running.wait();
    assert_eq!(code, Some(0), "{stderr}");
}

#[test]
#[ignore = "needs chromium and chromium-driver: .ci/browser-tests"]
fn a_review_shows_the_inspector_lost_and_replaced() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = shop(dir.path());
    let (running, url) = review_live(&repo, 4000, &["inspector-quality:crash-at=inspect"]);
    let browser = Browser::start();
    browser.goto(&url);
    browser.eval(MARK);
    let row = "document.querySelector('#actors tr[data-actor=\"inspector-quality\"]')";
    browser.wait_for(
        "the Inspector given up after its replacement",
        &format!("var r = {row}; return r && r.getAttribute('data-state') === 'lost';"),
        Duration::from_secs(30),
    );
    let cells = browser.eval(&format!(
        "return Array.from({row}.children).map(function (c) {{ return c.textContent; }})"
    ));
    let cells: Vec<&str> = cells
        .as_array()
        .expect("cells")
        .iter()
        .filter_map(|c| c.as_str())
        .collect();
    assert_eq!(cells[1], "inspector-quality-r1", "{cells:?}");
    assert_eq!(cells[5], "1", "one restart: {cells:?}");
    assert!(
        cells[6].starts_with("inspector-quality was killed"),
        "{cells:?}"
    );
    let happened = browser.eval("return document.querySelector('#happened').textContent");
    let happened = happened.as_str().unwrap_or_default();
    assert!(
        happened.contains("replaced by inspector-quality-r1"),
        "{happened}"
    );
    assert!(
        happened.contains("inspector-quality given up"),
        "{happened}"
    );
    let verdict = browser.wait_for(
        "the verdict, live",
        "var v = document.querySelector('#verdict'); return v && v.textContent;",
        Duration::from_secs(60),
    );
    assert!(
        verdict
            .as_str()
            .unwrap_or_default()
            .contains("partial coverage"),
        "{verdict}"
    );
    assert_eq!(browser.eval(MARKED), true, "the page was not reloaded");
    browser.screenshot("review");
    let (code, stderr) = running.wait();
    assert_eq!(code, Some(1), "shop-nogo is NO-GO: {stderr}");
}

#[test]
#[ignore = "needs chromium and chromium-driver: .ci/browser-tests"]
fn the_findings_filter_reduces_the_table() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = shop(dir.path());
    let (running, url) = review_live(&repo, 2000, &[]);
    let browser = Browser::start();
    browser.goto(&url);
    browser.wait_for(
        "the findings",
        "return document.querySelectorAll('#findings tr[data-severity]').length",
        Duration::from_secs(60),
    );
    let visible =
        "return document.querySelectorAll('#findings tr[data-severity]:not([hidden])').length";
    let all = browser.eval(visible).as_u64().expect("a count");
    let high = browser
        .eval("return document.querySelectorAll('#findings tr[data-severity=\"H\"]').length")
        .as_u64()
        .expect("a count");
    assert!(high > 0 && high < all, "{high} High of {all}");
    let set = |name: &str, value: &str| {
        browser.eval(&format!(
            "var el = document.querySelector('#filters [name=\"{name}\"]'); el.value = '{value}'; el.dispatchEvent(new Event('input', {{bubbles: true}})); return true;"
        ));
    };
    set("severity", "H");
    assert_eq!(browser.eval(visible).as_u64(), Some(high));
    assert_eq!(
        browser.eval("return document.querySelector('#shown').textContent"),
        high.to_string()
    );
    // Narrowed further by path: only High findings under src/.
    let high_in_src = browser
        .eval("return document.querySelectorAll('#findings tr[data-severity=\"H\"] td[data-path^=\"src/\"]').length")
        .as_u64()
        .expect("a count");
    set("path", "src/");
    assert_eq!(browser.eval(visible).as_u64(), Some(high_in_src));
    browser.screenshot("findings");
    set("path", "");
    set("severity", "");
    assert_eq!(browser.eval(visible).as_u64(), Some(all), "cleared");
    let (code, stderr) = running.wait();
    assert_eq!(code, Some(1), "{stderr}");
}

#[test]
#[ignore = "needs chromium and chromium-driver: .ci/browser-tests"]
fn the_history_shows_three_batches_and_the_regression() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path().join("shop");
    std::fs::create_dir_all(&repo).expect("mkdir");
    three_batches(&repo);
    let mut command = Command::new(env!("CARGO_BIN_EXE_retake"));
    command
        .arg("dashboard")
        .arg(&repo)
        .env_remove("RETAKE_API_TOKEN");
    let (_serving, url) = serve(command);
    let browser = Browser::start();
    browser.goto(&url);
    let batches = browser.eval(
        "return Array.from(document.querySelectorAll('details[id^=\"B\"]')).map(function (d) { return d.id; }).join(' ')",
    );
    assert_eq!(batches, "B3 B2 B1");
    let rows = browser.eval("return document.querySelectorAll('table tbody tr').length");
    assert!(rows.as_u64().unwrap_or(0) >= 3, "{rows}");
    let regression = browser.eval("return document.querySelector('#B3 td.sev-H').textContent");
    assert_eq!(regression, "High REGRESSION (was Medium)");
    let chart = browser.eval("return document.querySelectorAll('figure svg rect').length");
    assert!(chart.as_u64().unwrap_or(0) >= 3, "a bar per batch: {chart}");
    browser.screenshot("history");
}

#[test]
#[ignore = "needs chromium and chromium-driver: .ci/browser-tests"]
fn serve_lists_its_jobs_live_and_links_each_job_s_view() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = shop(dir.path());
    let service = support::serve::Serve::start(&dir.path().join("jobs"), dir.path(), &[], &[]);
    let _workers = support::workers::workers(
        &service.workers,
        support::serve::Serve::SECRET,
        &support::workers::KINDS,
        true,
        0,
    );
    let browser = Browser::start();
    browser.goto(&format!("{}/", service.api));
    browser.eval(MARK);
    browser.wait_for(
        "the empty list",
        "return document.querySelector('#jobs').textContent.indexOf('No job yet') >= 0",
        Duration::from_secs(10),
    );
    let body = serde_json::json!({ "repo": repo, "args": ["--no-exec"] });
    let answer = ureq::post(&format!("{}/reviews", service.api))
        .header("Content-Type", "application/json")
        .send(body.to_string())
        .expect("submitted");
    assert_eq!(answer.status().as_u16(), 202);
    let done = browser.wait_for(
        "the job done, on the page without a reload",
        "var r = document.querySelector('#jobs tr[data-job=\"job-1\"][data-status=\"done\"]'); return r && r.children[3].textContent;",
        Duration::from_secs(120),
    );
    assert_eq!(done, "NO-GO");
    assert_eq!(browser.eval(MARKED), true, "the page was not reloaded");
    browser.screenshot("jobs");
    browser.eval("document.querySelector('a[href=\"/jobs/job-1\"]').click(); return true;");
    let verdict = browser.wait_for(
        "the job's own view",
        "var v = document.querySelector('#verdict'); return v && v.textContent;",
        Duration::from_secs(20),
    );
    assert_eq!(verdict, "NO-GO");
    let reported = browser
        .eval("return document.querySelectorAll('#actors tr[data-state=\"reported\"]').length");
    assert_eq!(reported, 7, "six Inspectors and the Auditor reported");
}
