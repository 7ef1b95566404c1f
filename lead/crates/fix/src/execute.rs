//! Staged execution: the stages in order, each stage's groups one after another (they share one
//! work tree, and a group's tests must see only its own change), and for each group the state
//! machine of `team::fix::execution` driven to the end — the fixer, the test command, one
//! commit of the group's files, or their rollback.
//!
//! A rollback restores each of the group's files to its bytes before the attempt (written
//! back, or removed when the attempt created it, under an owned folder too). Anything the
//! fixer changed outside the group is undone at once: a file it created is removed, and a file
//! that existed (a tracked file, a suppression in `.retake/decisions.yaml`) is put back and
//! the attempt fails, since its commit could not hold the whole change.
//!
//! The fixer never judges its own work: after it ran, the change must hold up under the task
//! runner's judge (`implementer::judge::change_issues`: every changed file still parses, no
//! suppression-only change or weakened test, tests written for a missing-test finding) and
//! every finding of the group must be confirmed gone by its rule run again
//! (`implementer::recheck`), before the tests run. So a committed group is one whose findings
//! the re-check confirmed, and only those are "fixed" in `fix-summary.md`.
//!
//! The session file is written before each long step (fixing, testing) and after each final
//! one, so that a saved `committed` means the commit exists and a saved `failed` means the
//! files are back; a resumed session re-checks anything in between.

use super::files::{owned_by, Footprint, GroupFiles};
use super::session::ActiveSession;
use super::{now, FixError};
use implementer::executor::{BuiltinExecutor, ExecRequest, Executor, ExecutorConfig};
use implementer::judge::{change_issues, Expectations};
use implementer::prompt::{task_prompt, PromptParts};
use protocol::exec::git::work_tree;
use protocol::{Task, TaskOrigin, TaskStatus};
use std::path::Path;
use std::time::Duration;
use team::fix::execution::progress_json;
use team::fix::export::group_commit_message;
use team::fix::targets::writes_tests;
use team::fix::{advance, Effect, FixEvent, FixFinding, FixGroup, GroupState};
use team::fix_tasks::fix_tasks;

/// What every group's run needs.
pub struct Context<'a> {
    /// The repository root.
    pub repo: &'a Path,
    /// The review folder (progress files go there).
    pub dir: &'a Path,
    /// Every finding with its fix id.
    pub entries: &'a [FixFinding],
    /// The test command.
    pub test_command: &'a [String],
    /// Its time limit.
    pub test_timeout: Duration,
    /// The configured `[executor]`, if any.
    pub executor: Option<ExecutorConfig>,
    /// The builtin fixer's time limit per cargo run.
    pub builtin_timeout: Duration,
    /// House rules for an agent's prompt.
    pub rules: &'a [String],
    /// The prompt templates (`implementer.md` words a fixer's prompt too).
    pub prompts: &'a protocol::prompt::Templates,
    /// The review folder relative to the repository, when it is inside it: its files are the
    /// session's own, never a fixer's stray change.
    pub excluded: Option<String>,
}

/// Runs every group that is not final yet, stage by stage; `log` gets one line per step.
pub fn run_stages(
    ctx: &Context<'_>,
    session: &mut ActiveSession,
    log: &mut dyn FnMut(String),
) -> Result<(), FixError> {
    let timeline = session.plan.timeline.clone();
    for stage in &timeline {
        for id in &stage.groups {
            let Some((n, group)) = session
                .plan
                .groups
                .iter()
                .enumerate()
                .find(|(_, g)| &g.id == id)
                .map(|(i, g)| (i + 1, g.clone()))
            else {
                continue;
            };
            if session.state_of(id).is_final() {
                continue;
            }
            GroupRun::new(ctx, &group, n).run(session, log)?;
        }
    }
    Ok(())
}

struct GroupRun<'a> {
    ctx: &'a Context<'a>,
    group: &'a FixGroup,
    /// Position in the plan, for `fix-progress-<n>.json`.
    n: usize,
    members: Vec<&'a FixFinding>,
    before: GroupFiles,
    changed: Vec<String>,
}

impl<'a> GroupRun<'a> {
    fn new(ctx: &'a Context<'a>, group: &'a FixGroup, n: usize) -> GroupRun<'a> {
        let members = group
            .fix_ids
            .iter()
            .filter_map(|id| ctx.entries.iter().find(|e| &e.id == id))
            .collect();
        GroupRun {
            ctx,
            group,
            n,
            members,
            before: GroupFiles::default(),
            changed: Vec::new(),
        }
    }

    fn run(
        mut self,
        session: &mut ActiveSession,
        log: &mut dyn FnMut(String),
    ) -> Result<(), FixError> {
        let max = session.max_attempts;
        let id = self.group.id.clone();
        let mut state = GroupState::Pending;
        let mut next = Some(FixEvent::Start);
        while let Some(event) = next.take() {
            let (after, effects) = advance(self.group, &state, event, max)
                .map_err(|e| FixError::Internal(e.to_string()))?;
            state = after;
            if !state.is_final() {
                self.save(session, &state, None)?;
            }
            let mut commit = None;
            for effect in effects {
                match effect {
                    Effect::ApplyFix {
                        attempt,
                        previous_failure,
                    } => {
                        log(format!(
                            "{id} attempt {attempt}: fixing {}",
                            self.group.files.join(", ")
                        ));
                        let event = self.apply(attempt, previous_failure.as_deref())?;
                        match &event {
                            FixEvent::FixFailed(why) | FixEvent::Unfixable(why) => {
                                log(format!("{id} attempt {attempt}: {why}"))
                            }
                            _ => {}
                        }
                        next = Some(event);
                    }
                    Effect::RunTests => {
                        let event = super::test_gate::run_tests(
                            self.ctx.test_command,
                            self.ctx.repo,
                            self.ctx.test_timeout,
                        );
                        match &event {
                            FixEvent::TestsFailed(why) => log(format!("{id}: {why}")),
                            _ => log(format!("{id}: the tests pass")),
                        }
                        next = Some(event);
                    }
                    Effect::Commit(_) => {
                        let message =
                            group_commit_message(&self.members, &session.fix_session_id, &id);
                        let hash = work_tree::commit_paths(self.ctx.repo, &self.changed, &message)
                            .map_err(FixError::Git)?;
                        log(format!("{id}: committed {hash}"));
                        commit = Some(hash);
                    }
                    Effect::Rollback(_) => {
                        let restored = self.rollback()?;
                        if !restored.is_empty() {
                            log(format!("{id}: rolled back {}", restored.join(", ")));
                        }
                    }
                }
            }
            if state.is_final() {
                self.save(session, &state, commit)?;
            }
        }
        Ok(())
    }

    fn save(
        &self,
        session: &mut ActiveSession,
        state: &GroupState,
        commit: Option<String>,
    ) -> Result<(), FixError> {
        session.set(&self.group.id, state.clone(), commit);
        session.save(self.ctx.dir)?;
        super::planner::write_json(
            &self.ctx.dir.join(format!("fix-progress-{}.json", self.n)),
            &progress_json(self.group, state, session.max_attempts, &now()),
        )
    }

    /// One fixer run; the event it amounts to.
    fn apply(&mut self, attempt: u32, previous: Option<&str>) -> Result<FixEvent, FixError> {
        let repo = self.ctx.repo;
        let owned = &self.group.files;
        self.before = GroupFiles::take(repo, owned)?;
        let mut executor = match self.executor() {
            Ok(e) => e,
            Err(why) => return Ok(FixEvent::Unfixable(why)),
        };
        let footprint = Footprint::before(repo)?;
        let task = self.task();
        let mut prompt = task_prompt(
            &task,
            &PromptParts {
                rules: self.ctx.rules,
                ..PromptParts::default()
            },
            self.ctx.prompts,
        );
        if let Some(why) = previous {
            prompt.push_str(&format!(
                "\n## The previous attempt failed\n{why}\nIts changes were rolled back: fix \
                 the findings differently.\n"
            ));
        }
        let outcome = executor.execute(&ExecRequest {
            repo,
            task: &task,
            prompt: &prompt,
            iteration: attempt,
            modification: previous,
        });
        let change = footprint.change(repo)?;
        // Files it created outside the group (a byte-code cache, a scratch file) are removed
        // and no reason to fail; a file that existed and changed is: the commit could not hold
        // the whole change.
        let (strays, created) =
            Footprint::undo_outside(repo, &change, owned, self.ctx.excluded.as_deref())?;
        if !created.is_empty() {
            tracing::info!(files = %created.join(", "), "removed files the fixer created outside its group");
        }
        if let Some(problem) = outcome.transient_problem() {
            return Ok(FixEvent::FixFailed(problem));
        }
        // An answer the executor would not carry out (a chat answer for a file the group does
        // not own, a diff that does not apply): nothing was written, and the reason is the
        // failure's, not "changed nothing".
        if let Some(reason) = outcome.refusal() {
            return Ok(FixEvent::FixFailed(format!(
                "the fixer's answer was not applied: {reason}"
            )));
        }
        if !strays.is_empty() {
            return Ok(FixEvent::FixFailed(format!(
                "the fixer changed files outside its group ({}); they were restored",
                strays.join(", ")
            )));
        }
        let now = GroupFiles::take(repo, owned)?;
        self.changed = self.before.differ(&now);
        if self.changed.is_empty() {
            let said = String::from_utf8_lossy(outcome.stdout());
            let last = said.lines().rev().find(|l| !l.trim().is_empty());
            return Ok(FixEvent::FixFailed(match last {
                Some(line) => format!(
                    "the fixer changed none of the group's files ({})",
                    line.trim().trim_start_matches("- ")
                ),
                None => "the fixer changed none of the group's files".to_string(),
            }));
        }
        Ok(match self.judged(&change) {
            Some(why) => FixEvent::FixFailed(why),
            None => FixEvent::FixApplied,
        })
    }

    /// The judge's objections to the group's change, in one line; `None` when it holds up.
    fn judged(&self, change: &implementer::change::ChangeSet) -> Option<String> {
        let owned = &self.group.files;
        let change = implementer::change::ChangeSet {
            files: change
                .files
                .iter()
                .filter(|f| owned_by(owned, &f.path))
                .cloned()
                .collect(),
        };
        let findings: Vec<protocol::Finding> =
            self.members.iter().map(|e| e.finding.clone()).collect();
        let expectations = Expectations {
            requires_change: true,
            writes_tests: findings.iter().all(writes_tests),
            findings,
            ..Expectations::default()
        };
        let recheck =
            implementer::recheck::recheck(self.ctx.repo, &expectations.findings, &|p: &str| {
                change.line_shift(p)
            });
        let issues = change_issues(&change, &expectations, Some(&recheck));
        if issues.is_empty() {
            return None;
        }
        let lines: Vec<String> = issues
            .iter()
            .map(implementer::assignment::issue_line)
            .collect();
        Some(format!("the change does not hold up: {}", lines.join("; ")))
    }

    /// The builtin fixer for auto-fixable findings in a Cargo repository, else the configured
    /// executor; `Err` says why no fixer can work on this group.
    fn executor(&self) -> Result<Box<dyn Executor>, String> {
        let auto = self.members.iter().all(|e| e.finding.auto_fixable);
        if auto && self.ctx.repo.join("Cargo.toml").is_file() {
            return Ok(Box::new(BuiltinExecutor::new(self.ctx.builtin_timeout)));
        }
        match &self.ctx.executor {
            Some(config) => config.build().map_err(|e| e.to_string()),
            None => Err(if auto {
                "the builtin fixer fixes Cargo repositories only, and no [executor] is configured: set [executor] kind and command in retake.toml".to_string()
            } else {
                "no fixer for findings that are not auto-fixable: set [executor] kind = \"agent\" (or \"script\") and command in retake.toml".to_string()
            }),
        }
    }

    fn task(&self) -> Task {
        let findings: Vec<protocol::Finding> =
            self.members.iter().map(|e| e.finding.clone()).collect();
        let per_file = fix_tasks(&findings);
        let ids: Vec<&str> = self.members.iter().map(|e| e.id.as_str()).collect();
        let subject = match per_file.as_slice() {
            [one] => one.subject.clone(),
            many => format!("Fix {} findings in {} files", findings.len(), many.len()),
        };
        let mut description = per_file
            .iter()
            .map(|t| t.description.clone())
            .collect::<Vec<_>>()
            .join("\n\n");
        description.push_str(&format!("\n\nFix ids: {}", ids.join(", ")));
        Task {
            id: u32::try_from(self.n).unwrap_or(u32::MAX),
            subject,
            description,
            owns: self.group.files.clone(),
            blocked_by: Vec::new(),
            status: TaskStatus::Pending,
            attempts: 0,
            origin: TaskOrigin::Fix,
            active_form: format!("Fixing {}", self.group.files.join(", ")),
        }
    }

    /// The group's files back to their bytes before the attempt; the files that had changed.
    fn rollback(&self) -> Result<Vec<String>, FixError> {
        let repo = self.ctx.repo;
        let differ = self
            .before
            .differ(&GroupFiles::take(repo, &self.group.files)?);
        self.before.restore(repo, &differ)?;
        Ok(differ)
    }
}
