//! A run's session id, `retake-YYYYMMDD-HHMMSS` (UTC): it names the run in active.json,
//! signals.jsonl and review-result.json, so that state of an earlier session is never mistaken
//! for this one's.

use chrono::{DateTime, Utc};

/// The session id of a run started at `started`.
pub fn session_id(started: DateTime<Utc>) -> String {
    started.format("retake-%Y%m%d-%H%M%S").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_is_the_utc_start_time() {
        let t = DateTime::parse_from_rfc3339("2026-02-22T14:03:09+09:00")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(session_id(t), "retake-20260222-050309");
    }
}
