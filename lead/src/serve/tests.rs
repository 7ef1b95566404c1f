use super::http::route;
use super::*;
use protocol::wire::{Secret, WireConfig};

fn service(dir: &std::path::Path) -> Arc<Service> {
    let pool =
        WorkerPool::start("127.0.0.1:0", Secret::generate(), WireConfig::default()).expect("pool");
    Service::new(pool, dir.to_path_buf(), 2, false).expect("service")
}

#[test]
fn bad_jobs_are_refused_with_the_reason_and_unknown_ids_are_404() {
    let dir = tempfile::tempdir().expect("dir");
    let svc = service(dir.path());
    let repo = dir.path().display().to_string();
    let cases = [
        (
            "{",
            "bad job: EOF while parsing an object at line 1 column 1",
        ),
        (
            r#"{"repo": "relative/path"}"#,
            "repo 'relative/path' is not an absolute path to a folder the service can read",
        ),
        (
            &format!(r#"{{"repo": "{repo}", "args": ["--runtime", "local"]}}"#),
            "--runtime is set by the service, not by a job",
        ),
        (
            &format!(r#"{{"repo": "{repo}", "args": ["--no-such-flag"]}}"#),
            "unexpected argument '--no-such-flag' found",
        ),
        (
            &format!(r#"{{"repo": "{repo}", "args": ["--trust-repo-config"]}}"#),
            "--trust-repo-config: this service trusts no repository's configuration ([serve] trust_repo_config = false)",
        ),
    ];
    for (body, message) in cases {
        let answer = route(&svc, "POST", "/reviews", body);
        assert_eq!(answer.status, 400, "{body}");
        let value: serde_json::Value = serde_json::from_str(&answer.body).expect("json");
        assert_eq!(value["error"], message, "{body}");
    }
    assert_eq!(route(&svc, "GET", "/reviews/job-7", "").status, 404);
    assert_eq!(route(&svc, "GET", "/reviews/job-7/result", "").status, 404);
    assert_eq!(route(&svc, "DELETE", "/reviews", "").status, 405);
    assert_eq!(route(&svc, "GET", "/nothing", "").status, 404);
    assert_eq!(route(&svc, "GET", "/reviews", "").body, "[]");
}

#[test]
fn metrics_count_jobs_by_status() {
    let dir = tempfile::tempdir().expect("dir");
    let svc = service(dir.path());
    let answer = route(&svc, "GET", "/metrics", "");
    assert_eq!(answer.status, 200);
    assert_eq!(
        answer.body,
        "# TYPE retake_serve_jobs gauge\n\
         retake_serve_jobs{status=\"queued\"} 0\n\
         retake_serve_jobs{status=\"running\"} 0\n\
         retake_serve_jobs{status=\"done\"} 0\n\
         retake_serve_jobs{status=\"failed\"} 0\n\
         # TYPE retake_serve_idle_workers gauge\n"
    );
}

#[test]
fn a_job_may_choose_the_rule_profile_and_a_wrong_one_is_named() {
    let dir = tempfile::tempdir().expect("dir");
    let job = |args: &[&str]| JobRequest {
        repo: dir.path().to_path_buf(),
        args: args.iter().map(|a| a.to_string()).collect(),
    };
    let args = review_args(&job(&["--profile", "pedantic"]), dir.path()).expect("valid");
    assert_eq!(args.profile, Some(protocol::message::RuleProfile::Pedantic));
    assert_eq!(
        review_args(&job(&[]), dir.path()).expect("valid").profile,
        None
    );
    let err = review_args(&job(&["--profile", "strict"]), dir.path()).expect_err("bad");
    assert!(
        err.contains("unknown rule profile 'strict' (expected default or pedantic)"),
        "{err}"
    );
}
