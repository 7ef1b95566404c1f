//! Unit tests of the review cycle's pure core.

mod cycle;
mod parsing;
mod writer;

use protocol::{Dimension, Finding, Location, Severity};

/// A finding of `rule` at `path:line` (line 0: no line) in `dims`.
pub(super) fn finding(
    rule: &str,
    path: &str,
    line: u32,
    severity: Severity,
    dims: &[Dimension],
) -> Finding {
    let location = if line == 0 {
        Location::file(path)
    } else {
        Location::at(path, line)
    };
    let mut f = Finding::new(
        "inspector-quality",
        rule,
        "category",
        severity,
        location,
        format!("{rule} at {path}:{line}"),
        &format!("{path}:{line}"),
    );
    f.dimensions = dims.to_vec();
    f
}
