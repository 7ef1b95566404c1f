use super::http::{self, route};
use super::*;
use crate::auth::ApiToken;
use protocol::wire::{Secret, WireConfig};

const TOKEN: &str = "0123456789abcdef0123456789abcdef";

/// A service whose repositories root is `dir`, with the test token when `token`.
fn service_with(dir: &std::path::Path, token: bool, max_queued: usize) -> Arc<Service> {
    let pool =
        WorkerPool::start("127.0.0.1:0", Secret::generate(), WireConfig::default()).expect("pool");
    let options = Options {
        max_jobs: 2,
        max_queued,
        trust_repo_config: false,
        repos: ReposRoot::new(dir).expect("root"),
        token: token.then(|| ApiToken::parse(TOKEN, "test").expect("token")),
        clone_schemes: vec!["file".into()],
        runners: Runners {
            review: crate::commands::review::reviewed,
            resume: crate::commands::resume::reviewed,
        },
    };
    std::fs::create_dir_all(dir.join(".jobs")).expect("jobs folder");
    Service::new(pool, dir.join(".jobs"), options).expect("service")
}

/// Runs git in `dir` as a fixed test identity; a failing call fails the test.
fn git_in(dir: &std::path::Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
        .args(["-c", "commit.gpgsign=false"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git");
    assert!(out.status.success(), "{out:?}");
}

fn service(dir: &std::path::Path) -> Arc<Service> {
    service_with(dir, false, 100)
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
            "repo 'relative/path' is not a folder under the service's repositories root",
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
        let answer = route(&svc, "POST", "/reviews", None, body);
        assert_eq!(answer.status, 400, "{body}");
        let value: serde_json::Value = serde_json::from_str(&answer.body).expect("json");
        assert_eq!(value["error"], message, "{body}");
    }
    assert_eq!(route(&svc, "GET", "/reviews/job-7", None, "").status, 404);
    assert_eq!(
        route(&svc, "GET", "/reviews/job-7/result", None, "").status,
        404
    );
    assert_eq!(route(&svc, "DELETE", "/reviews", None, "").status, 405);
    assert_eq!(route(&svc, "GET", "/nothing", None, "").status, 404);
    assert_eq!(route(&svc, "GET", "/reviews", None, "").body, "[]");
}

#[test]
fn metrics_count_jobs_and_every_kind_of_worker_and_readyz_names_what_is_missing() {
    let dir = tempfile::tempdir().expect("dir");
    let svc = service(dir.path());
    let answer = route(&svc, "GET", "/metrics", None, "");
    assert_eq!(answer.status, 200);
    let workers = |metric: &str, kind: &str| {
        let mut text = format!("# TYPE {metric} {kind}\n");
        for k in [
            "rulebase",
            "interface",
            "test",
            "quality",
            "consistency",
            "holistic",
        ] {
            text.push_str(&format!("{metric}{{role=\"inspector\",kind=\"{k}\"}} 0\n"));
        }
        text + &format!("{metric}{{role=\"auditor\",kind=\"\"}} 0\n")
    };
    assert_eq!(
        answer.body,
        "# TYPE retake_serve_jobs gauge\n\
         retake_serve_jobs{status=\"queued\"} 0\n\
         retake_serve_jobs{status=\"running\"} 0\n\
         retake_serve_jobs{status=\"done\"} 0\n\
         retake_serve_jobs{status=\"failed\"} 0\n"
            .to_string()
            + &workers("retake_serve_idle_workers", "gauge")
            + &workers("retake_serve_busy_workers", "gauge")
            + &workers("retake_serve_lost_workers_total", "counter")
    );
    let ready = route(&svc, "GET", "/readyz", None, "");
    assert_eq!(
        (ready.status, ready.body.as_str()),
        (
            503,
            "no live worker: inspector rulebase, inspector interface, inspector test, inspector quality, inspector consistency, inspector holistic, auditor\n"
        )
    );
    assert_eq!(route(&svc, "GET", "/healthz", None, "").status, 200);
}

#[test]
fn readyz_fails_on_a_jobs_folder_it_cannot_write() {
    let dir = tempfile::tempdir().expect("dir");
    let svc = service(dir.path());
    std::fs::remove_dir_all(dir.path().join(".jobs")).ok();
    std::fs::write(dir.path().join(".jobs"), "a file, not a folder").expect("write");
    let err = svc.ready().expect_err("not writable");
    assert!(
        err.starts_with(&format!(
            "the jobs folder {} is not writable: ",
            dir.path().join(".jobs").display()
        )),
        "{err}"
    );
}

#[test]
fn a_job_may_choose_the_rule_profile_and_a_wrong_one_is_named() {
    let dir = tempfile::tempdir().expect("dir");
    let job = |args: &[&str]| JobRequest {
        repo: dir.path().to_path_buf(),
        args: args.iter().map(|a| a.to_string()).collect(),
        clone: None,
    };
    let repos = ReposRoot::new(dir.path()).expect("root");
    let (_, args) = job_args(&repos, &job(&["--profile", "pedantic"]), dir.path()).expect("valid");
    assert_eq!(args.profile, Some(protocol::message::RuleProfile::Pedantic));
    assert!(
        args.output.report_to_log,
        "a job's report goes to the log, not the service's stdout"
    );
    assert_eq!(
        job_args(&repos, &job(&[]), dir.path())
            .expect("valid")
            .1
            .profile,
        None
    );
    let err = job_args(&repos, &job(&["--profile", "strict"]), dir.path()).expect_err("bad");
    assert_eq!(err.status, 400);
    assert!(
        err.message
            .contains("unknown rule profile 'strict' (expected default or pedantic)"),
        "{err:?}"
    );
}

#[test]
fn with_a_token_jobs_need_it_and_probes_do_not() {
    let dir = tempfile::tempdir().expect("dir");
    let svc = service_with(dir.path(), true, 100);
    let bearer = format!("Bearer {TOKEN}");
    for (method, path) in [
        ("GET", "/reviews"),
        ("POST", "/reviews"),
        ("GET", "/reviews/job-1"),
        ("GET", "/nothing"),
    ] {
        let answer = route(&svc, method, path, Some("Bearer wrong"), "{}");
        assert_eq!(answer.status, 401, "{method} {path}");
        assert_eq!(
            answer.body,
            "{\n  \"error\": \"a bearer token is required (Authorization: Bearer TOKEN)\"\n}"
        );
    }
    assert_eq!(
        route(&svc, "GET", "/reviews", Some(&bearer), "").status,
        200
    );
    // Open without the token (the service has no workers, so it is not ready).
    for (probe, status) in [("/healthz", 200), ("/readyz", 503), ("/metrics", 200)] {
        assert_eq!(
            route(&svc, "GET", probe, None, "").status,
            status,
            "{probe}"
        );
    }
}

#[test]
fn a_job_reaches_only_the_root_and_files_of_its_repository() {
    let top = tempfile::tempdir().expect("dir");
    let root = top.path().join("repos");
    std::fs::create_dir_all(root.join("shop")).expect("mkdir");
    std::fs::write(root.join("shop/base.json"), "{}").expect("write");
    std::os::unix::fs::symlink(top.path(), root.join("up")).expect("symlink");
    let svc = service(&root);
    let post = |body: serde_json::Value| route(&svc, "POST", "/reviews", None, &body.to_string());
    let outside = [
        (
            top.path().display().to_string(),
            "repo '{}' is outside the service's repositories root",
        ),
        (
            format!("{}/shop/../..", root.display()),
            "repo '{}' is outside the service's repositories root",
        ),
        (
            format!("{}/up", root.display()),
            "repo '{}' is outside the service's repositories root",
        ),
    ];
    for (repo, message) in outside {
        let answer = post(serde_json::json!({ "repo": repo }));
        assert_eq!(answer.status, 403, "{repo}");
        let value: serde_json::Value = serde_json::from_str(&answer.body).expect("json");
        assert_eq!(value["error"], message.replace("{}", &repo));
    }
    let answer = post(serde_json::json!({ "repo": "shop", "args": ["--baseline", "/etc/passwd"] }));
    assert_eq!(answer.status, 403);
    assert!(
        answer
            .body
            .contains("--baseline '/etc/passwd' is outside the job's repository"),
        "{}",
        answer.body
    );
    let answer = post(
        serde_json::json!({ "repo": "shop", "args": ["--baseline", "base.json", "--no-exec"] }),
    );
    assert_eq!(answer.status, 202, "{}", answer.body);
    let job: serde_json::Value = serde_json::from_str(&answer.body).expect("json");
    let real = root.canonicalize().expect("canonical").join("shop");
    assert_eq!(job["repo"], real.display().to_string());
}

#[test]
fn a_full_queue_refuses_the_next_job() {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::create_dir_all(dir.path().join("a")).expect("mkdir");
    // Not started: nothing takes the queued job.
    let svc = service_with(dir.path(), false, 1);
    let body = r#"{"repo": "a", "args": ["--no-exec"]}"#;
    let first = route(&svc, "POST", "/reviews", None, body);
    assert_eq!(first.status, 202, "{}", first.body);
    let refused = route(&svc, "POST", "/reviews", None, body);
    assert_eq!(refused.status, 429);
    let value: serde_json::Value = serde_json::from_str(&refused.body).expect("json");
    assert_eq!(
        value["error"],
        "the queue is full (1 waiting, --max-queued); try again later"
    );
    assert_eq!(svc.list().len(), 1, "the refused job is not kept");
    assert_eq!(
        svc.job("job-1").map(|j| j.status),
        Some(jobs::Status::Queued)
    );
}

#[test]
fn a_base_the_repository_does_not_have_is_refused_at_submission() {
    let dir = tempfile::tempdir().expect("dir");
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(&repo).expect("mkdir");
    std::fs::write(repo.join("a.txt"), "a\n").expect("write");
    let svc = service(dir.path());
    let post = |base: &str| {
        let body = serde_json::json!({ "repo": "repo", "args": ["--no-exec", "--base", base] });
        route(&svc, "POST", "/reviews", None, &body.to_string())
    };
    let error = |answer: http::Answer| -> (u16, String) {
        let value: serde_json::Value = serde_json::from_str(&answer.body).expect("json");
        (
            answer.status,
            value["error"].as_str().unwrap_or_default().to_string(),
        )
    };
    // Not a git repository yet.
    assert_eq!(
        error(post("HEAD~1")),
        (
            400,
            "--base 'HEAD~1': not a commit of the job's repository".to_string()
        )
    );
    let git = |args: &[&str]| git_in(&repo, args);
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "one"]);
    assert_eq!(
        error(post("HEAD~1")),
        (
            400,
            "--base 'HEAD~1': not a commit of the job's repository".to_string()
        )
    );
    git(&["commit", "-q", "--allow-empty", "-m", "two"]);
    assert_eq!(post("HEAD~1").status, 202);
}

#[test]
fn a_job_may_clone_its_repository_into_a_new_folder_from_an_allowed_scheme() {
    let top = tempfile::tempdir().expect("dir");
    let origin = top.path().join("origin");
    std::fs::create_dir_all(&origin).expect("mkdir");
    std::fs::write(origin.join("lib.rs"), "pub fn a() {}\n").expect("write");
    let git = |args: &[&str]| git_in(&origin, args);
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "one"]);
    let root = top.path().join("repos");
    std::fs::create_dir_all(&root).expect("mkdir");
    let svc = service(&root);
    let url = format!("file://{}", origin.display());
    let post = |body: serde_json::Value| route(&svc, "POST", "/reviews", None, &body.to_string());
    let refused =
        post(serde_json::json!({"repo": "app", "clone": "https://example.invalid/app.git"}));
    assert_eq!(refused.status, 400);
    assert!(
        refused.body.contains("clone 'https://example.invalid/app.git': only file URLs may be cloned ([serve] clone_schemes)"),
        "{}",
        refused.body
    );
    let scp = post(serde_json::json!({"repo": "app", "clone": "git@example.invalid:app.git"}));
    assert_eq!(scp.status, 400, "{}", scp.body);
    assert_eq!(
        post(serde_json::json!({"repo": "../app", "clone": url})).status,
        403
    );
    let accepted = post(serde_json::json!({"repo": "app", "clone": url, "args": ["--no-exec"]}));
    assert_eq!(accepted.status, 202, "{}", accepted.body);
    let job = svc.job("job-1").expect("job");
    let request = JobRequest {
        repo: job.repo.clone(),
        args: job.args,
        clone: job.clone,
    };
    assert_eq!(
        request.repo,
        root.canonicalize().expect("canonical").join("app")
    );
    svc.cloned(&request, false).expect("cloned");
    assert_eq!(
        std::fs::read_to_string(request.repo.join("lib.rs")).expect("cloned file"),
        "pub fn a() {}\n"
    );
    // A second clone into the same folder fails; a resumed job keeps its clone.
    let again = svc.cloned(&request, false).expect_err("exists");
    assert!(again.contains("exists already"), "{again}");
    svc.cloned(&request, true).expect("resumed: its own clone");
}
