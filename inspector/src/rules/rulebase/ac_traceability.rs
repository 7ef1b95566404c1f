//! `rulebase/ac-traceability`: acceptance criteria against the `AC:` markers of the tests.
//!
//! For each checked feature whose design.md numbers acceptance criteria, a note says how many
//! are traced to a test — and, when no marker names the feature at all, that the traceability
//! is advisory (the project does not mark its tests). Markers naming a spec section or criterion
//! that does not exist are stale (L). Whether the coverage is high enough is the test
//! Inspector's judgement (`test/ac-coverage`).

use super::features_or_note;
use crate::engine::{Context, Rule, RuleMeta, Sink};
use crate::rules::ac_markers::{coverage, repository_markers, stale_marker_hits};
use crate::rules::repository_files::RepositoryFiles;
use protocol::{Category, Dimension, Severity};

static META: RuleMeta = RuleMeta {
    id: "rulebase/ac-traceability",
    category: Category::StaleAcMarker,
    severity: Severity::Low,
    languages: &[],
    dimensions: &[Dimension::ActionItems, Dimension::Maintainability],
    explanation: "An `AC:` marker in a test names a spec or criterion that does not exist; AC coverage is noted per feature.",
};

/// Notes each feature's AC coverage; each stale marker → one finding at the marker.
pub(crate) struct AcTraceability;

impl Rule for AcTraceability {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let features = features_or_note(ctx, out);
        if ctx.specs.is_empty() {
            return;
        }
        let markers = repository_markers(&RepositoryFiles::of(ctx));
        for feature in features {
            let cov = coverage(feature, &markers);
            if cov.total == 0 {
                continue;
            }
            out.note(if cov.markers == 0 {
                format!(
                    "rulebase: {}: no test carries an `AC: {}.S<N>.AC<M>` marker; AC traceability of its {} criteria is advisory",
                    feature.name, feature.name, cov.total
                )
            } else {
                format!(
                    "rulebase: {}: AC markers trace {} of {} acceptance criteria ({} %)",
                    feature.name,
                    cov.covered,
                    cov.total,
                    cov.percent()
                )
            });
        }
        for hit in stale_marker_hits(ctx, &markers) {
            out.hit(hit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::testing::{context, described, project, repo};

    const DESIGN: &str =
        "### Spec 1: Cart\n1. adds items\n2. removes items\n### Spec 2: Pay\n1. charges\n";

    #[test]
    fn notes_coverage_and_fires_on_stale_markers() {
        let dir = repo(&[
            ("specs/shop/design.md", DESIGN),
            (
                "tests/cart.rs",
                "// AC: shop.S1.AC1\n#[test]\nfn adds() {}\n// AC: shop.S1.AC3\n#[test]\nfn clears() {}\n",
            ),
            (
                "src/pay.rs",
                "// AC: shop.S2.AC1 (not a test)\npub fn pay() {}\n#[cfg(test)]\nmod tests {\n    // AC: shop.S4.AC1\n    #[test]\n    fn t() {}\n}\n",
            ),
        ]);
        let sink = project(&AcTraceability, &context(&dir));
        assert_eq!(
            sink.notes,
            vec!["rulebase: shop: AC markers trace 1 of 3 acceptance criteria (33 %)".to_string()]
        );
        assert_eq!(
            described(&sink),
            vec![
                (
                    "src/pay.rs:5".to_string(),
                    "AC marker `shop.S4.AC1` is stale: specs/shop/design.md has no `### Spec 4`"
                        .to_string()
                ),
                (
                    "tests/cart.rs:4".to_string(),
                    "AC marker `shop.S1.AC3` is stale: Spec 1 of specs/shop/design.md has no acceptance criterion 3"
                        .to_string()
                ),
            ]
        );
    }

    #[test]
    fn without_markers_it_only_notes_that_traceability_is_advisory() {
        let dir = repo(&[
            ("specs/shop/design.md", DESIGN),
            ("tests/cart.rs", "#[test]\nfn adds() {}\n"),
        ]);
        let sink = project(&AcTraceability, &context(&dir));
        assert!(sink.hits.is_empty());
        assert_eq!(
            sink.notes,
            vec!["rulebase: shop: no test carries an `AC: shop.S<N>.AC<M>` marker; AC traceability of its 3 criteria is advisory".to_string()]
        );
    }
}
