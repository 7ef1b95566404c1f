//! `test/stale-ac-marker`: an `AC:` marker in a test that names a spec folder, spec section or
//! acceptance criterion that does not exist — the test claims to prove something nobody asked
//! for, or what it proved was renumbered away. The marker scanner and the judgement are shared
//! with `rulebase/ac-traceability` (`rules/ac_markers.rs`).

use super::Shared;
use crate::engine::{Context, Rule, RuleMeta, Sink};
use crate::rules::ac_markers::stale_marker_hits;
use protocol::{Category, Dimension, Severity};
use std::sync::Arc;

static META: RuleMeta = RuleMeta {
    id: "test/stale-ac-marker",
    category: Category::StaleAcMarker,
    severity: Severity::Low,
    languages: &[],
    dimensions: &[Dimension::Quality, Dimension::Maintainability],
    explanation:
        "An `AC:` marker in a test names a spec or acceptance criterion that does not exist.",
};

/// Each stale marker → one finding at the marker.
pub(crate) struct StaleAcMarker(Arc<Shared>);

impl StaleAcMarker {
    /// The rule, sharing the markers with `ac-coverage` through `shared`.
    pub(super) fn new(shared: Arc<Shared>) -> StaleAcMarker {
        StaleAcMarker(shared)
    }
}

impl Rule for StaleAcMarker {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        // Without a spec layout there is nothing a marker could name.
        if ctx.specs.is_empty() {
            return;
        }
        let markers = self.0.markers(ctx);
        for hit in stale_marker_hits(ctx, &markers) {
            out.hit(hit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::testing::{context, described, project, repo};

    #[test]
    fn fires_on_markers_naming_nothing() {
        let dir = repo(&[
            ("specs/shop/design.md", "### Spec 1: Cart\n1. adds\n"),
            ("tests/test_cart.py", "# AC: shop.S1.AC1\ndef test_adds():\n    assert add()\n\n# AC: shop.S1.AC2\ndef test_removes():\n    assert remove()\n"),
        ]);
        let sink = project(&StaleAcMarker::new(Arc::default()), &context(&dir));
        assert_eq!(
            described(&sink),
            vec![(
                "tests/test_cart.py:5".to_string(),
                "AC marker `shop.S1.AC2` is stale: Spec 1 of specs/shop/design.md has no acceptance criterion 2".to_string()
            )]
        );
    }

    #[test]
    fn quiet_without_specs_or_with_valid_markers() {
        let dir = repo(&[(
            "tests/test_cart.py",
            "# AC: shop.S1.AC9\ndef test_x():\n    assert x()\n",
        )]);
        assert!(project(&StaleAcMarker::new(Arc::default()), &context(&dir))
            .hits
            .is_empty());
        let dir = repo(&[
            ("specs/shop/design.md", "### Spec 1: Cart\n1. adds\n"),
            (
                "tests/test_cart.py",
                "# AC: shop.S1.AC1\ndef test_x():\n    assert x()\n",
            ),
        ]);
        assert!(project(&StaleAcMarker::new(Arc::default()), &context(&dir))
            .hits
            .is_empty());
    }
}
