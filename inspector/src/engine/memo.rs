//! What a review computes once and several project rules read: one analyzer run (`cargo
//! clippy`) whose output two rules report from, instead of running the tool once per rule.
//! Kept in the [`Context`](super::Context), so it lives as long as the review's context.

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Values by key, each computed by the first rule that asks for it.
#[derive(Default)]
pub struct Memo(Mutex<HashMap<&'static str, Arc<dyn Any + Send + Sync>>>);

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let keys: Vec<&str> = self
            .0
            .lock()
            .map(|m| m.keys().copied().collect())
            .unwrap_or_default();
        write!(f, "Memo({keys:?})")
    }
}

impl Memo {
    /// The value under `key`, computed by `make` when no rule has asked for it yet (or when the
    /// value under `key` is of another type). `make` runs without the lock held.
    pub fn get_or_make<T: Any + Send + Sync>(
        &self,
        key: &'static str,
        make: impl FnOnce() -> T,
    ) -> Arc<T> {
        let held = self.0.lock().ok().and_then(|m| m.get(key).cloned());
        if let Some(value) = held.and_then(|v| v.downcast::<T>().ok()) {
            return value;
        }
        let value = Arc::new(make());
        if let Ok(mut map) = self.0.lock() {
            map.insert(key, value.clone());
        }
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computes_once_per_key() {
        let memo = Memo::default();
        let mut calls = 0;
        let first = memo.get_or_make("run", || {
            calls += 1;
            vec![1u8]
        });
        let second = memo.get_or_make("run", || vec![2u8]);
        assert_eq!(
            (calls, first.as_slice(), second.as_slice()),
            (1, &[1u8][..], &[1u8][..])
        );
        assert_eq!(*memo.get_or_make("other", || 7u32), 7);
        assert_eq!(
            format!("{memo:?}").len(),
            "Memo([\"run\", \"other\"])".len()
        );
    }
}
