//! Reading the Lead's log for the claims of the remote runtime: `worker claimed
//! worker="inspector-quality@3f2a…-7" instance="inspector-quality"` (text, possibly coloured) or
//! the same fields in a JSON line. A worker names itself `NAME@HOST-PID`, and Docker sets a
//! container's host name to its short id, so a claim says which container serves an instance.

/// One claim: a worker attached to an instance of a review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    /// The worker's name (`inspector-quality@3f2a1b0c9d8e-7`).
    pub worker: String,
    /// The instance it serves (`inspector-quality`, `inspector-quality-r1`).
    pub instance: String,
}

/// The message the remote runtime logs when it attaches a worker to an instance.
const CLAIMED: &str = "worker claimed";

/// Every claim in `log`, oldest first.
pub fn claims(log: &str) -> Vec<Claim> {
    log.lines()
        .map(strip_ansi)
        .filter(|line| line.contains(CLAIMED))
        .filter_map(|line| {
            Some(Claim {
                worker: field(&line, "worker")?,
                instance: field(&line, "instance")?,
            })
        })
        .collect()
}

/// The message the worker pool logs when a worker registers (its `name` field).
const REGISTERED: &str = "worker registered";

/// The names of the workers that registered, oldest first (a worker that registered again
/// appears again): the pool hands the longest-waiting idle worker of a kind to the next claim.
pub fn registrations(log: &str) -> Vec<String> {
    log.lines()
        .map(strip_ansi)
        .filter(|line| line.contains(REGISTERED))
        .filter_map(|line| field(&line, "name"))
        .collect()
}

/// The host part of a worker name (`NAME@HOST-PID` → `HOST`).
pub fn worker_host(worker: &str) -> Option<&str> {
    let (_, at) = worker.rsplit_once('@')?;
    let (host, pid) = at.rsplit_once('-')?;
    (!host.is_empty() && pid.chars().all(|c| c.is_ascii_digit())).then_some(host)
}

/// A quoted field of a text (`key="v"`) or JSON (`"key":"v"`) log line.
fn field(line: &str, key: &str) -> Option<String> {
    for pattern in [format!(" {key}=\""), format!("\"{key}\":\"")] {
        if let Some(at) = line.find(&pattern) {
            let rest = &line[at + pattern.len()..];
            return rest.find('"').map(|end| rest[..end].to_string());
        }
    }
    None
}

/// The line without terminal colour sequences (`ESC [ … m`).
fn strip_ansi(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // Skip to the sequence's final letter.
            for end in chars.by_ref() {
                if end.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_are_read_from_coloured_text_and_json_lines() {
        let log = concat!(
            "\u{1b}[2m2026-11-22T04:44:51Z\u{1b}[0m \u{1b}[32m INFO\u{1b}[0m host::remote: ",
            "worker claimed \u{1b}[3mworker\u{1b}[0m\u{1b}[2m=\u{1b}[0m\"inspector-quality@cb97899e684b-7\" ",
            "\u{1b}[3minstance\u{1b}[0m\u{1b}[2m=\u{1b}[0m\"inspector-quality\"\n",
            "2026-11-22T04:44:52Z  INFO host::remote::pool: worker registered name=\"auditor@ab-7\"\n",
            "{\"level\":\"INFO\",\"fields\":{\"message\":\"worker claimed\",\"worker\":\"auditor@79ac2bafc50f-7\",",
            "\"instance\":\"auditor-r1\"},\"target\":\"host::remote\"}\n",
        );
        assert_eq!(
            claims(log),
            vec![
                Claim {
                    worker: "inspector-quality@cb97899e684b-7".into(),
                    instance: "inspector-quality".into()
                },
                Claim {
                    worker: "auditor@79ac2bafc50f-7".into(),
                    instance: "auditor-r1".into()
                },
            ]
        );
    }

    #[test]
    fn registrations_are_read_in_order() {
        let log = concat!(
            "2026-11-22T04:44:50Z  INFO host::remote::pool: worker registered name=\"inspector-quality@aa-7\" role=\"inspector\"\n",
            "2026-11-22T04:44:51Z  INFO host::remote: worker claimed worker=\"inspector-quality@aa-7\" instance=\"inspector-quality\"\n",
            "{\"fields\":{\"message\":\"worker registered\",\"name\":\"auditor@bb-7\"}}\n",
        );
        assert_eq!(
            registrations(log),
            vec![
                "inspector-quality@aa-7".to_string(),
                "auditor@bb-7".to_string()
            ]
        );
    }

    #[test]
    fn the_host_of_a_worker_name() {
        assert_eq!(
            worker_host("inspector-quality@cb97899e684b-7"),
            Some("cb97899e684b")
        );
        assert_eq!(worker_host("auditor@pod-abc-123-42"), Some("pod-abc-123"));
        assert_eq!(worker_host("inspector-quality"), None);
        assert_eq!(worker_host("a@host-x"), None);
    }
}
