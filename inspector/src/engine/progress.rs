//! How far an Inspector's rules have got: steps done of steps to do (each file of the file pass,
//! then each rule's project step), shared with the actor's heartbeat so that the Lead can tell a
//! long review that is moving from one that is stuck.

use protocol::message::{Count, Unit};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

/// A progress counter; clones share it.
#[derive(Debug, Clone, Default)]
pub struct Progress(Arc<Counts>);

#[derive(Debug, Default)]
struct Counts {
    done: AtomicU32,
    total: AtomicU32,
}

impl Progress {
    /// Starts counting `total` steps from none.
    pub fn begin(&self, total: usize) {
        self.0.done.store(0, Ordering::Relaxed);
        self.0
            .total
            .store(u32::try_from(total).unwrap_or(u32::MAX), Ordering::Relaxed);
    }

    /// One step done.
    pub fn advance(&self) {
        self.0.done.fetch_add(1, Ordering::Relaxed);
    }

    /// Steps done of steps to do (never past it), or `None` before [`Progress::begin`].
    pub fn count(&self) -> Option<Count> {
        match self.0.total.load(Ordering::Relaxed) {
            0 => None,
            total => Some(Count::of(
                self.0.done.load(Ordering::Relaxed).into(),
                total.into(),
                Unit::Steps,
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Progress;
    use protocol::message::{Count, Unit};

    #[test]
    fn clones_share_the_count() {
        let progress = Progress::default();
        assert_eq!(progress.count(), None);
        let seen_by_the_actor = progress.clone();
        progress.begin(3);
        progress.advance();
        let count = seen_by_the_actor.count().expect("begun");
        assert_eq!(count, Count::of(1, 3, Unit::Steps));
        assert_eq!(count.to_string(), "1/3");
        progress.advance();
        progress.advance();
        progress.advance();
        assert_eq!(
            seen_by_the_actor.count().map(|c| c.to_string()).as_deref(),
            Some("3/3"),
            "never past the total"
        );
    }
}
