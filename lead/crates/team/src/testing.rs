//! Builders for tests of the team loop, here and in the Lead (feature `testing`).

use crate::plan::{Marker, PlanTask};
use protocol::{Dimension, Finding, Location, Severity};

/// A numbered Plans.md task `id` owning `owns`, depending on `depends`, still to do.
pub fn task(id: &str, title: &str, owns: &[&str], depends: &[&str]) -> PlanTask {
    PlanTask {
        id: id.into(),
        numbered: true,
        title: title.into(),
        description: String::new(),
        subtasks: 0,
        owns: owns.iter().map(|s| s.to_string()).collect(),
        depends: depends.iter().map(|s| s.to_string()).collect(),
        marker: Marker::Todo,
        high_priority: false,
        file: "Plans.md".into(),
        line: 1,
    }
}

/// A quality finding of `category` at `path:line`, auto-fixable with `auto`.
pub fn finding(
    path: &str,
    line: u32,
    sev: Severity,
    category: &str,
    text: &str,
    auto: bool,
) -> Finding {
    let mut f = Finding::new(
        "inspector-quality",
        format!("quality/{category}"),
        category,
        sev,
        Location::at(path, line),
        text,
        text,
    );
    f.auto_fixable = auto;
    f.dimensions = vec![Dimension::Quality];
    f
}
