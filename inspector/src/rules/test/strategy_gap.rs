//! `test/strategy-gap`: test categories design.md's `## Testing Strategy` promises — unit,
//! integration, end-to-end, property-based, performance, fuzz, snapshot — that the repository's
//! tests do not have. A promise is a category word on a line of the section that does not
//! negate it ("no e2e tests", "not fuzzed", "out of scope"); the evidence is the tests' paths
//! and, for the library-shaped categories, their text (`proptest!`, `criterion`, `fuzz_target!`).

use super::conventions::names_integration;
use crate::engine::{is_test_path, Context, Hit, Rule, RuleMeta, Sink};
use crate::rules::repository_files::RepositoryFiles;
use crate::spec::features_for;
use protocol::{Dimension, Location, Severity};

static META: RuleMeta = RuleMeta {
    id: "test/strategy-gap",
    category: protocol::Category::StrategyGap,
    severity: Severity::Medium,
    languages: &[],
    dimensions: &[Dimension::Quality, Dimension::ActionItems],
    explanation: "design.md's Testing Strategy promises a category of tests (integration, e2e, property, …) the tests lack.",
};

/// One category of tests: the words that promise it, the path words and text that prove it.
struct Category {
    name: &'static str,
    promised_by: &'static [&'static str],
    path_words: &'static [&'static str],
    text: &'static [&'static str],
    lacking: &'static str,
}

const CATEGORIES: [Category; 7] = [
    Category {
        name: "unit",
        promised_by: &["unit test", "unit-test"],
        path_words: &[],
        text: &[
            "#[test]",
            "#[tokio::test]",
            "def test",
            "func Test",
            "it(",
            "test(",
        ],
        lacking: "no test exists at all",
    },
    Category {
        name: "integration",
        promised_by: &["integration"],
        path_words: &[],
        text: &[],
        lacking: "no Rust `tests/` file and no test under an integration, e2e or functional path",
    },
    Category {
        name: "end-to-end",
        promised_by: &["e2e", "end-to-end", "end to end"],
        path_words: &["e2e", "end_to_end", "end-to-end", "cypress", "playwright"],
        text: &[],
        lacking: "no test under an e2e, end-to-end, Cypress or Playwright path",
    },
    Category {
        name: "property-based",
        promised_by: &[
            "property-based",
            "property based",
            "property test",
            "proptest",
            "quickcheck",
            "hypothesis",
            "fast-check",
        ],
        path_words: &[],
        text: &[
            "proptest!",
            "proptest::",
            "quickcheck",
            "@given",
            "from hypothesis",
            "fc.assert",
            "fast-check",
            "testing/quick",
            "rapid.",
        ],
        lacking:
            "no test uses a property-testing library (proptest, quickcheck, hypothesis, fast-check)",
    },
    Category {
        name: "performance",
        promised_by: &["performance", "benchmark", "load test", "load-test"],
        path_words: &["benches/", "bench", "perf", "load_test", "loadtest", "k6"],
        text: &[
            "criterion",
            "#[bench]",
            "func Benchmark",
            "benchmark(",
            "divan::",
        ],
        lacking:
            "no benchmark or load test (benches/, criterion, func Benchmark, pytest-benchmark)",
    },
    Category {
        name: "fuzz",
        promised_by: &["fuzz"],
        path_words: &["fuzz"],
        text: &["fuzz_target!", "func Fuzz", "atheris"],
        lacking: "no fuzz target (fuzz/, fuzz_target!, func Fuzz)",
    },
    Category {
        name: "snapshot",
        promised_by: &["snapshot"],
        path_words: &["__snapshots__", "snapshots/"],
        text: &[
            "assert_snapshot!",
            "assert_debug_snapshot!",
            "assert_yaml_snapshot!",
            "toMatchSnapshot",
            "toMatchInlineSnapshot",
        ],
        lacking: "no snapshot test (insta, toMatchSnapshot)",
    },
];

/// Words that turn a line's promise into its opposite.
const NEGATIONS: [&str; 7] = [
    "no ",
    "not ",
    "n't",
    "without",
    "out of scope",
    "none",
    "neither",
];

/// Each promised category the tests lack → one finding at the line that promises it.
pub(crate) struct StrategyGap;

impl Rule for StrategyGap {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let mut files: Option<RepositoryFiles<'_>> = None;
        for feature in features_for(ctx) {
            let Some(section) = feature
                .design
                .as_ref()
                .and_then(|d| d.section("Testing Strategy"))
            else {
                continue;
            };
            let design_path = feature.path_of("design.md");
            for (category, line) in promises(&section.body, section.line) {
                let files = files.get_or_insert_with(|| RepositoryFiles::of(ctx));
                if has_tests_of(files, category) {
                    continue;
                }
                out.hit(
                    Hit::new(
                        Location::at(&design_path, line),
                        format!(
                            "the Testing Strategy of {} promises {} tests, but {}",
                            feature.name, category.name, category.lacking
                        ),
                        format!("strategy {} {}", feature.name, category.name),
                    )
                    .suggest(
                        "write the promised tests, or change the Testing Strategy to what is done",
                    ),
                );
            }
        }
    }
}

/// The categories a Testing Strategy body promises, each once, with the first line promising it.
fn promises(body: &str, heading_line: u32) -> Vec<(&'static Category, u32)> {
    let mut out: Vec<(&'static Category, u32)> = Vec::new();
    for (i, line) in body.lines().enumerate() {
        let lower = line.to_lowercase();
        if NEGATIONS.iter().any(|n| lower.contains(n)) {
            continue;
        }
        for category in &CATEGORIES {
            let promised = category.promised_by.iter().any(|w| lower.contains(w));
            if promised && !out.iter().any(|(c, _)| c.name == category.name) {
                out.push((category, heading_line + 1 + i as u32));
            }
        }
    }
    out
}

/// Whether the repository's tests include `category`.
fn has_tests_of(files: &RepositoryFiles<'_>, category: &Category) -> bool {
    if category.name == "integration" {
        return files
            .test_paths()
            .any(|p| names_integration(p) || (p.ends_with(".rs") && p.contains("tests/")));
    }
    let by_path = files.paths().iter().any(|p| {
        let lower = p.to_lowercase();
        category.path_words.iter().any(|w| lower.contains(w))
    });
    by_path
        || files.paths().iter().any(|p| {
            // Rust keeps unit and property tests beside the code; elsewhere they are test files.
            (is_test_path(p) || p.ends_with(".rs"))
                && files
                    .text(p)
                    .is_some_and(|t| category.text.iter().any(|w| t.contains(w)))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::testing::{context, described, project, repo};

    const DESIGN: &str = "# Design\n\n## Testing Strategy\n- Unit tests for every module.\n- Integration tests under `tests/`.\n- Property-based tests for the pricing rules (proptest).\n- Benchmarks of the hot path with criterion.\n- No e2e tests: there is no UI.\n\n## Other\nfuzz everything\n";

    #[test]
    fn fires_on_promised_categories_the_tests_lack() {
        let dir = repo(&[
            ("specs/shop/design.md", DESIGN),
            ("src/lib.rs", "pub fn price() -> u32 { 1 }\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn p() { assert_eq!(super::price(), 1); }\n}\n"),
        ]);
        let sink = project(&StrategyGap, &context(&dir));
        assert_eq!(
            described(&sink),
            vec![
                ("specs/shop/design.md:5".to_string(), "the Testing Strategy of shop promises integration tests, but no Rust `tests/` file and no test under an integration, e2e or functional path".to_string()),
                ("specs/shop/design.md:6".to_string(), "the Testing Strategy of shop promises property-based tests, but no test uses a property-testing library (proptest, quickcheck, hypothesis, fast-check)".to_string()),
                ("specs/shop/design.md:7".to_string(), "the Testing Strategy of shop promises performance tests, but no benchmark or load test (benches/, criterion, func Benchmark, pytest-benchmark)".to_string()),
            ]
        );
    }

    #[test]
    fn quiet_when_every_promise_is_kept() {
        let dir = repo(&[
            ("specs/shop/design.md", DESIGN),
            ("src/lib.rs", "pub fn price() -> u32 { 1 }\n#[cfg(test)]\nmod tests {\n    proptest::proptest! {\n        #[test]\n        fn p(x in 0u32..9) { assert!(x < 9); }\n    }\n}\n"),
            ("tests/api.rs", "#[test]\nfn api() { assert_eq!(shop::price(), 1); }\n"),
            ("benches/hot.rs", "fn bench(c: &mut Criterion) {}\n"),
        ]);
        let sink = project(&StrategyGap, &context(&dir));
        assert!(sink.hits.is_empty(), "{:?}", sink.hits);
    }
}
