//! Acceptance-criteria markers: `AC: <feature>.S<N>.AC<M>` in the comments of tests, read once
//! here for both Inspectors that judge them — rulebase (traceability, stale markers) and test
//! (coverage below 80 %, stale markers).
//!
//! A marker counts in a file that is test code by its path, or on a test-code line of a Rust
//! file (`#[cfg(test)]` modules); one `AC:` may list several ids (`AC: shop.S1.AC1, shop.S1.AC2`).

use crate::engine::{Context, Hit, Language};
use crate::lexical::lex;
use crate::rules::repository_files::RepositoryFiles;
use crate::rules::test_code::TestCode;
use crate::spec::{features_for, Feature, Specs};
use protocol::Location;

/// One marker in a test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Marker {
    /// The feature folder it names.
    pub(crate) feature: String,
    /// The spec section number (`2`, `2.1`).
    pub(crate) spec: String,
    /// The criterion's number.
    pub(crate) ac: u32,
    /// The file it is in.
    pub(crate) path: String,
    /// Its 1-based line.
    pub(crate) line: u32,
}

impl Marker {
    /// `feature.SN.ACM`.
    pub(crate) fn id(&self) -> String {
        format!("{}.S{}.AC{}", self.feature, self.spec, self.ac)
    }
}

/// How a feature's acceptance criteria are covered by markers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Coverage {
    /// Criteria design.md numbers.
    pub(crate) total: usize,
    /// Criteria at least one marker names.
    pub(crate) covered: usize,
    /// Markers that name this feature (stale ones included).
    pub(crate) markers: usize,
    /// The uncovered criteria's ids with their design.md lines, in design order.
    pub(crate) uncovered: Vec<(String, u32)>,
}

impl Coverage {
    /// Covered criteria in whole percent, rounded down (100 without criteria).
    pub(crate) fn percent(&self) -> usize {
        (self.covered * 100).checked_div(self.total).unwrap_or(100)
    }
}

/// Every marker in the repository's test code.
pub(crate) fn repository_markers(files: &RepositoryFiles<'_>) -> Vec<Marker> {
    let mut out = Vec::new();
    for path in files.paths() {
        let by_path = crate::engine::is_test_path(path);
        if !by_path && Language::of(path) != Some(Language::Rust) {
            continue;
        }
        let Some(file) = files.source(path) else {
            continue;
        };
        let found = markers_in(path, &file.text);
        if found.is_empty() {
            continue;
        }
        if by_path {
            out.extend(found);
        } else {
            let tests = TestCode::of(&file);
            out.extend(found.into_iter().filter(|m| tests.contains(m.line)));
        }
    }
    out
}

/// The markers in the comments of one file.
pub(crate) fn markers_in(path: &str, text: &str) -> Vec<Marker> {
    let Some(lang) = Language::of(path).filter(|l| *l != Language::Config) else {
        return Vec::new();
    };
    if !text.contains("AC:") {
        return Vec::new();
    }
    let mut out = Vec::new();
    for line in lex(text, lang) {
        for comment in line.comments() {
            for (feature, spec, ac) in parse_markers(comment.body) {
                out.push(Marker {
                    feature,
                    spec,
                    ac,
                    path: path.to_string(),
                    line: line.number,
                });
            }
        }
    }
    out
}

/// The `(feature, spec, ac)` ids after each `AC:` of a comment.
fn parse_markers(comment: &str) -> Vec<(String, String, u32)> {
    let mut out = Vec::new();
    for (at, _) in comment.match_indices("AC:") {
        let rest = &comment[at + 3..];
        for token in rest.split([',', ' ', ';', '\t']).filter(|t| !t.is_empty()) {
            match parse_id(token.trim_end_matches(['.', ')', ']'])) {
                Some(id) => out.push(id),
                None => break,
            }
        }
    }
    out
}

/// `shop.S2.1.AC3` → ("shop", "2.1", 3).
fn parse_id(token: &str) -> Option<(String, String, u32)> {
    let (feature, rest) = token.split_once(".S")?;
    let (spec, ac) = rest.rsplit_once(".AC")?;
    let feature_ok = !feature.is_empty()
        && feature
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_');
    let spec_ok = spec.starts_with(|c: char| c.is_ascii_digit())
        && spec.chars().all(|c| c.is_ascii_digit() || c == '.');
    if !feature_ok || !spec_ok {
        return None;
    }
    Some((feature.to_string(), spec.to_string(), ac.parse().ok()?))
}

/// How `markers` cover `feature`'s acceptance criteria (design.md's numbered items).
pub(crate) fn coverage(feature: &Feature, markers: &[Marker]) -> Coverage {
    let mine: Vec<&Marker> = markers
        .iter()
        .filter(|m| m.feature == feature.name)
        .collect();
    let mut cov = Coverage {
        total: 0,
        covered: 0,
        markers: mine.len(),
        uncovered: Vec::new(),
    };
    let Some(design) = &feature.design else {
        return cov;
    };
    for section in &design.specs {
        for criterion in &section.criteria {
            cov.total += 1;
            if mine
                .iter()
                .any(|m| m.spec == section.number && m.ac == criterion.number)
            {
                cov.covered += 1;
            } else {
                let id = format!(
                    "{}.S{}.AC{}",
                    feature.name, section.number, criterion.number
                );
                cov.uncovered.push((id, criterion.line));
            }
        }
    }
    cov
}

/// Why a marker names nothing, when it does: an unknown feature, spec section or criterion.
/// A feature without design.md cannot be judged and is never called stale.
pub(crate) fn staleness(marker: &Marker, specs: &Specs) -> Option<String> {
    let Some(feature) = specs.feature(&marker.feature) else {
        return Some(format!("there is no spec folder specs/{}/", marker.feature));
    };
    let design = feature.design.as_ref()?;
    let path = feature.path_of("design.md");
    let Some(section) = design.specs.iter().find(|s| s.number == marker.spec) else {
        return Some(format!("{path} has no `### Spec {}`", marker.spec));
    };
    if section.criteria.iter().any(|c| c.number == marker.ac) {
        return None;
    }
    Some(format!(
        "Spec {} of {path} has no acceptance criterion {}",
        marker.spec, marker.ac
    ))
}

/// One hit per stale marker of the review: markers naming a feature the review checks (future
/// waves are not checked) or a feature that does not exist at all.
pub(crate) fn stale_marker_hits(ctx: &Context, markers: &[Marker]) -> Vec<Hit> {
    let checked: Vec<&str> = features_for(ctx).iter().map(|f| f.name.as_str()).collect();
    markers
        .iter()
        .filter(|m| {
            checked.contains(&m.feature.as_str()) || ctx.specs.feature(&m.feature).is_none()
        })
        .filter_map(|m| {
            let why = staleness(m, &ctx.specs)?;
            Some(
                Hit::new(
                    Location::at(&m.path, m.line),
                    format!("AC marker `{}` is stale: {why}", m.id()),
                    format!("stale {}", m.id()),
                )
                .suggest("point the marker at an existing acceptance criterion, or remove it"),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_markers_in_comments_only() {
        let text = "// AC: shop.S1.AC1, shop.S2.1.AC3\nlet s = \"AC: shop.S9.AC9\";\n/* AC: shop.S1.AC2. */\n// AC: not-a-marker shop.S1.AC4\n";
        let ids: Vec<(String, u32)> = markers_in("tests/a.rs", text)
            .iter()
            .map(|m| (m.id(), m.line))
            .collect();
        assert_eq!(
            ids,
            vec![
                ("shop.S1.AC1".to_string(), 1),
                ("shop.S2.1.AC3".to_string(), 1),
                ("shop.S1.AC2".to_string(), 3),
            ]
        );
        let py = markers_in(
            "tests/test_a.py",
            "# AC: shop.S1.AC1\nx = 'AC: shop.S1.AC2'\n",
        );
        assert_eq!(py.len(), 1);
        assert!(markers_in("README.md", "AC: shop.S1.AC1").is_empty());
    }

    #[test]
    fn coverage_and_staleness_against_the_design() {
        let feature = Feature::from_texts(
            "shop",
            None,
            None,
            Some("### Spec 1: Cart\n1. adds\n2. removes\n### Spec 2: Pay\n1. charges\n"),
        )
        .expect("feature");
        let specs = Specs::from_features(vec![feature.clone()], None);
        let markers = markers_in(
            "tests/a.rs",
            "// AC: shop.S1.AC1\n// AC: shop.S1.AC1 shop.S2.AC1\n// AC: shop.S1.AC7\n// AC: shop.S3.AC1\n// AC: gone.S1.AC1\n",
        );
        let cov = coverage(&feature, &markers);
        assert_eq!(
            (cov.total, cov.covered, cov.markers, cov.percent()),
            (3, 2, 5, 66)
        );
        assert_eq!(cov.uncovered, vec![("shop.S1.AC2".to_string(), 3)]);
        let stale: Vec<(String, String)> = markers
            .iter()
            .filter_map(|m| staleness(m, &specs).map(|w| (m.id(), w)))
            .collect();
        assert_eq!(
            stale,
            vec![
                (
                    "shop.S1.AC7".to_string(),
                    "Spec 1 of specs/shop/design.md has no acceptance criterion 7".to_string()
                ),
                (
                    "shop.S3.AC1".to_string(),
                    "specs/shop/design.md has no `### Spec 3`".to_string()
                ),
                (
                    "gone.S1.AC1".to_string(),
                    "there is no spec folder specs/gone/".to_string()
                ),
            ]
        );
    }
}
