//! `interface/signature-mismatch`: every function design.md declares against its real
//! definition — receiver, parameter names, types, order and count, return type.

use super::code_fns::definitions;
use super::signature::differences;
use super::{designed_or_note, implementation, Designed};
use crate::engine::{Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use protocol::{Category, Claim, Dimension, Location, Severity};

static META: RuleMeta = RuleMeta {
    id: "interface/signature-mismatch",
    category: Category::SignatureMismatch,
    severity: Severity::Critical,
    languages: &[Language::Rust],
    dimensions: &[Dimension::Architecture],
    explanation: "A function's signature in the code differs from design.md, or it is not defined.",
};

/// A designed signature the code differs from (C, at the code's `fn`), or does not define at
/// all (H, at design.md's line) — unless its feature has files outside the review, which may
/// define it (claimed out of scope instead); claims how many matched.
pub(crate) struct SignatureMismatch;

impl Rule for SignatureMismatch {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    /// A whole-project check: no file is handed to it one by one.
    fn wants(&self, _file: &SourceFile) -> bool {
        false
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let designed = designed_or_note(ctx, out);
        if designed.is_empty() {
            return;
        }
        let defs = definitions(ctx);
        let mut matched = 0u32;
        let mut checked: Vec<&Designed> = Vec::new();
        let mut elsewhere: Vec<&Designed> = Vec::new();
        for d in &designed {
            let name = d.sig.qualified();
            let Some(code) = implementation(&d.sig, &defs) else {
                // Not in the files read, but its feature has files this review did not read (a
                // task-scoped review): it may be defined there, which only a review reading
                // them can tell, so it is neither missing nor checked here.
                if !d.unread.is_empty() {
                    elsewhere.push(d);
                    continue;
                }
                checked.push(d);
                out.hit(
                    Hit::new(
                        Location::at(&d.design_path, d.sig.line),
                        format!("`{name}` is designed in design.md but not defined in the code"),
                        name.clone(),
                    )
                    .with_severity(Severity::High)
                    .suggest("implement it, or remove it from the design"),
                );
                continue;
            };
            checked.push(d);
            let diffs = differences(&d.sig, &code.sig);
            if diffs.is_empty() {
                matched += 1;
                continue;
            }
            out.hit(
                Hit::new(
                    Location::at(&code.path, code.sig.line),
                    format!(
                        "signature of `{name}` differs from design.md: {}",
                        diffs.join("; ")
                    ),
                    name.clone(),
                )
                .suggest(format!(
                    "make the code match {}:{}, or update the design",
                    d.design_path, d.sig.line
                )),
            );
        }
        if !elsewhere.is_empty() {
            // Counts only: the names and files belong to the reviews that read those files.
            let unread = designed.iter().map(|d| d.unread.len()).max().unwrap_or(0);
            out.note(format!(
                "interface: {} designed function(s) defined in none of the reviewed files \
                 were not checked: {unread} file(s) the feature declares are outside this review",
                elsewhere.len()
            ));
        }
        out.claims.push(Claim::SignaturesChecked {
            matched,
            total: checked.len() as u32,
        });
        let covered = covered_names(&checked);
        let out_of_scope: Vec<String> = covered_names(&elsewhere)
            .into_iter()
            .filter(|name| !covered.contains(name))
            .collect();
        out.claims.push(Claim::InterfacesCovered { names: covered });
        if !out_of_scope.is_empty() {
            out.claims.push(Claim::InterfacesOutOfScope {
                names: out_of_scope,
            });
        }
    }
}

/// The design names this rule compared with the code: each designed function and each type
/// whose designed methods it compared, once each in design order (the Auditor's coverage step
/// matches them against the interfaces the design's code blocks name).
fn covered_names(designed: &[&Designed]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for d in designed {
        for name in d.sig.owner.iter().chain(std::iter::once(&d.sig.name)) {
            if !names.contains(name) {
                names.push(name.clone());
            }
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::super::fixture::DESIGN;
    use super::*;
    use crate::spec::testing::{context, context_with, described, project, repo};

    #[test]
    fn fires_with_the_exact_difference_at_the_code_line() {
        let dir = repo(&[
            ("specs/users/design.md", DESIGN),
            (
                "src/user.rs",
                "pub struct User;\npub struct Error;\n\npub fn create_user(name: &str, mail: String) -> Option<User> {\n    None\n}\n",
            ),
            (
                "tests/mocks.rs",
                "pub trait UserRepo { fn lookup(&self, id: u64) -> Option<User>; }\n",
            ),
        ]);
        let sink = project(&SignatureMismatch, &context(&dir));
        assert_eq!(
            described(&sink),
            vec![
                (
                    "src/user.rs:4".to_string(),
                    "signature of `create_user` differs from design.md: parameter 2 is `email: &str` in the design, `mail: String` in the code; return type is `Result<User, Error>` in the design, `Option<User>` in the code".to_string()
                ),
                (
                    "specs/users/design.md:8".to_string(),
                    "`UserRepo::lookup` is designed in design.md but not defined in the code".to_string()
                ),
            ]
        );
        assert_eq!(sink.hits[0].severity, None);
        assert_eq!(sink.hits[1].severity, Some(Severity::High));
        assert_eq!(
            sink.claims,
            vec![
                Claim::SignaturesChecked {
                    matched: 0,
                    total: 2
                },
                Claim::InterfacesCovered {
                    names: vec![
                        "create_user".to_string(),
                        "UserRepo".to_string(),
                        "lookup".to_string()
                    ]
                }
            ]
        );
    }

    /// Two tasks, each designing one function in its own file; the review covers task 1 only.
    fn task_one_review(with_task_two_file: bool) -> Sink {
        let mut files = vec![
            (
                "specs/users/tasks.yaml",
                "tasks:\n  - id: 1\n    files: [src/a.rs]\n  - id: 2\n    files: [src/b.rs]\n",
            ),
            (
                "specs/users/design.md",
                "# Design\n\n```rust\npub fn a_fn(x: u32) -> u32;\npub fn b_fn(x: u32) -> u32;\n```\n",
            ),
            ("src/a.rs", "pub fn a_fn(x: u64) -> u32 {\n    0\n}\n"),
        ];
        if with_task_two_file {
            files.push(("src/b.rs", "pub fn b_fn(y: bool) {}\n"));
        }
        let dir = repo(&files);
        let scope = protocol::Scope::Feature {
            feature: "users".into(),
            tasks: vec!["1".into()],
        };
        let options = protocol::message::InspectOptions {
            no_exec: true,
            ..protocol::message::InspectOptions::default()
        };
        project(&SignatureMismatch, &context_with(&dir, scope, options))
    }

    #[test]
    fn a_task_review_leaves_functions_of_another_tasks_files_to_their_review() {
        let sink = task_one_review(true);
        assert_eq!(
            described(&sink),
            vec![(
                "src/a.rs:1".to_string(),
                "signature of `a_fn` differs from design.md: parameter 1 is `x: u32` in the design, `x: u64` in the code".to_string()
            )]
        );
        assert_eq!(
            sink.notes,
            vec![
                "interface: 1 designed function(s) defined in none of the reviewed files were not checked: 1 file(s) the feature declares are outside this review"
                    .to_string()
            ]
        );
        assert_eq!(
            sink.claims,
            vec![
                Claim::SignaturesChecked {
                    matched: 0,
                    total: 1
                },
                Claim::InterfacesCovered {
                    names: vec!["a_fn".to_string()]
                },
                Claim::InterfacesOutOfScope {
                    names: vec!["b_fn".to_string()]
                }
            ]
        );
        // Without that file nothing could define `b_fn`: it is missing, whatever the scope.
        let sink = task_one_review(false);
        assert_eq!(
            described(&sink)[1],
            (
                "specs/users/design.md:5".to_string(),
                "`b_fn` is designed in design.md but not defined in the code".to_string()
            )
        );
        assert!(sink.notes.is_empty(), "{:?}", sink.notes);
    }

    #[test]
    fn quiet_when_the_code_matches_the_design() {
        let dir = repo(&[
            ("specs/users/design.md", DESIGN),
            (
                "src/user.rs",
                "pub fn create_user(name: &str, email: &str) -> Result<User, Error> { todo() }\npub trait UserRepo {\n    fn lookup(&self, id: u64) -> Option<User>;\n}\nimpl UserRepo for Pg {\n    fn lookup(&self, key: u64) -> Option<User> { None }\n}\n",
            ),
        ]);
        let sink = project(&SignatureMismatch, &context(&dir));
        assert!(sink.hits.is_empty(), "{:?}", sink.hits);
        assert_eq!(
            sink.claims,
            vec![
                Claim::SignaturesChecked {
                    matched: 2,
                    total: 2
                },
                Claim::InterfacesCovered {
                    names: vec![
                        "create_user".to_string(),
                        "UserRepo".to_string(),
                        "lookup".to_string()
                    ]
                }
            ]
        );
    }

    #[test]
    fn notes_when_there_is_no_design() {
        let dir = repo(&[
            ("specs/users/design.md", "# Design\n```text\nfn a();\n```\n"),
            ("src/lib.rs", "pub fn a() {}\n"),
        ]);
        let sink = project(&SignatureMismatch, &context(&dir));
        assert!(sink.hits.is_empty() && sink.claims.is_empty());
        assert_eq!(
            sink.notes,
            vec!["interface: no design: skipped".to_string()]
        );
    }
}
