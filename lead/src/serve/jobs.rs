//! The review jobs of `retake serve`: what a client submits, the job's life (queued → running →
//! done or failed) and what the API shows of it. Pure bookkeeping; running a job is `mod.rs`'s.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// A job as submitted: `POST /reviews` with this JSON body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobRequest {
    /// The repository, as a path on the volume the Lead and the workers share.
    pub repo: PathBuf,
    /// `retake review` options for the scope and the gate (`--paths`, `--base`, `--feature`,
    /// `--no-exec`, `--strict`, …); the runtime is always remote and the output JSON.
    #[serde(default)]
    pub args: Vec<String>,
    /// A git URL to clone into `repo` (a folder that does not exist yet) before the review.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clone: Option<String>,
}

impl Job {
    /// The job as the jobs page lists it.
    pub fn line(&self) -> protocol::live::JobLine {
        protocol::live::JobLine {
            id: self.id.clone(),
            repo: self.repo.display().to_string(),
            status: self.status.name().into(),
            verdict: self.verdict.clone(),
            exit_code: self.exit_code,
            error: self.error.clone(),
        }
    }
}

impl Status {
    /// `queued`, `running`, `done`, `failed`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Queued => "queued",
            Status::Running => "running",
            Status::Done => "done",
            Status::Failed => "failed",
        }
    }
}

/// Where a job is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Accepted, not started.
    Queued,
    /// Its review runs.
    Running,
    /// Its review produced a verdict (whatever the verdict).
    Done,
    /// Its review could not produce a verdict (bad scope, locked repository, no workers).
    Failed,
}

/// One job as the API shows it (and as `jobs.json` keeps it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Job {
    /// `job-N`, in submission order.
    pub id: String,
    /// The request's repository.
    pub repo: PathBuf,
    /// The request's options.
    pub args: Vec<String>,
    /// The request's URL to clone into `repo` first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clone: Option<String>,
    /// Where it is.
    pub status: Status,
    /// `retake review`'s exit code once done (0 pass, 1 NO-GO, 3 CONDITIONAL under --strict, 4).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<u8>,
    /// The verdict once done (`GO`, `NO-GO`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
    /// Why it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Every job of the service, by id.
#[derive(Debug, Default)]
pub struct Jobs {
    next: u64,
    jobs: BTreeMap<u64, Job>,
}

impl Jobs {
    /// Records a new queued job and returns its id.
    pub fn submit(&mut self, request: JobRequest) -> String {
        self.next += 1;
        let id = format!("job-{}", self.next);
        self.jobs.insert(
            self.next,
            Job {
                id: id.clone(),
                repo: request.repo,
                args: request.args,
                clone: request.clone,
                status: Status::Queued,
                exit_code: None,
                verdict: None,
                error: None,
            },
        );
        id
    }

    /// The job `id` (`job-N`).
    pub fn get(&self, id: &str) -> Option<&Job> {
        self.jobs.get(&number(id)?)
    }

    /// Every job, oldest first.
    pub fn list(&self) -> Vec<&Job> {
        self.jobs.values().collect()
    }

    /// How many jobs are in `status`.
    pub fn count(&self, status: Status) -> usize {
        self.jobs.values().filter(|j| j.status == status).count()
    }

    /// Marks `id` running.
    pub fn start(&mut self, id: &str) {
        if let Some(job) = self.get_mut(id) {
            job.status = Status::Running;
        }
    }

    /// Marks `id` done with the review's exit code and verdict.
    pub fn finish(&mut self, id: &str, exit_code: u8, verdict: Option<String>) {
        if let Some(job) = self.get_mut(id) {
            job.status = Status::Done;
            job.exit_code = Some(exit_code);
            job.verdict = verdict;
        }
    }

    /// Marks `id` failed with the reason and the exit code `retake review` would have given.
    pub fn fail(&mut self, id: &str, exit_code: u8, error: String) {
        if let Some(job) = self.get_mut(id) {
            job.status = Status::Failed;
            job.exit_code = Some(exit_code);
            job.error = Some(error);
        }
    }

    fn get_mut(&mut self, id: &str) -> Option<&mut Job> {
        self.jobs.get_mut(&number(id)?)
    }

    /// The jobs a previous service left, as its `jobs.json` listed them: numbering goes on
    /// after the highest id.
    pub fn restore(saved: Vec<Job>) -> Jobs {
        let jobs: BTreeMap<u64, Job> = saved
            .into_iter()
            .filter_map(|j| Some((number(&j.id)?, j)))
            .collect();
        let next = jobs.keys().next_back().copied().unwrap_or(0);
        Jobs { next, jobs }
    }
}

fn number(id: &str) -> Option<u64> {
    id.strip_prefix("job-")?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(repo: &str) -> JobRequest {
        JobRequest {
            repo: repo.into(),
            args: vec!["--no-exec".into()],
            clone: None,
        }
    }

    #[test]
    fn jobs_move_from_queued_to_done_or_failed() {
        let mut jobs = Jobs::default();
        let a = jobs.submit(request("/repo/a"));
        let b = jobs.submit(request("/repo/b"));
        assert_eq!((a.as_str(), b.as_str()), ("job-1", "job-2"));
        assert_eq!(jobs.count(Status::Queued), 2);
        jobs.start(&a);
        jobs.start(&b);
        jobs.finish(&a, 1, Some("NO-GO".into()));
        jobs.fail(&b, 2, "another Lead holds /repo/b".into());
        let shown: Vec<(Status, Option<u8>)> = jobs
            .list()
            .iter()
            .map(|j| (j.status, j.exit_code))
            .collect();
        assert_eq!(
            shown,
            vec![(Status::Done, Some(1)), (Status::Failed, Some(2))]
        );
        assert_eq!(
            jobs.get("job-1").and_then(|j| j.verdict.clone()),
            Some("NO-GO".into())
        );
        assert!(jobs.get("job-9").is_none() && jobs.get("nine").is_none());
    }

    #[test]
    fn restored_jobs_keep_their_state_and_numbering_goes_on() {
        let mut jobs = Jobs::default();
        let a = jobs.submit(request("/repo/a"));
        jobs.start(&a);
        let saved: Vec<Job> = jobs.list().into_iter().cloned().collect();
        let text = serde_json::to_string(&saved).expect("json");
        let mut again = Jobs::restore(serde_json::from_str(&text).expect("parse"));
        assert_eq!(again.get("job-1").map(|j| j.status), Some(Status::Running));
        assert_eq!(again.submit(request("/repo/b")), "job-2");
    }

    #[test]
    fn a_request_is_plain_json_and_unknown_fields_are_refused() {
        let ok: JobRequest =
            serde_json::from_str(r#"{"repo": "/repo", "args": ["--paths", "src/**"]}"#)
                .expect("valid");
        assert_eq!(ok.args, vec!["--paths", "src/**"]);
        let bare: JobRequest = serde_json::from_str(r#"{"repo": "/repo"}"#).expect("valid");
        assert!(bare.args.is_empty());
        let err = serde_json::from_str::<JobRequest>(r#"{"repo": "/r", "runtime": "local"}"#)
            .expect_err("unknown field");
        assert!(
            err.to_string().starts_with("unknown field `runtime`"),
            "{err}"
        );
        let shown = serde_json::to_value(Job {
            id: "job-1".into(),
            repo: "/r".into(),
            args: Vec::new(),
            clone: None,
            status: Status::Running,
            exit_code: None,
            verdict: None,
            error: None,
        })
        .expect("json");
        assert_eq!(
            shown,
            serde_json::json!({"id": "job-1", "repo": "/r", "args": [], "status": "running"})
        );
    }
}
