//! One finding per problem inside an Inspector: a hit that stands in for another rule's
//! ([`Sink::stand_in`]: an analyzer's lint that says what a built-in rule says, knowing types,
//! `cfg(test)` and targets) takes that rule's hits on the same file and overlapping lines out.
//! Only where both fired: a built-in hit no stand-in covers stays, so a tool that did not run,
//! or ran and said nothing there, never hides a built-in finding.

use super::Sink;

/// Where a hit of one rule replaces the hits of another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandIn {
    /// The rule whose hits step aside.
    pub rule: &'static str,
    /// Repository-relative path.
    pub path: String,
    /// First and last line (1-based, inclusive) of the standing-in hit.
    pub lines: (u32, u32),
}

/// Drops, from each rule's sink (`ids[i]` is the rule of `sinks[i]`), the hits another sink
/// stands in for: same path, overlapping lines. File-level hits (no line) never step aside.
pub(crate) fn step_aside(ids: &[&str], sinks: &mut [Sink]) {
    let stand_ins: Vec<StandIn> = sinks.iter().flat_map(|s| s.stand_ins.clone()).collect();
    if stand_ins.is_empty() {
        return;
    }
    for (id, sink) in ids.iter().zip(sinks.iter_mut()) {
        sink.hits.retain(|hit| {
            let Some(first) = hit.location.line else {
                return true;
            };
            let last = hit.location.end_line.unwrap_or(first).max(first);
            !stand_ins.iter().any(|s| {
                s.rule == *id
                    && s.path == hit.location.path
                    && s.lines.0 <= last
                    && first <= s.lines.1
            })
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Hit;
    use protocol::Location;

    fn sink(hits: &[(&str, u32)]) -> Sink {
        let mut sink = Sink::default();
        for (path, line) in hits {
            sink.hit(Hit::new(Location::at(*path, *line), "d", "k"));
        }
        sink
    }

    fn lines(sink: &Sink) -> Vec<(String, Option<u32>)> {
        sink.hits
            .iter()
            .map(|h| (h.location.path.clone(), h.location.line))
            .collect()
    }

    #[test]
    fn a_covered_hit_steps_aside_and_the_rest_stay() {
        let mut builtin = sink(&[("a.py", 4), ("a.py", 9), ("b.py", 4)]);
        builtin.hit(Hit::new(Location::file("a.py"), "file-level", "f"));
        let mut analyzer = sink(&[("a.py", 3)]);
        analyzer.stand_in("quality/swallowed-error", "a.py", 3, 5);
        let other = sink(&[("a.py", 4)]);
        let mut sinks = vec![builtin, analyzer, other];
        step_aside(
            &[
                "quality/swallowed-error",
                "quality/linter-finding",
                "quality/todo-marker",
            ],
            &mut sinks,
        );
        assert_eq!(
            lines(&sinks[0]),
            vec![
                ("a.py".to_string(), Some(9)),
                ("b.py".to_string(), Some(4)),
                ("a.py".to_string(), None)
            ]
        );
        assert_eq!(lines(&sinks[1]), vec![("a.py".to_string(), Some(3))]);
        assert_eq!(lines(&sinks[2]), vec![("a.py".to_string(), Some(4))]);
    }
}
