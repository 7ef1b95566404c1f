//! `interface/signature-mismatch`: every function design.md declares against its real
//! definition — receiver, parameter names, types, order and count, return type.

use super::code_fns::definitions;
use super::signature::differences;
use super::{designed_or_note, implementation, Designed};
use crate::engine::{Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use protocol::{Claim, Dimension, Location, Severity};

static META: RuleMeta = RuleMeta {
    id: "interface/signature-mismatch",
    category: "signature-mismatch",
    severity: Severity::Critical,
    languages: &[Language::Rust],
    dimensions: &[Dimension::Architecture],
    explanation: "A function's signature in the code differs from design.md, or it is not defined.",
};

/// A designed signature the code differs from (C, at the code's `fn`), or does not define at
/// all (H, at design.md's line); claims how many matched.
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
        for d in &designed {
            let name = d.sig.qualified();
            let Some(code) = implementation(&d.sig, &defs) else {
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
        out.claims.push(Claim::SignaturesChecked {
            matched,
            total: designed.len() as u32,
        });
        out.claims.push(Claim::InterfacesCovered {
            names: covered_names(&designed),
        });
    }
}

/// The design names this rule compared with the code: each designed function and each type
/// whose designed methods it compared, once each in design order (the Auditor's coverage step
/// matches them against the interfaces the design's code blocks name).
fn covered_names(designed: &[Designed]) -> Vec<String> {
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
    use crate::spec::testing::{context, described, project, repo};

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
