//! The live event stream's publishing side: a [`Feed`] the hubs publish [`LiveEvent`]s to and
//! any number of watchers (the dashboard's pages) subscribe to, and [`ActorWatch`], which turns
//! a hub's [`Supervisor`] slots into actor lists and lines of what happened, publishing only
//! what changed. Publishing never blocks a hub: a watcher that falls behind loses the oldest
//! events and reloads the state instead.

use crate::supervisor::{Slot, State};
use protocol::live::{ActorLine, ActorState, LiveEvent, LiveState, Part};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::sync::broadcast;

/// Events a slow watcher may lag behind before it must reload.
const BACKLOG: usize = 1024;

/// The stream one command publishes to.
#[derive(Clone)]
pub struct Feed {
    inner: Arc<Inner>,
}

struct Inner {
    state: Mutex<LiveState>,
    sender: broadcast::Sender<Published>,
}

/// One published event, with the part of the page it changed.
#[derive(Debug, Clone)]
pub struct Published {
    /// The event.
    pub event: Arc<LiveEvent>,
    /// The part it changed.
    pub part: Part,
}

impl std::fmt::Debug for Feed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Feed").finish_non_exhaustive()
    }
}

impl Default for Feed {
    fn default() -> Self {
        Feed::new()
    }
}

impl Feed {
    /// An empty stream.
    pub fn new() -> Feed {
        let (sender, _) = broadcast::channel(BACKLOG);
        Feed {
            inner: Arc::new(Inner {
                state: Mutex::new(LiveState::default()),
                sender,
            }),
        }
    }

    /// Folds `event` into the state and hands it to every watcher.
    pub fn publish(&self, event: LiveEvent) {
        let mut state = self.lock();
        let part = state.apply(&event);
        // No watcher is not an error: the page may not be open.
        let _watchers = self.inner.sender.send(Published {
            event: Arc::new(event),
            part,
        });
    }

    /// A line of what happened, now.
    pub fn happened(&self, text: impl Into<String>) {
        self.publish(LiveEvent::Happened {
            at_ms: now_ms(),
            text: text.into(),
        });
    }

    /// The state so far.
    pub fn state(&self) -> LiveState {
        self.lock().clone()
    }

    /// The state so far and every event after it, taken together so none falls in between.
    pub fn subscribe(&self) -> (LiveState, broadcast::Receiver<Published>) {
        let state = self.lock();
        (state.clone(), self.inner.sender.subscribe())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, LiveState> {
        // A publisher that panicked left a state that is still a fold of whole events.
        self.inner
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Milliseconds since the epoch, now.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// A hub's actors on a feed: publishes their list when something a page shows changed (a
/// heartbeat only moves the time of the last sign of life, which a page ages by itself, so it
/// publishes at most every [`SEEN_EVERY`]), and a line when an instance is replaced or given up.
#[derive(Debug)]
pub struct ActorWatch {
    feed: Feed,
    hub: String,
    last: Vec<ActorLine>,
    published_at: Option<Instant>,
}

/// How often an actor list whose only change is the heartbeats is published again.
pub const SEEN_EVERY: Duration = Duration::from_secs(5);

impl ActorWatch {
    /// Watches the hub named `hub` (`review`, `team`) on `feed`.
    pub fn new(feed: Feed, hub: impl Into<String>) -> ActorWatch {
        ActorWatch {
            feed,
            hub: hub.into(),
            last: Vec::new(),
            published_at: None,
        }
    }

    /// The feed it publishes on.
    pub fn feed(&self) -> &Feed {
        &self.feed
    }

    /// Takes the supervisor's slots as they are now.
    pub fn update(&mut self, slots: &[Slot]) {
        let now = Instant::now();
        let lines: Vec<ActorLine> = slots.iter().map(|s| line(s, now)).collect();
        for (new, slot) in lines.iter().zip(slots) {
            let old = self.last.iter().find(|o| o.name == new.name);
            for text in change(old, new, slot) {
                self.feed.happened(text);
            }
        }
        let shown_changed = lines.len() != self.last.len()
            || lines.iter().zip(&self.last).any(|(a, b)| {
                ActorLine {
                    seen_ms: b.seen_ms,
                    ..a.clone()
                } != *b
            });
        let stale = self
            .published_at
            .is_none_or(|at| now.duration_since(at) >= SEEN_EVERY);
        if shown_changed || (stale && lines != self.last) {
            self.published_at = Some(now);
            self.last = lines.clone();
            self.feed.publish(LiveEvent::Actors {
                hub: self.hub.clone(),
                actors: lines,
            });
        }
    }
}

/// What a page says of a change of one slot (`old` is how it was last published, if it was):
/// a replacement, a slot given up — both when both happened in between.
fn change(old: Option<&ActorLine>, new: &ActorLine, slot: &Slot) -> Vec<String> {
    let mut lines = Vec::new();
    let replaced = match old {
        Some(old) => new.instance != old.instance,
        None => new.restarts > 0,
    };
    if replaced {
        let why = slot.last_restart.as_deref().unwrap_or("was lost");
        lines.push(format!("{why}; replaced by {}", new.instance));
    }
    if new.state == ActorState::Lost && old.is_none_or(|o| o.state != ActorState::Lost) {
        lines.push(format!("{} given up: {}", new.name, new.detail));
    }
    lines
}

/// One slot as a page shows it.
fn line(slot: &Slot, now: Instant) -> ActorLine {
    let state = match &slot.state {
        State::Starting { .. } if slot.spawn_no > 1 => ActorState::Replaced,
        State::Starting { .. } => ActorState::Starting,
        State::Idle | State::Working { .. } => ActorState::Working,
        State::Nudged { .. } => ActorState::Nudged,
        State::Delivered => ActorState::Reported,
        State::GaveUp { .. } => ActorState::Lost,
    };
    let detail = match &slot.state {
        State::GaveUp { reason } => reason.clone(),
        _ => slot.progress.to_string(),
    };
    let ago = now.saturating_duration_since(slot.last_seen).as_millis() as u64;
    ActorLine {
        name: slot.logical.clone(),
        instance: slot.instance.clone(),
        state,
        detail,
        seen_ms: now_ms().saturating_sub(ago),
        restarts: slot.spawn_no.saturating_sub(1),
        last_restart: slot.last_restart.clone(),
    }
}

#[cfg(test)]
mod tests;
