//! Carrying out the supervisor's decisions: spawn, kill, shut down, nudge, give up — and what
//! giving up means for the review (partial coverage, or the Lead's own verdict).

use super::*;

impl Coordinator {
    pub(super) fn execute(&mut self, actions: Vec<Action>, ctx: &mut Context<Self>) {
        for action in actions {
            if self.done.is_none() {
                return;
            }
            match action {
                Action::Spawn {
                    logical,
                    instance,
                    spawn_no,
                } => self.spawn(&logical, instance, spawn_no, ctx),
                Action::Kill { instance } => {
                    if let Some(s) = self.spawner.as_mut() {
                        s.kill(&instance);
                    }
                }
                Action::Shutdown { instance } => {
                    let grace = self.plan.shutdown_grace;
                    self.send(
                        &instance,
                        Body::Shutdown {
                            grace_ms: grace.as_millis() as u64,
                        },
                    );
                    self.outboxes.remove(&instance);
                    ctx.run_later(grace, move |this, _| {
                        if let Some(s) = this.spawner.as_mut() {
                            s.kill(&instance);
                        }
                    });
                }
                Action::Nudge { instance } => {
                    tracing::info!(
                        instance,
                        "Output your verdict now. PARTIAL_VERIFICATION if incomplete."
                    );
                    self.send(
                        &instance,
                        Body::OutputVerdictNow {
                            review: self.plan.review.clone(),
                        },
                    );
                }
                Action::GiveUp {
                    logical, reason, ..
                } => self.give_up(logical, reason, ctx),
            }
        }
    }

    pub(super) fn spawn(
        &mut self,
        logical: &str,
        instance: String,
        spawn_no: u32,
        ctx: &mut Context<Self>,
    ) {
        let Some(kind) = self.plan.kind_of(logical) else {
            return;
        };
        let spec = ActorSpec {
            kind,
            logical: logical.to_string(),
            instance: instance.clone(),
            spawn_no,
        };
        let result = match self.spawner.as_mut() {
            Some(s) => s.spawn(&spec, std::sync::Arc::new(ctx.address())),
            None => return,
        };
        if let Err(e) = result {
            // Not being able to start a process at all is the machine's problem, not the actor's.
            self.finish(Err(ReviewFailure::Spawn {
                name: instance,
                reason: e.to_string(),
            }));
        }
    }

    pub(super) fn give_up(&mut self, logical: String, reason: String, ctx: &mut Context<Self>) {
        if logical == self.plan.auditor {
            // The Inspectors may still be working: the Lead derives the verdict once every
            // report is in (or given up on), never from a partial set it did not have to accept.
            tracing::warn!(
                reason,
                "no Auditor could answer: the Lead will derive the verdict"
            );
            self.auditor_gone = true;
            if self.all_in {
                self.derive_verdict(ctx);
            } else {
                self.check_all_in(ctx);
            }
            return;
        }
        let of = self.plan.inspections.len() as u32;
        let have = of - self.unavailable.len() as u32 - 1;
        tracing::warn!(
            "Inspector {logical} unavailable after retry. Proceed with {have}/{of} results."
        );
        self.unavailable.push((logical.clone(), reason.clone()));
        if let Some(auditor) = self.auditor_instance() {
            let body = Body::InspectorUnavailable {
                review: self.plan.review.clone(),
                name: logical,
                reason,
                have,
                of,
            };
            self.send(&auditor, body);
        }
        self.check_all_in(ctx);
    }

    pub(super) fn check_all_in(&mut self, ctx: &mut Context<Self>) {
        let all = self.plan.inspections.iter().all(|(logical, _, _)| {
            self.sup
                .by_logical(logical)
                .is_some_and(|s| matches!(s.state, State::Delivered | State::GaveUp { .. }))
        });
        if self.all_in || !all {
            return;
        }
        self.all_in = true;
        if self.auditor_gone {
            return self.derive_verdict(ctx);
        }
        if let Some(auditor) = self.auditor_instance() {
            if self.outboxes.contains_key(&auditor) {
                self.send(
                    &auditor,
                    Body::AllReportsIn {
                        review: self.plan.review.clone(),
                    },
                );
                self.sup
                    .working(&auditor, Instant::now() + self.plan.audit_deadline);
            }
        }
    }

    /// The Lead's conservative verdict from the journaled reports (`AUDITOR_UNAVAILABLE`).
    pub(super) fn derive_verdict(&mut self, ctx: &mut Context<Self>) {
        let expected = self.plan.inspector_names();
        let reports: Vec<InspectorReport> = self.reports.values().cloned().collect();
        let mut outcome = auditor::lead_derived(&reports, &expected, &self.unavailable);
        outcome.scope = self.plan.audit.scope.clone();
        self.conclude(outcome, ctx);
    }
}
