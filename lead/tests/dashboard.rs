//! `retake dashboard` through the real binary: a repository whose `verdicts.md` holds three
//! batches written by `retake consensus` (a tracked issue, resolved, back as a REGRESSION) is
//! served read-only at the URL the command prints; the page shows all three batches, the
//! regression in words, and nothing else is served. Beyond loopback it needs the API's token.

#[path = "dashboard_support/mod.rs"]
mod dashboard_support;

use dashboard_support::{serve, three_batches as history, Serving};
use std::path::Path;
use std::process::Command;

/// Starts `retake dashboard` on `repo` with `args`; the process and the URL it printed.
fn start(repo: &Path, args: &[&str], token: Option<&str>) -> (Serving, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_retake"));
    command
        .arg("dashboard")
        .arg(repo)
        .args(args)
        .env_remove("RETAKE_API_TOKEN");
    if let Some(token) = token {
        command.env("RETAKE_API_TOKEN", token);
    }
    serve(command)
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
    // A browser signs in with the form: the right token sets a cookie that opens the pages.
    let (status, page) = get(&local, None);
    assert_eq!(status, 401);
    assert!(
        page.contains("<form method=\"post\" action=\"/login\">"),
        "{page}"
    );
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .proxy(None)
        .build()
        .into();
    let login = |given: &str| {
        agent
            .post(&format!("{local}login"))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .send(format!("token={given}"))
            .expect("an answer")
    };
    assert_eq!(
        login("0123456789abcdef0123456789abcdeX").status().as_u16(),
        401
    );
    let signed = login(token);
    assert_eq!(signed.status().as_u16(), 303);
    let cookie = signed
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .expect("a cookie")
        .to_string();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    let pair = cookie.split(';').next().expect("name=value");
    let page = agent
        .get(&local)
        .header("Cookie", pair)
        .call()
        .expect("an answer");
    assert_eq!(page.status().as_u16(), 200);
}

#[test]
fn a_finding_s_file_is_shown_only_from_inside_the_repository() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path().join("shop");
    std::fs::create_dir_all(repo.join("src")).expect("mkdir");
    std::fs::write(repo.join("src/a.rs"), "fn a() {}\n// <b>\n").expect("write");
    std::fs::write(dir.path().join("outside"), "secret\n").expect("write");
    let (_dashboard, url) = start(&repo, &[], None);
    let (status, page) = get(&format!("{url}source/src/a.rs"), None);
    assert_eq!(status, 200);
    assert!(page.contains("<tr id=\"L2\">"), "{page}");
    assert!(page.contains("// &lt;b&gt;"), "{page}");
    for bad in ["source/../outside", "source/%2E%2E/outside", "source/src"] {
        let (status, body) = get(&format!("{url}{bad}"), None);
        assert_eq!(status, 404, "{bad}: {body}");
        assert!(!body.contains("secret"));
    }
}
