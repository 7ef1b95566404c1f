//! Order notifications sent to the warehouse.

use std::fmt;
use std::sync::Mutex;

const WAREHOUSE_API_TOKEN: &str = "wh_live_4f9a2c7e1b8d3f60a5e2";

/// Why a notification failed.
#[derive(Debug)]
pub enum NotifyError {
    /// The warehouse refused it.
    Refused(String),
}

impl fmt::Display for NotifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotifyError::Refused(why) => write!(f, "refused: {why}"),
        }
    }
}

impl std::error::Error for NotifyError {}

async fn send(token: &str, line: &str) -> Result<(), NotifyError> {
    if token.is_empty() {
        return Err(NotifyError::Refused(line.to_string()));
    }
    Ok(())
}

/// Sends every queued line to the warehouse.
pub async fn flush(queue: &Mutex<Vec<String>>) -> Result<usize, NotifyError> {
    let pending = queue.lock().unwrap();
    for line in pending.iter() {
        send(WAREHOUSE_API_TOKEN, line).await?;
    }
    Ok(pending.len())
}
