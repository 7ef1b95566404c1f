//! `rulebase/traceability`: each `### Spec N` of design.md against the implementation — do the
//! paths and names the section cites in backticks exist in the reviewed files, or in the
//! feature's declared files when the scope leaves them out (a session reviews only the changed
//! files, and a spec is not "not implemented" because its code did not change)?

use super::features_or_note;
use crate::engine::{is_test_path, Context, Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::rules::repository_files::{FileRef, RepositoryFiles};
use crate::spec::{Design, Feature, SpecSection};
use protocol::{Category, Dimension, Location, Severity};

static META: RuleMeta = RuleMeta {
    id: "rulebase/traceability",
    category: Category::TraceabilityMissing,
    severity: Severity::High,
    languages: &[],
    dimensions: &[Dimension::ActionItems, Dimension::Quality],
    explanation: "A design.md spec section whose cited paths and names are missing from the code.",
};

/// Names too common to be evidence that a spec is implemented.
const COMMON: [&str; 24] = [
    "String", "str", "Vec", "Option", "Result", "Some", "None", "Ok", "Err", "Box", "Self", "self",
    "true", "false", "bool", "usize", "u32", "u64", "i32", "i64", "f64", "HashMap", "null",
    "Error",
];

/// Nothing cited found → "Spec N not implemented" (H); some → "Partial implementation" (M).
pub(crate) struct Traceability;

/// What a section cites: a path, or a name (the segments of `Type::method`).
#[derive(Debug, PartialEq)]
enum Cited {
    Path(String),
    Name(Vec<String>),
}

impl Rule for Traceability {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let features = features_or_note(ctx, out);
        let implementation: Vec<&SourceFile> = ctx
            .files
            .iter()
            .filter(|f| {
                !f.rel_path.starts_with("specs/")
                    && !f.rel_path.starts_with("steering/")
                    && !f.is_test_file()
            })
            .collect();
        let mut repository: Option<RepositoryFiles<'_>> = None;
        for feature in features {
            let Some(design) = design_with_specs(feature) else {
                continue;
            };
            let repo = repository.get_or_insert_with(|| RepositoryFiles::of(ctx));
            let declared = feature.declared_paths();
            let outside: Vec<FileRef<'_>> = repo
                .paths()
                .iter()
                .filter(|p| ctx.file(p).is_none() && !is_test_path(p))
                .filter(|p| declared.iter().any(|d| covers(d, p)))
                .filter_map(|p| repo.source(p))
                .collect();
            let mut files = implementation.clone();
            files.extend(outside.iter().map(|f| &**f));
            let path = feature.path_of("design.md");
            for section in &design.specs {
                check_section(ctx, &files, &path, section, out);
            }
        }
    }
}

fn design_with_specs(feature: &Feature) -> Option<&Design> {
    feature.design.as_ref().filter(|d| !d.specs.is_empty())
}

/// Whether the declared path `declared` (a file, or a folder) covers `path`.
fn covers(declared: &str, path: &str) -> bool {
    let d = declared.trim_end_matches('/');
    path == d
        || path
            .strip_prefix(d)
            .is_some_and(|rest| rest.starts_with('/'))
}

fn check_section(
    ctx: &Context,
    implementation: &[&SourceFile],
    design_path: &str,
    section: &SpecSection,
    out: &mut Sink,
) {
    let cited: Vec<(String, Cited)> = section
        .cited
        .iter()
        .filter_map(|c| classify(c).map(|k| (c.clone(), k)))
        .collect();
    if cited.is_empty() {
        return;
    }
    let missing: Vec<&str> = cited
        .iter()
        .filter(|(_, c)| !has_evidence(ctx, implementation, c))
        .map(|(text, _)| text.as_str())
        .collect();
    let anchor = format!("Spec {}", section.number);
    let location = Location::anchored(design_path, anchor.clone());
    if missing.len() == cited.len() {
        out.hit(
            Hit::new(
                location,
                format!("Spec {} not implemented: {}", section.number, section.title),
                anchor,
            )
            .suggest("implement the section, or correct the names and paths it cites"),
        );
    } else if !missing.is_empty() {
        let list: Vec<String> = missing.iter().map(|m| format!("`{m}`")).collect();
        out.hit(
            Hit::new(
                location,
                format!(
                    "Partial implementation of Spec {}: {}; no trace of {}",
                    section.number,
                    section.title,
                    list.join(", ")
                ),
                anchor,
            )
            .with_severity(Severity::Medium),
        );
    }
}

/// A path (has a `/` or a known source extension) or a name (`name`, `name()`, `Type::name`);
/// anything else (types with generics, prose, routes) cites nothing checkable.
fn classify(span: &str) -> Option<Cited> {
    if span.contains(char::is_whitespace) || span.starts_with('/') || span.contains("://") {
        return None;
    }
    let has_ext = Language::of(span).is_some() && span.contains('.');
    if (span.contains('/') || has_ext) && !span.contains(['(', '<', ':']) {
        return Some(Cited::Path(span.trim_end_matches('/').to_string()));
    }
    let name = span.split('(').next().unwrap_or_default();
    let segments: Vec<String> = name
        .split("::")
        .filter(|s| !matches!(*s, "crate" | "self" | "super" | "Self"))
        .map(str::to_string)
        .collect();
    let identifier = |s: &String| {
        s.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_alphanumeric() || c == '_')
    };
    if segments.is_empty() || !segments.iter().all(identifier) {
        return None;
    }
    let last = segments.last()?;
    if last.chars().count() < 3 || COMMON.contains(&last.as_str()) {
        return None;
    }
    Some(Cited::Name(segments))
}

fn has_evidence(ctx: &Context, implementation: &[&SourceFile], cited: &Cited) -> bool {
    match cited {
        Cited::Path(p) => {
            implementation.iter().any(|f| {
                f.rel_path == *p
                    || f.rel_path
                        .strip_prefix(p.as_str())
                        .is_some_and(|rest| rest.starts_with('/'))
                    || f.rel_path
                        .strip_suffix(p.as_str())
                        .is_some_and(|head| head.ends_with('/'))
            }) || Location::file(p)
                .resolve(&ctx.root)
                .is_ok_and(|full| full.exists())
        }
        Cited::Name(segments) => segments
            .iter()
            .all(|seg| implementation.iter().any(|f| contains_word(&f.text, seg))),
    }
}

/// Whether `word` occurs in `text` with no identifier character on either side.
fn contains_word(text: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::testing::{context, described, project, repo};

    const DESIGN: &str = "\
## Specs
### Spec 1: Create users
`create_user()` in `src/user.rs` returns a `User`.
1. it works

### Spec 2: Sessions
`SessionStore::open` and `close_session` live in `src/session.rs`.

### Spec 3: Audit log
`write_audit_entry` records every change.

### Spec 4: Prose only
Users are happy; returns `Result<User, Error>` and `Ok`.
";

    #[test]
    fn fires_on_missing_and_partial_specs() {
        let dir = repo(&[
            ("specs/users/design.md", DESIGN),
            (
                "src/user.rs",
                "pub struct User;\npub fn create_user() -> User { User }\n",
            ),
            (
                "src/session.rs",
                "pub struct SessionStore;\nimpl SessionStore { pub fn open() {} }\n",
            ),
            ("tests/audit.rs", "fn write_audit_entry() {}\n"),
        ]);
        let sink = project(&Traceability, &context(&dir));
        assert_eq!(
            described(&sink),
            vec![
                (
                    "specs/users/design.md#Spec 2".to_string(),
                    "Partial implementation of Spec 2: Sessions; no trace of `close_session`"
                        .to_string()
                ),
                (
                    "specs/users/design.md#Spec 3".to_string(),
                    "Spec 3 not implemented: Audit log".to_string()
                ),
            ]
        );
        assert_eq!(sink.hits[0].severity, Some(Severity::Medium));
        assert_eq!(sink.hits[1].severity, None);
    }

    #[test]
    fn quiet_when_every_citation_has_evidence() {
        let dir = repo(&[
            (
                "specs/users/design.md",
                "### Spec 1: Create users\n`create_user` in `src/user.rs`.\n",
            ),
            ("src/user.rs", "pub fn create_user() {}\n"),
        ]);
        assert!(project(&Traceability, &context(&dir)).hits.is_empty());
    }

    #[test]
    fn declared_files_outside_a_narrow_scope_still_count_as_evidence() {
        let dir = repo(&[
            (
                "specs/users/design.md",
                "### Spec 1: Create users\n`create_user` stores, `notify_user` tells.\n",
            ),
            ("specs/users/spec.yaml", "files: [src/user.rs, src/mail/]\n"),
            ("src/user.rs", "pub fn create_user() {}\n"),
            ("src/mail/notify.rs", "pub fn notify_user() {}\n"),
            ("src/other.rs", "pub fn unrelated() {}\n"),
        ]);
        let scope = protocol::Scope::Module {
            globs: vec!["src/user.rs".into()],
        };
        let ctx = crate::spec::testing::context_with(
            &dir,
            scope,
            protocol::message::InspectOptions::default(),
        );
        assert_eq!(ctx.files.len(), 1);
        let sink = project(&Traceability, &ctx);
        assert!(sink.hits.is_empty(), "{:?}", sink.hits);
    }

    #[test]
    fn classifies_citations() {
        assert_eq!(classify("src/a.rs"), Some(Cited::Path("src/a.rs".into())));
        assert_eq!(
            classify("Cargo.toml"),
            Some(Cited::Path("Cargo.toml".into()))
        );
        assert_eq!(
            classify("Store::open()"),
            Some(Cited::Name(vec!["Store".into(), "open".into()]))
        );
        assert_eq!(classify("POST /users"), None);
        assert_eq!(classify("/users"), None);
        assert_eq!(classify("Option<User>"), None);
        assert_eq!(classify("id"), None);
        assert_eq!(classify("Result"), None);
        assert!(contains_word("fn open_all() {} fn open() {}", "open"));
        assert!(!contains_word("fn open_all() {}", "open"));
    }
}
