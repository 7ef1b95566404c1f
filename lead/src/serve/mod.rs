//! `retake serve`: the Lead as a long-lived service. Workers of the remote runtime register
//! with its [`WorkerPool`]; clients submit review jobs over HTTP (`http.rs`) and each job runs
//! as `retake review --runtime remote` would, on its own thread, at most `max_jobs` at once,
//! claiming registered workers. A job's result is the review's JSON report.
//!
//! The jobs are kept in `jobs.json` in the jobs folder (written atomically on every change): a
//! service restarted on the same folder — a Lead container restarted on its state volume —
//! resumes the jobs that were running (`retake resume`: journaled reports are not re-run) and
//! starts the queued ones.

pub mod http;
pub mod jobs;

use crate::cli::{Cli, Command};
use crate::commands::review::Failure;
use crate::runtime::remote::WorkerPool;
use clap::Parser;
use jobs::{JobRequest, Jobs, Status};
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, PoisonError};

/// Options a client may not set on a job: the service decides where and how it runs.
const RESERVED: [&str; 6] = [
    "--runtime",
    "--format",
    "--output",
    "--chaos",
    "--fault",
    "--answer",
];

/// The running service: its jobs, their output folders and the workers.
pub struct Service {
    jobs: Mutex<Jobs>,
    running: Mutex<usize>,
    freed: Condvar,
    max_jobs: usize,
    dir: PathBuf,
    pool: Arc<WorkerPool>,
    /// `[serve] trust_repo_config`: a job's repository file may set keys that run commands or
    /// send code or credentials (`config::UNTRUSTED_KEYS`), and a job may ask for
    /// `--trust-repo-config`.
    trust_repo_config: bool,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // Plain bookkeeping: still consistent after a panic elsewhere.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Service {
    /// A service writing job outputs under `dir`, running up to `max_jobs` reviews at once.
    /// The jobs a previous service left in `dir` are taken over: running ones resumed, queued
    /// ones started; a `jobs.json` that cannot be read is an error, never silently replaced.
    /// Unless `trust_repo_config`, jobs' repositories are untrusted (see the field).
    pub fn new(
        pool: Arc<WorkerPool>,
        dir: PathBuf,
        max_jobs: usize,
        trust_repo_config: bool,
    ) -> Result<Arc<Self>, String> {
        let saved: Vec<jobs::Job> = match std::fs::read_to_string(dir.join(JOBS_FILE)) {
            Ok(text) => serde_json::from_str(&text)
                .map_err(|e| format!("{}: {e}", dir.join(JOBS_FILE).display()))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(format!("{}: {e}", dir.join(JOBS_FILE).display())),
        };
        let service = Arc::new(Service {
            jobs: Mutex::new(Jobs::restore(saved.clone())),
            running: Mutex::new(0),
            freed: Condvar::new(),
            max_jobs: max_jobs.max(1),
            dir,
            pool,
            trust_repo_config,
        });
        for job in saved {
            let resume = match job.status {
                Status::Running => true,
                Status::Queued => false,
                Status::Done | Status::Failed => continue,
            };
            tracing::info!(
                id = job.id,
                resume,
                "taking over a job of the previous service"
            );
            let request = JobRequest {
                repo: job.repo,
                args: job.args,
            };
            service.spawn_job(job.id, request, resume)?;
        }
        Ok(service)
    }

    fn spawn_job(
        self: &Arc<Self>,
        id: String,
        request: JobRequest,
        resume: bool,
    ) -> Result<(), String> {
        let service = Arc::clone(self);
        std::thread::Builder::new()
            .name(id.clone())
            .spawn(move || service.run(&id, &request, resume))
            .map(|_| ())
            .map_err(|e| format!("cannot start the job: {e}"))
    }

    /// Writes `jobs.json` atomically (best effort: a failure is logged, the service goes on).
    fn save(&self, jobs: &Jobs) {
        let list: Vec<&jobs::Job> = jobs.list();
        let written = serde_json::to_vec_pretty(&list)
            .map_err(std::io::Error::other)
            .and_then(|bytes| crate::journal::write_atomic(&self.dir.join(JOBS_FILE), &bytes));
        if let Err(e) = written {
            tracing::warn!(error = %e, "cannot write jobs.json");
        }
    }

    /// Applies `change` to the jobs and saves them.
    fn update(&self, change: impl FnOnce(&mut Jobs)) {
        let mut jobs = lock(&self.jobs);
        change(&mut jobs);
        self.save(&jobs);
    }

    /// Checks a request and queues it; the message says what is wrong with a bad one.
    pub fn submit(self: &Arc<Self>, request: JobRequest) -> Result<jobs::Job, String> {
        if let Some(bad) = request
            .args
            .iter()
            .find(|a| RESERVED.iter().any(|r| a.split('=').next() == Some(*r)))
        {
            return Err(format!("{bad} is set by the service, not by a job"));
        }
        if !self.trust_repo_config && request.args.iter().any(|a| a == "--trust-repo-config") {
            return Err(
                "--trust-repo-config: this service trusts no repository's configuration ([serve] trust_repo_config = false)"
                    .into(),
            );
        }
        if !request.repo.is_absolute() || !request.repo.is_dir() {
            return Err(format!(
                "repo '{}' is not an absolute path to a folder the service can read",
                request.repo.display()
            ));
        }
        // Parsed now, so that a bad option is the client's 400 and not a failed job later.
        review_args(&request, &self.dir.join("check"))?;
        let mut id = String::new();
        self.update(|jobs| id = jobs.submit(request.clone()));
        self.spawn_job(id.clone(), request, false)?;
        lock(&self.jobs)
            .get(&id)
            .cloned()
            .ok_or_else(|| "the job vanished".to_string())
    }

    /// The job `id`.
    pub fn job(&self, id: &str) -> Option<jobs::Job> {
        lock(&self.jobs).get(id).cloned()
    }

    /// Every job.
    pub fn list(&self) -> Vec<jobs::Job> {
        lock(&self.jobs).list().into_iter().cloned().collect()
    }

    /// The JSON report of a finished job: `Err` says why there is none (yet).
    pub fn result(&self, id: &str) -> Option<Result<String, String>> {
        let job = self.job(id)?;
        Some(match job.status {
            Status::Done => std::fs::read_to_string(self.dir.join(id).join("retake.json"))
                .map_err(|e| format!("the report of {id} cannot be read: {e}")),
            Status::Failed => Err(format!("{id} failed: {}", job.error.unwrap_or_default())),
            Status::Queued | Status::Running => Err(format!("{id} has not finished")),
        })
    }

    /// The Prometheus text of the service: jobs by status, idle workers by kind.
    pub fn metrics(&self) -> String {
        let mut out = String::from("# TYPE retake_serve_jobs gauge\n");
        {
            let jobs = lock(&self.jobs);
            for (status, name) in [
                (Status::Queued, "queued"),
                (Status::Running, "running"),
                (Status::Done, "done"),
                (Status::Failed, "failed"),
            ] {
                out.push_str(&format!(
                    "retake_serve_jobs{{status=\"{name}\"}} {}\n",
                    jobs.count(status)
                ));
            }
        }
        out.push_str("# TYPE retake_serve_idle_workers gauge\n");
        for (kind, n) in self.pool.idle_counts() {
            let (role, kind) = kind.split_once('/').unwrap_or((kind.as_str(), ""));
            out.push_str(&format!(
                "retake_serve_idle_workers{{role=\"{role}\",kind=\"{kind}\"}} {n}\n"
            ));
        }
        out
    }

    fn run(&self, id: &str, request: &JobRequest, resume: bool) {
        {
            let mut running = lock(&self.running);
            while *running >= self.max_jobs {
                running = self
                    .freed
                    .wait(running)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            *running += 1;
        }
        self.update(|jobs| jobs.start(id));
        let out_dir = self.dir.join(id);
        tracing::info!(id, repo = %request.repo.display(), resume, "job started");
        let outcome = if resume {
            let args = crate::cli::ResumeArgs {
                path: Some(request.repo.clone()),
                // A job has no one to ask.
                yes: true,
                no_discuss: false,
                output: json_output(&out_dir),
                trust_repo_config: false,
                untrusted_repo: !self.trust_repo_config,
            };
            crate::commands::resume::run(args)
        } else {
            review_args(request, &out_dir)
                .map_err(|message| Failure {
                    code: 2,
                    error: anyhow::anyhow!(message),
                })
                .and_then(|mut args| {
                    args.untrusted_repo = !self.trust_repo_config;
                    crate::commands::review::run(args)
                })
        };
        match outcome {
            Ok(code) => {
                let verdict = std::fs::read_to_string(out_dir.join("retake.json"))
                    .ok()
                    .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
                    .and_then(|v| v["verdict"].as_str().map(str::to_string));
                tracing::info!(id, code, verdict, "job done");
                self.update(|jobs| jobs.finish(id, code, verdict));
            }
            Err(Failure { code, error }) => {
                let message = format!("{error:#}");
                tracing::warn!(id, code, message, "job failed");
                self.update(|jobs| jobs.fail(id, code, message));
            }
        }
        *lock(&self.running) -= 1;
        self.freed.notify_one();
    }
}

/// Where the service keeps its jobs, in the jobs folder.
const JOBS_FILE: &str = "jobs.json";

/// Output options writing the JSON report into `out_dir` and nothing to standard output.
fn json_output(out_dir: &std::path::Path) -> crate::cli::OutputArgs {
    crate::cli::OutputArgs {
        format: vec![crate::cli::Format::Json],
        output_dir: Some(out_dir.to_path_buf()),
        strict: false,
        fail_level: crate::cli::FailLevel::None,
        baseline: None,
        new_only: false,
    }
}

/// `retake review` arguments for a job writing its JSON report into `out_dir`.
fn review_args(
    request: &JobRequest,
    out_dir: &std::path::Path,
) -> Result<crate::cli::ReviewArgs, String> {
    let mut argv: Vec<String> = vec!["retake".into(), "review".into()];
    argv.push(request.repo.display().to_string());
    argv.extend(request.args.iter().cloned());
    argv.extend(["--runtime", "remote", "--format", "json", "--output"].map(String::from));
    argv.push(out_dir.display().to_string());
    match Cli::try_parse_from(&argv) {
        Ok(Cli {
            command: Command::Review(args),
            ..
        }) => Ok(args),
        Ok(_) => Err("not a review".into()),
        Err(e) => Err(e
            .to_string()
            .lines()
            .next()
            .unwrap_or("bad options")
            .trim_start_matches("error: ")
            .to_string()),
    }
}

#[cfg(test)]
mod tests;
