//! `test/ac-coverage`: a feature whose tests carry `AC:` markers but cover less than 80 % of
//! the acceptance criteria design.md numbers. A feature whose tests carry no marker at all does
//! not use the convention; the rulebase Inspector notes that instead.

use super::Shared;
use crate::engine::{Context, Hit, Rule, RuleMeta, Sink};
use crate::rules::ac_markers::coverage;
use crate::spec::features_for;
use protocol::{Category, Dimension, Location, Severity};
use std::sync::Arc;

static META: RuleMeta = RuleMeta {
    id: "test/ac-coverage",
    category: Category::AcCoverage,
    severity: Severity::High,
    languages: &[],
    dimensions: &[Dimension::Quality, Dimension::ActionItems],
    explanation: "The tests' AC markers cover less than 80 % of a feature's acceptance criteria.",
};

/// The share of criteria that must carry a marker.
const THRESHOLD_PERCENT: usize = 80;

/// Each marked feature below the threshold → one finding at its first uncovered criterion.
pub(crate) struct AcCoverage(Arc<Shared>);

impl AcCoverage {
    /// The rule, sharing the markers with `stale-ac-marker` through `shared`.
    pub(super) fn new(shared: Arc<Shared>) -> AcCoverage {
        AcCoverage(shared)
    }
}

impl Rule for AcCoverage {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let features = features_for(ctx);
        let with_criteria = |f: &&crate::spec::Feature| {
            f.design
                .as_ref()
                .is_some_and(|d| d.specs.iter().any(|s| !s.criteria.is_empty()))
        };
        if !features.iter().any(with_criteria) {
            return;
        }
        let markers = self.0.markers(ctx);
        for feature in features.into_iter().filter(with_criteria) {
            let cov = coverage(feature, &markers);
            if cov.markers == 0 || cov.covered * 100 >= THRESHOLD_PERCENT * cov.total {
                continue;
            }
            let Some((_, first_line)) = cov.uncovered.first() else {
                continue;
            };
            let ids: Vec<&str> = cov.uncovered.iter().map(|(id, _)| id.as_str()).collect();
            out.hit(
                Hit::new(
                    Location::at(feature.path_of("design.md"), *first_line),
                    format!(
                        "AC markers cover {} of {} acceptance criteria of {} ({} %, below {THRESHOLD_PERCENT} %); untested: {}",
                        cov.covered,
                        cov.total,
                        feature.name,
                        cov.percent(),
                        ids.join(", ")
                    ),
                    format!("ac coverage {}", feature.name),
                )
                .suggest("write tests for the uncovered criteria and mark them `AC: <feature>.S<N>.AC<M>`"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::testing::{context, described, project, repo};

    const DESIGN: &str = "### Spec 1: Cart\n1. adds\n2. removes\n### Spec 2: Pay\n1. charges\n2. refunds\n3. receipts\n";

    #[test]
    fn fires_below_80_percent() {
        let dir = repo(&[
            ("specs/shop/design.md", DESIGN),
            ("tests/shop.rs", "// AC: shop.S1.AC1, shop.S1.AC2\n#[test]\nfn cart() {}\n// AC: shop.S2.AC1\n#[test]\nfn pay() {}\n"),
        ]);
        let sink = project(&AcCoverage::new(Arc::default()), &context(&dir));
        assert_eq!(
            described(&sink),
            vec![(
                "specs/shop/design.md:6".to_string(),
                "AC markers cover 3 of 5 acceptance criteria of shop (60 %, below 80 %); untested: shop.S2.AC2, shop.S2.AC3".to_string()
            )]
        );
    }

    #[test]
    fn quiet_at_80_percent_or_without_markers() {
        let covered =
            "// AC: shop.S1.AC1 shop.S1.AC2 shop.S2.AC1 shop.S2.AC2\n#[test]\nfn all() {}\n";
        let dir = repo(&[("specs/shop/design.md", DESIGN), ("tests/shop.rs", covered)]);
        assert!(project(&AcCoverage::new(Arc::default()), &context(&dir))
            .hits
            .is_empty());
        let dir = repo(&[
            ("specs/shop/design.md", DESIGN),
            ("tests/shop.rs", "#[test]\nfn all() {}\n"),
        ]);
        let sink = project(&AcCoverage::new(Arc::default()), &context(&dir));
        assert!(sink.hits.is_empty() && sink.notes.is_empty());
    }
}
