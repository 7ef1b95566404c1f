//! The supervision core: a pure state machine over the review's actor slots. The coordinator
//! feeds it what happened (connected, heartbeat, work sent, delivered, lost, time passed) and
//! carries out the actions it returns (spawn, shut down, kill, nudge, give up).
//!
//! Recovery follows the supervision spec: a dead or unresponsive actor is shut down and re-spawned once
//! under a new name (`inspector-quality-r1`); if the replacement fails too — or the role has used
//! its restart budget (`max_restarts` in `restart_window`) — the slot gives up: an Inspector
//! becomes unavailable (partial coverage), the Auditor's work falls to the Lead's derived
//! verdict; an Implementer's task goes back to the team's board (the hub's part). An Auditor
//! past its deadline is first nudged (`OutputVerdictNow`). Each role has its own budget.

use protocol::message::Progress;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// The role of a slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// An Inspector.
    Inspector,
    /// The Auditor.
    Auditor,
    /// An Implementer of a run's team (`implementer-<n>`), with a restart budget of its own.
    Implementer,
}

/// Timing and limits.
#[derive(Debug, Clone)]
pub struct Policy {
    /// Expected heartbeat interval.
    pub heartbeat: Duration,
    /// Silent intervals before an actor is unresponsive.
    pub suspect_after: u32,
    /// How long a spawned actor has to connect.
    pub connect_timeout: Duration,
    /// How long the Auditor has after a nudge.
    pub nudge_timeout: Duration,
    /// Re-spawns per role within `restart_window`.
    pub max_restarts: u32,
    /// The window of `max_restarts`.
    pub restart_window: Duration,
    /// Re-spawns per slot (the protocol says once).
    pub respawns_per_slot: u32,
}

/// Where a slot stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum State {
    /// Spawned, not yet connected.
    Starting {
        /// When it was spawned.
        since: Instant,
    },
    /// Connected, owing nothing yet (the Auditor while reports come in).
    Idle,
    /// Owes its output by `deadline`.
    Working {
        /// The output deadline.
        deadline: Instant,
    },
    /// The Auditor was told to output its verdict now.
    Nudged {
        /// When the nudge expires.
        until: Instant,
    },
    /// Delivered what it owed.
    Delivered,
    /// Given up on.
    GaveUp {
        /// Why.
        reason: String,
    },
}

/// One actor slot: a stable logical name and the instance currently filling it.
#[derive(Debug, Clone)]
pub struct Slot {
    /// The stable name (`inspector-quality`, `auditor`).
    pub logical: String,
    /// Its role.
    pub role: Role,
    /// The current instance's name (`inspector-quality-r1` after one re-spawn).
    pub instance: String,
    /// 1-based spawn number of the current instance.
    pub spawn_no: u32,
    /// Where it stands.
    pub state: State,
    /// Last sign of life.
    pub last_seen: Instant,
    /// The progress of the instance's last heartbeat at work.
    pub progress: Progress,
    /// Why the slot's instance was last replaced.
    pub last_restart: Option<String>,
}

/// What the coordinator must do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Start an instance.
    Spawn {
        /// The slot.
        logical: String,
        /// The new instance's name.
        instance: String,
        /// Its 1-based spawn number.
        spawn_no: u32,
    },
    /// Ask an instance that is still alive to shut down (kill its group after the grace).
    Shutdown {
        /// The instance.
        instance: String,
    },
    /// Make sure a dead instance's process group is gone.
    Kill {
        /// The instance.
        instance: String,
    },
    /// Tell the Auditor to output its verdict now.
    Nudge {
        /// The Auditor instance.
        instance: String,
    },
    /// The slot is given up on.
    GiveUp {
        /// The slot.
        logical: String,
        /// Its last instance.
        instance: String,
        /// Why.
        reason: String,
    },
}

/// The state machine.
#[derive(Debug)]
pub struct Supervisor {
    policy: Policy,
    /// When `tick` last ran: a tick much later than its cadence means the Lead itself was not
    /// running (a starved or paused machine), and the silence it then sees is its own.
    last_tick: Option<Instant>,
    slots: Vec<Slot>,
    restarts_at: BTreeMap<Role, Vec<Instant>>,
    degraded: Vec<Role>,
}

impl Supervisor {
    /// Slots for `actors`; those named in `delivered` (a resumed run's journaled reports) start
    /// delivered, the others are spawned now. Returns the initial spawn actions.
    pub fn new(
        actors: &[(String, Role)],
        delivered: &[String],
        policy: Policy,
        now: Instant,
    ) -> (Supervisor, Vec<Action>) {
        let slots: Vec<Slot> = actors
            .iter()
            .map(|(logical, role)| Slot {
                logical: logical.clone(),
                role: *role,
                instance: logical.clone(),
                spawn_no: 1,
                state: if delivered.contains(logical) {
                    State::Delivered
                } else {
                    State::Starting { since: now }
                },
                last_seen: now,
                progress: Progress::default(),
                last_restart: None,
            })
            .collect();
        let actions = slots
            .iter()
            .filter(|s| matches!(s.state, State::Starting { .. }))
            .map(|s| Action::Spawn {
                logical: s.logical.clone(),
                instance: s.instance.clone(),
                spawn_no: 1,
            })
            .collect();
        let sup = Supervisor {
            policy,
            last_tick: None,
            slots,
            restarts_at: BTreeMap::new(),
            degraded: Vec::new(),
        };
        (sup, actions)
    }

    /// The slot an instance currently fills (None for stale or unknown instances).
    pub fn slot(&self, instance: &str) -> Option<&Slot> {
        self.slots.iter().find(|s| s.instance == instance)
    }

    /// The slot by logical name.
    pub fn by_logical(&self, logical: &str) -> Option<&Slot> {
        self.slots.iter().find(|s| s.logical == logical)
    }

    fn slot_mut(&mut self, instance: &str) -> Option<&mut Slot> {
        self.slots.iter_mut().find(|s| s.instance == instance)
    }

    /// Every slot.
    pub fn slots(&self) -> &[Slot] {
        &self.slots
    }

    /// Re-spawns per logical actor.
    pub fn restarts(&self) -> BTreeMap<String, u32> {
        self.slots
            .iter()
            .map(|s| (s.logical.clone(), s.spawn_no - 1))
            .collect()
    }

    /// Roles that hit their restart limit.
    pub fn degraded(&self) -> &[Role] {
        &self.degraded
    }

    /// The instance connected; returns false when it is not the slot's current instance.
    pub fn connected(&mut self, instance: &str, now: Instant) -> bool {
        match self.slot_mut(instance) {
            Some(slot) if matches!(slot.state, State::Starting { .. }) => {
                slot.state = State::Idle;
                slot.last_seen = now;
                true
            }
            _ => false,
        }
    }

    /// A sign of life (a heartbeat or any message).
    pub fn seen(&mut self, instance: &str, now: Instant) {
        if let Some(slot) = self.slot_mut(instance) {
            slot.last_seen = now;
        }
    }

    /// An Inspector at work reported `progress`: when it moved since its last heartbeat, the
    /// report is owed no earlier than `extend_to`. A long review that keeps moving is not
    /// unresponsive; one whose progress stands still is held to its deadline (the supervision spec's
    /// "idle but no output").
    pub fn progressed(&mut self, instance: &str, progress: &Progress, extend_to: Instant) {
        let Some(slot) = self.slot_mut(instance) else {
            return;
        };
        if slot.role != Role::Inspector || slot.progress == *progress {
            return;
        }
        slot.progress = progress.clone();
        if let State::Working { deadline } = &mut slot.state {
            *deadline = (*deadline).max(extend_to);
        }
    }

    /// Work was handed to the instance, owed by `deadline`.
    pub fn working(&mut self, instance: &str, deadline: Instant) {
        if let Some(slot) = self.slot_mut(instance) {
            if !matches!(slot.state, State::Delivered | State::GaveUp { .. }) {
                slot.state = State::Working { deadline };
            }
        }
    }

    /// The instance delivered what it owed.
    pub fn delivered(&mut self, instance: &str) {
        if let Some(slot) = self.slot_mut(instance) {
            slot.state = State::Delivered;
        }
    }

    /// The instance's connection closed or its process exited.
    pub fn lost(&mut self, instance: &str, reason: &str, now: Instant) -> Vec<Action> {
        let Some(i) = self.slots.iter().position(|s| s.instance == instance) else {
            return Vec::new();
        };
        if matches!(self.slots[i].state, State::Delivered | State::GaveUp { .. }) {
            return Vec::new();
        }
        let mut actions = vec![Action::Kill {
            instance: instance.to_string(),
        }];
        actions.extend(self.replace(i, reason, now));
        actions
    }

    /// An instance said it cannot do its work and a replacement could not either (an agent
    /// whose output stayed unusable): given up with its reason, not re-spawned.
    pub fn failed(&mut self, instance: &str, reason: &str) -> Vec<Action> {
        let Some(i) = self.slots.iter().position(|s| s.instance == instance) else {
            return Vec::new();
        };
        if matches!(self.slots[i].state, State::Delivered | State::GaveUp { .. }) {
            return Vec::new();
        }
        let slot = &mut self.slots[i];
        let reason = format!("{instance} failed: {reason}");
        slot.state = State::GaveUp {
            reason: reason.clone(),
        };
        vec![
            Action::Kill {
                instance: instance.to_string(),
            },
            Action::GiveUp {
                logical: slot.logical.clone(),
                instance: instance.to_string(),
                reason,
            },
        ]
    }

    /// Ticks come every half heartbeat. When one comes more than a whole heartbeat after the
    /// last, the Lead was not running in between — its thread starved on a loaded machine, or
    /// the machine paused — and the heartbeats that arrived meanwhile are still unread behind
    /// this tick: that lag is not the actors' silence, so every actor is seen that much later.
    /// An actor that really hangs stays silent across the regular ticks that follow.
    fn forgive_own_absence(&mut self, now: Instant) {
        if let Some(last) = self.last_tick.replace(now) {
            let gap = now.saturating_duration_since(last);
            if gap > self.policy.heartbeat {
                let lag = gap - self.policy.heartbeat / 2;
                for slot in &mut self.slots {
                    slot.last_seen = (slot.last_seen + lag).min(now);
                }
            }
        }
    }

    /// Time passed: finds silent, late and unconnected instances.
    pub fn tick(&mut self, now: Instant) -> Vec<Action> {
        self.forgive_own_absence(now);
        let silent_limit = self.policy.heartbeat * self.policy.suspect_after;
        let mut actions = Vec::new();
        for i in 0..self.slots.len() {
            let slot = &self.slots[i];
            let problem = match &slot.state {
                State::Delivered | State::GaveUp { .. } => None,
                State::Starting { since }
                    if now.duration_since(*since) > self.policy.connect_timeout =>
                {
                    Some((
                        format!(
                            "did not connect within {} ms",
                            self.policy.connect_timeout.as_millis()
                        ),
                        false,
                    ))
                }
                State::Starting { .. } => None,
                _ if now.duration_since(slot.last_seen) > silent_limit => Some((
                    format!(
                        "sent no heartbeat for {} ms",
                        now.duration_since(slot.last_seen).as_millis()
                    ),
                    false,
                )),
                State::Working { deadline } if now > *deadline => match slot.role {
                    Role::Auditor => {
                        let instance = slot.instance.clone();
                        self.slots[i].state = State::Nudged {
                            until: now + self.policy.nudge_timeout,
                        };
                        actions.push(Action::Nudge { instance });
                        None
                    }
                    Role::Inspector => {
                        Some(("owed its report past the deadline".to_string(), true))
                    }
                    Role::Implementer => {
                        Some(("owed its task result past the deadline".to_string(), true))
                    }
                },
                State::Nudged { until } if now > *until => {
                    Some(("gave no verdict after the nudge".to_string(), true))
                }
                _ => None,
            };
            if let Some((reason, responsive)) = problem {
                let instance = self.slots[i].instance.clone();
                // A silent actor cannot act on Shutdown: its process group is killed at once.
                actions.push(if responsive {
                    Action::Shutdown { instance }
                } else {
                    Action::Kill { instance }
                });
                actions.extend(self.replace(i, &reason, now));
            }
        }
        actions
    }

    /// Replaces slot `i`'s instance if the protocol and the restart budget allow, else gives up.
    fn replace(&mut self, i: usize, reason: &str, now: Instant) -> Vec<Action> {
        let role = self.slots[i].role;
        let window = self.policy.restart_window;
        let recent = self.restarts_at.entry(role).or_default();
        recent.retain(|t| now.duration_since(*t) < window);
        let slot_allows = self.slots[i].spawn_no <= self.policy.respawns_per_slot;
        let role_allows = (recent.len() as u32) < self.policy.max_restarts;
        let slot = &mut self.slots[i];
        let old = slot.instance.clone();
        let why = format!("{old} {reason}");
        if slot_allows && role_allows {
            recent.push(now);
            slot.spawn_no += 1;
            slot.instance = format!("{}-r{}", slot.logical, slot.spawn_no - 1);
            slot.state = State::Starting { since: now };
            slot.last_seen = now;
            slot.progress = Progress::default();
            slot.last_restart = Some(why.clone());
            tracing::info!(
                failed = old,
                replacement = slot.instance,
                reason,
                "re-spawning"
            );
            return vec![Action::Spawn {
                logical: slot.logical.clone(),
                instance: slot.instance.clone(),
                spawn_no: slot.spawn_no,
            }];
        }
        let reason = if role_allows {
            format!("{why}; its replacement failed too")
        } else {
            if !self.degraded.contains(&role) {
                self.degraded.push(role);
            }
            format!(
                "{why}; restart limit reached ({} in {} s)",
                self.policy.max_restarts,
                window.as_secs()
            )
        };
        slot.state = State::GaveUp {
            reason: reason.clone(),
        };
        vec![Action::GiveUp {
            logical: slot.logical.clone(),
            instance: old,
            reason,
        }]
    }
}

#[cfg(test)]
pub(crate) mod tests;
