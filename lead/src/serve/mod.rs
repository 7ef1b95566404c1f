//! `retake serve`: the Lead as a long-lived service. Workers of the remote runtime register
//! with its [`WorkerPool`]; clients submit review jobs over HTTP (`server.rs` serves what
//! `http.rs` routes) and each job runs as `retake review --runtime remote` would. Submitted jobs
//! wait in a bounded queue (a full one is the client's 429) and take no thread while they wait:
//! `max_jobs` runner threads take them in order. A job's result is the review's JSON report.
//!
//! Only a client holding the API token may submit or read jobs (`auth.rs`), and a job reaches
//! only a repository under the service's repositories root and files inside that repository
//! (`confine.rs`).
//!
//! The jobs are kept in `jobs.json` in the jobs folder (written atomically on every change): a
//! service restarted on the same folder — a Lead container restarted on its state volume —
//! resumes the jobs that were running (`retake resume`: journaled reports are not re-run) and
//! starts the queued ones.

mod args;
pub mod confine;
pub mod http;
pub mod jobs;
pub mod server;

use crate::auth::ApiToken;
use crate::cli::{ResumeArgs, ReviewArgs};
use crate::exit::{Failure, Reviewed};
use args::{clone_scheme, job_args, json_output, review_args};
use confine::{Refusal, ReposRoot};
use host::remote::{WorkerCount, WorkerPool};
use jobs::{JobRequest, Jobs, Status};
use outputs::ExitCode;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, PoisonError};

/// The workers a review needs: one per Inspector kind and the Auditor (`role`, `kind`).
fn needed() -> Vec<(&'static str, &'static str)> {
    protocol::InspectorKind::ALL
        .iter()
        .map(|k| ("inspector", k.as_str()))
        .chain([("auditor", "")])
        .collect()
}

/// The worker metrics: name, Prometheus type, the count it shows.
type Pick = fn(&WorkerCount) -> u64;
const WORKER_METRICS: [(&str, &str, Pick); 3] = [
    ("retake_serve_idle_workers", "gauge", |c| c.idle as u64),
    ("retake_serve_busy_workers", "gauge", |c| c.busy as u64),
    ("retake_serve_lost_workers_total", "counter", |c| c.lost),
];

/// Options a client may not set on a job: the service decides where and how it runs.
const RESERVED: [&str; 6] = [
    "--runtime",
    "--format",
    "--output",
    "--chaos",
    "--fault",
    "--answer",
];

/// How the service runs and whom it serves.
#[derive(Debug)]
pub struct Options {
    /// Reviews run at once (runner threads).
    pub max_jobs: usize,
    /// Jobs that may wait in the queue; one more is refused (429).
    pub max_queued: usize,
    /// `[serve] trust_repo_config`: a job's repository file may set keys that run commands or
    /// send code or credentials (`config::UNTRUSTED_KEYS`), and a job may ask for
    /// `--trust-repo-config`.
    pub trust_repo_config: bool,
    /// Where jobs' repositories must be.
    pub repos: ReposRoot,
    /// The bearer token of the job API; `None` leaves it open (loopback only, `auth.rs`).
    pub token: Option<ApiToken>,
    /// The URL schemes a job may clone from (`[serve] clone_schemes`, default `https`).
    pub clone_schemes: Vec<String>,
    /// What runs a job.
    pub runners: Runners,
}

/// What runs a job once its arguments are checked: `retake review` and `retake resume`, handed
/// in by the command (`commands::serve`), so the service sits below the commands layer.
#[derive(Debug, Clone, Copy)]
pub struct Runners {
    /// Runs a review.
    pub review: fn(ReviewArgs) -> Result<Reviewed, Failure>,
    /// Resumes a run a previous service left unfinished.
    pub resume: fn(ResumeArgs) -> Result<Reviewed, Failure>,
}

/// Why a job was not accepted: the HTTP status and the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejected {
    /// 400 bad request, 403 outside the root, 429 queue full, 500 the service failed.
    pub status: u16,
    /// What the client is told.
    pub message: String,
}

impl Rejected {
    fn bad(message: impl Into<String>) -> Rejected {
        Rejected {
            status: 400,
            message: message.into(),
        }
    }
}

impl From<Refusal> for Rejected {
    fn from(refusal: Refusal) -> Rejected {
        Rejected {
            status: refusal.status(),
            message: refusal.message().to_string(),
        }
    }
}

/// The running service: its jobs, their queue, their output folders and the workers.
pub struct Service {
    jobs: Mutex<Jobs>,
    /// Jobs waiting for a runner: id, and whether to resume it.
    queue: Mutex<VecDeque<(String, bool)>>,
    queued: Condvar,
    dir: PathBuf,
    pool: Arc<WorkerPool>,
    options: Options,
    /// The jobs page and each job's live view.
    pages: crate::dashboard::jobs::Pages,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // Plain bookkeeping: still consistent after a panic elsewhere.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Service {
    /// A service writing job outputs under `dir`, which will run up to `options.max_jobs`
    /// reviews at once once [`start`](Self::start)ed. The jobs a previous service left in
    /// `dir` are taken over: running ones resumed first, then the queued ones; a `jobs.json`
    /// that cannot be read is an error, never silently replaced.
    pub fn new(pool: Arc<WorkerPool>, dir: PathBuf, options: Options) -> Result<Arc<Self>, String> {
        let saved: Vec<jobs::Job> = match std::fs::read_to_string(dir.join(JOBS_FILE)) {
            Ok(text) => serde_json::from_str(&text)
                .map_err(|e| format!("{}: {e}", dir.join(JOBS_FILE).display()))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(format!("{}: {e}", dir.join(JOBS_FILE).display())),
        };
        let mut queue = VecDeque::new();
        for resume in [true, false] {
            let status = if resume {
                Status::Running
            } else {
                Status::Queued
            };
            for job in saved.iter().filter(|j| j.status == status) {
                tracing::info!(
                    id = job.id,
                    resume,
                    "taking over a job of the previous service"
                );
                queue.push_back((job.id.clone(), resume));
            }
        }
        let service = Service {
            jobs: Mutex::new(Jobs::restore(saved)),
            queue: Mutex::new(queue),
            queued: Condvar::new(),
            dir,
            pool,
            options,
            pages: Default::default(),
        };
        service.pages.jobs_changed(lines(&lock(&service.jobs)));
        Ok(Arc::new(service))
    }

    /// Starts the `max_jobs` runner threads that take queued jobs; until then jobs only queue.
    pub fn start(self: &Arc<Self>) -> Result<(), String> {
        for n in 0..self.options.max_jobs.max(1) {
            let runner = Arc::clone(self);
            std::thread::Builder::new()
                .name(format!("serve-runner-{n}"))
                .spawn(move || runner.take_jobs())
                .map_err(|e| format!("cannot start a job runner: {e}"))?;
        }
        Ok(())
    }

    /// The API token, if the service has one.
    pub fn token(&self) -> Option<&ApiToken> {
        self.options.token.as_ref()
    }

    /// Writes `jobs.json` atomically (best effort: a failure is logged, the service goes on).
    fn save(&self, jobs: &Jobs) {
        let list: Vec<&jobs::Job> = jobs.list();
        let written = serde_json::to_vec_pretty(&list)
            .map_err(std::io::Error::other)
            .and_then(|bytes| host::journal::write_atomic(&self.dir.join(JOBS_FILE), &bytes));
        if let Err(e) = written {
            tracing::warn!(error = %e, "cannot write jobs.json");
        }
    }

    /// The jobs page and each job's live view.
    pub fn pages(&self) -> &crate::dashboard::jobs::Pages {
        &self.pages
    }

    /// Applies `change` to the jobs, saves them and shows them on the jobs page.
    fn update(&self, change: impl FnOnce(&mut Jobs)) {
        let mut jobs = lock(&self.jobs);
        change(&mut jobs);
        self.save(&jobs);
        self.pages.jobs_changed(lines(&jobs));
    }

    /// Checks a request and queues it; the rejection says what is wrong with a bad one.
    pub fn submit(&self, request: JobRequest) -> Result<jobs::Job, Rejected> {
        if let Some(bad) = request
            .args
            .iter()
            .find(|a| RESERVED.iter().any(|r| a.split('=').next() == Some(*r)))
        {
            return Err(Rejected::bad(format!(
                "{bad} is set by the service, not by a job"
            )));
        }
        if !self.options.trust_repo_config
            && request.args.iter().any(|a| a == "--trust-repo-config")
        {
            return Err(Rejected::bad(
                "--trust-repo-config: this service trusts no repository's configuration ([serve] trust_repo_config = false)",
            ));
        }
        // Checked now, so that a bad option is the client's 400 (or 403) and not a failed job.
        let check = self.dir.join("check");
        let repo = match &request.clone {
            Some(url) => {
                let target = self.options.repos.new_folder(&request.repo)?;
                clone_scheme(url, &self.options.clone_schemes).map_err(Rejected::bad)?;
                // The rest (--base, --baseline) is checked once the clone is there.
                review_args(&target, &request.args, &check).map_err(Rejected::bad)?;
                target
            }
            None => job_args(&self.options.repos, &request, &check)?.0,
        };
        let request = JobRequest { repo, ..request };
        let mut queue = lock(&self.queue);
        if queue.len() >= self.options.max_queued {
            return Err(Rejected {
                status: 429,
                message: format!(
                    "the queue is full ({} waiting, --max-queued); try again later",
                    queue.len()
                ),
            });
        }
        let mut id = String::new();
        self.update(|jobs| id = jobs.submit(request));
        queue.push_back((id.clone(), false));
        self.queued.notify_one();
        drop(queue);
        self.job(&id).ok_or_else(|| Rejected {
            status: 500,
            message: "the job vanished".into(),
        })
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

    /// The Prometheus text of the service: jobs by status; workers by role and kind (every
    /// kind a review needs, 0 included), idle, busy, and lost while idle.
    pub fn metrics(&self) -> String {
        let mut out = String::from("# TYPE retake_serve_jobs gauge\n");
        {
            let jobs = lock(&self.jobs);
            for status in [
                Status::Queued,
                Status::Running,
                Status::Done,
                Status::Failed,
            ] {
                out.push_str(&format!(
                    "retake_serve_jobs{{status=\"{}\"}} {}\n",
                    status.name(),
                    jobs.count(status)
                ));
            }
        }
        let counts = self.pool.worker_counts(&needed());
        for (metric, kind, pick) in WORKER_METRICS {
            out.push_str(&format!("# TYPE {metric} {kind}\n"));
            for c in &counts {
                out.push_str(&format!(
                    "{metric}{{role=\"{}\",kind=\"{}\"}} {}\n",
                    c.role,
                    c.kind,
                    pick(c)
                ));
            }
        }
        out
    }

    /// Whether the service can take a job now: `Err` names what is missing — a jobs folder it
    /// cannot write, or a kind a review needs with no live worker.
    pub fn ready(&self) -> Result<(), String> {
        let probe = self.dir.join(".ready-probe");
        std::fs::write(&probe, b"")
            .and_then(|()| std::fs::remove_file(&probe))
            .map_err(|e| {
                format!(
                    "the jobs folder {} is not writable: {e}",
                    self.dir.display()
                )
            })?;
        let missing: Vec<String> = self
            .pool
            .worker_counts(&needed())
            .into_iter()
            .filter(|c| c.idle + c.busy == 0)
            .map(|c| {
                if c.kind.is_empty() {
                    c.role
                } else {
                    format!("{} {}", c.role, c.kind)
                }
            })
            .collect();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(format!("no live worker: {}", missing.join(", ")))
        }
    }

    /// A runner thread: takes queued jobs in order, one at a time, for the life of the process.
    fn take_jobs(&self) {
        loop {
            let (id, resume) = {
                let mut queue = lock(&self.queue);
                loop {
                    if let Some(next) = queue.pop_front() {
                        break next;
                    }
                    queue = self
                        .queued
                        .wait(queue)
                        .unwrap_or_else(PoisonError::into_inner);
                }
            };
            if let Some(job) = self.job(&id) {
                let request = JobRequest {
                    repo: job.repo,
                    args: job.args,
                    clone: job.clone,
                };
                self.run(&id, &request, resume);
            }
        }
    }

    /// Clones a job's URL into its folder (refused if the folder appeared meanwhile, unless a
    /// resumed job finds its own clone there).
    fn cloned(&self, request: &JobRequest, resume: bool) -> Result<(), String> {
        let Some(url) = &request.clone else {
            return Ok(());
        };
        if resume && request.repo.is_dir() {
            return Ok(());
        }
        let target = self
            .options
            .repos
            .new_folder(&request.repo)
            .map_err(|r| r.message().to_string())?;
        let scheme = clone_scheme(url, &self.options.clone_schemes)?;
        let (Some(parent), Some(name)) = (target.parent(), target.file_name()) else {
            return Err(format!(
                "repo '{}': not a folder to clone into",
                target.display()
            ));
        };
        let allow = format!("protocol.{scheme}.allow=always");
        let name = name.to_string_lossy();
        tracing::info!(url, repo = %target.display(), "cloning the job's repository");
        protocol::exec::git::git(
            parent,
            &["-c", &allow, "clone", "--quiet", "--", url, &name],
        )
        .map(drop)
        .map_err(|e| format!("clone '{url}': {e}"))
    }

    fn run(&self, id: &str, request: &JobRequest, resume: bool) {
        self.update(|jobs| jobs.start(id));
        let out_dir = self.dir.join(id);
        tracing::info!(id, repo = %request.repo.display(), resume, "job started");
        let untrusted_repo = !self.options.trust_repo_config;
        // Confined again: the folder may have changed since the job was accepted.
        let outcome = self
            .cloned(request, resume)
            .map_err(|message| Failure {
                code: ExitCode::Error,
                error: anyhow::anyhow!(message),
            })
            .and_then(|()| {
                job_args(&self.options.repos, request, &out_dir).map_err(|r| Failure {
                    code: ExitCode::Error,
                    error: anyhow::anyhow!(r.message),
                })
            })
            .and_then(|(repo, mut args)| {
                if resume {
                    (self.options.runners.resume)(ResumeArgs {
                        path: Some(repo),
                        // A job has no one to ask.
                        yes: true,
                        no_discuss: false,
                        output: json_output(&out_dir),
                        trust_repo_config: false,
                        untrusted_repo,
                    })
                } else {
                    args.untrusted_repo = untrusted_repo;
                    let title = format!("{id} — {}", request.repo.display());
                    args.live = Some(self.pages.job_feed(id, title));
                    (self.options.runners.review)(args)
                }
            });
        self.pages.job_ended(
            id,
            match &outcome {
                Ok(r) => format!("exit {}", r.code.code()),
                Err(f) => format!("exit {}: {:#}", f.code.code(), f.error),
            },
        );
        match outcome {
            Ok(Reviewed { code, verdict, .. }) => {
                let verdict = verdict.map(|v| v.as_str().to_string());
                tracing::info!(id, code = code.code(), verdict, "job done");
                self.update(|jobs| jobs.finish(id, code.code(), verdict));
            }
            Err(Failure { code, error }) => {
                let message = format!("{error:#}");
                tracing::warn!(id, code = code.code(), message, "job failed");
                self.update(|jobs| jobs.fail(id, code.code(), message));
            }
        }
    }
}

/// The jobs as the jobs page lists them.
fn lines(jobs: &Jobs) -> Vec<protocol::live::JobLine> {
    jobs.list().into_iter().map(jobs::Job::line).collect()
}

/// Where the service keeps its jobs, in the jobs folder.
const JOBS_FILE: &str = "jobs.json";

#[cfg(test)]
mod tests;
