//! `retake dashboard` through the real binary: a repository whose `verdicts.md` holds three
//! batches written by `retake consensus` (a tracked issue, resolved, back as a REGRESSION) is
//! served read-only at the URL the command prints; the page shows all three batches, the
//! regression in words, and nothing else is served. Beyond loopback it needs the API's token.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A dashboard process, stopped when dropped.
struct Dashboard(Child);

impl Drop for Dashboard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `retake dashboard` on `repo` with `args`; the process and the URL it printed.
fn start(repo: &Path, args: &[&str], token: Option<&str>) -> (Dashboard, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_retake"));
    command
        .arg("dashboard")
        .arg(repo)
        .args(args)
        .env_remove("RETAKE_API_TOKEN")
        .stderr(Stdio::piped());
    if let Some(token) = token {
        command.env("RETAKE_API_TOKEN", token);
    }
    let mut child = command.spawn().expect("start retake dashboard");
    let stderr = child.stderr.take().expect("stderr");
    let mut line = String::new();
    BufReader::new(stderr).read_line(&mut line).expect("a line");
    let url = line
        .strip_prefix("retake dashboard: ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("the URL line: {line}"))
        .to_string();
    (Dashboard(child), url)
}

/// Three batches in `repo/.retake/verdicts.md`, through `retake consensus`.
fn history(repo: &Path) {
    let md = repo.join(".retake/verdicts.md");
    std::fs::create_dir_all(md.parent().expect("parent")).expect("mkdir");
    let with = "VERDICT:CONDITIONAL\nVERIFIED:\ninspector-quality|M|incomplete|src/a.rs:3|TODO <marker> left\n";
    let without = "VERDICT:CONDITIONAL\nVERIFIED:\ninspector-quality|L|naming-violation|src/b.rs:5|camelCase\n";
    for body in [with, without, with] {
        let file = repo.join("v.cpf");
        std::fs::write(&file, body).expect("write");
        let out = Command::new(env!("CARGO_BIN_EXE_retake"))
            .arg("consensus")
            .args([&file, &file, &file])
            .arg("--verdicts")
            .arg(&md)
            .output()
            .expect("run retake consensus");
        assert!(matches!(out.status.code(), Some(0 | 1)), "{out:?}");
    }
}

fn get(url: &str, token: Option<&str>) -> (u16, String) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .proxy(None)
        .build()
        .into();
    let mut request = agent.get(url);
    if let Some(token) = token {
        request = request.header("Authorization", format!("Bearer {token}"));
    }
    let mut response = request.call().expect("an answer");
    let status = response.status().as_u16();
    (
        status,
        response.body_mut().read_to_string().unwrap_or_default(),
    )
}

#[test]
fn the_history_of_three_batches_is_served_with_the_regression_marked() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path().join("shop");
    std::fs::create_dir_all(&repo).expect("mkdir");
    history(&repo);
    let (_dashboard, url) = start(&repo, &[], None);
    assert!(
        url.starts_with("http://127.0.0.1:") && url.ends_with('/'),
        "{url}"
    );
    let (status, page) = get(&url, None);
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("<title>retake — review history of shop</title>"));
    assert_eq!(page.matches("<details id=\"B").count(), 3, "{page}");
    assert!(page.contains(
        "Latest: B3, <strong>NO-GO</strong>, <span class=\"regression\">1 REGRESSION</span>."
    ));
    assert!(page.contains(
        "<td class=\"sev-H\">High <span class=\"regression\">REGRESSION</span> (was Medium)</td>"
    ));
    assert!(page.contains("<h3>Resolved since B1</h3>"));
    assert!(page.contains("TODO &lt;marker&gt; left"));
    assert_eq!(get(&format!("{url}state/active.json"), None).0, 404);
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .proxy(None)
        .build()
        .into();
    let post = agent.post(&url).send("x").expect("an answer");
    assert_eq!(post.status().as_u16(), 405);
}

#[test]
fn beyond_loopback_the_dashboard_needs_the_token_and_asks_for_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = Command::new(env!("CARGO_BIN_EXE_retake"))
        .arg("dashboard")
        .arg(dir.path())
        .args(["--listen", "0.0.0.0:0"])
        .env_remove("RETAKE_API_TOKEN")
        .output()
        .expect("run retake dashboard");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.starts_with("retake: error: "), "{stderr}");
    assert!(stderr.contains("RETAKE_API_TOKEN"), "{stderr}");

    let token = "0123456789abcdef0123456789abcdef";
    let (_dashboard, url) = start(dir.path(), &["--listen", "0.0.0.0:0"], Some(token));
    let local = url.replace("0.0.0.0", "127.0.0.1");
    assert_eq!(get(&local, None).0, 401);
    let (status, page) = get(&local, Some(token));
    assert_eq!(status, 200);
    assert!(page.contains("No review has written a batch yet"), "{page}");
}
