//! `rulebase/file-missing`: paths that design.md's Components table or spec.yaml's `files`
//! declare but that do not exist on disk.

use super::features_or_note;
use crate::engine::{Context, Hit, Rule, RuleMeta, Sink};
use crate::spec::DeclaredPath;
use protocol::{Category, Dimension, Location, Severity};

static META: RuleMeta = RuleMeta {
    id: "rulebase/file-missing",
    category: Category::FileMissing,
    severity: Severity::High,
    languages: &[],
    dimensions: &[Dimension::Architecture, Dimension::ActionItems],
    explanation: "A file that design.md or spec.yaml declares does not exist.",
};

/// Each declared path missing on disk → one finding at the declaring line.
pub(crate) struct FileMissing;

impl Rule for FileMissing {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        for feature in features_or_note(ctx, out) {
            if let Some(spec) = &feature.spec {
                check(ctx, &feature.path_of("spec.yaml"), &spec.files, out);
            }
            if let Some(design) = &feature.design {
                check(ctx, &feature.path_of("design.md"), &design.components, out);
            }
        }
    }
}

fn check(ctx: &Context, declared_in: &str, paths: &[DeclaredPath], out: &mut Sink) {
    for declared in paths {
        // Globs and placeholders (`src/**/*.rs`, `<name>.rs`) name no single file to look for.
        if declared.path.contains(['*', '?', '[', '<', '{']) || declared.path.is_empty() {
            continue;
        }
        let location = Location::at(declared_in, declared.line);
        let description = match Location::file(&declared.path).resolve(&ctx.root) {
            Ok(full) if full.exists() => continue,
            Ok(_) => format!(
                "`{}` is declared in {declared_in} but does not exist",
                declared.path
            ),
            Err(_) => format!(
                "`{}` is declared in {declared_in} but points outside the repository",
                declared.path
            ),
        };
        out.hit(
            Hit::new(location, description, declared.path.clone())
                .suggest("create the file, or correct the path in the spec"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::testing::{context, described, project, repo};

    const DESIGN: &str = "## Components\n| Component | Files |\n|---|---|\n| Model | `src/user.rs` |\n| API | `src/api.rs`, `src/**/*.rs` |\n| Escape | `../outside.rs` |\n";

    #[test]
    fn fires_on_paths_missing_on_disk_at_the_declaring_line() {
        let dir = repo(&[
            ("specs/users/design.md", DESIGN),
            (
                "specs/users/spec.yaml",
                "phase: tasks-generated\nfiles:\n  - src/user.rs\n  - src/db/\n",
            ),
            ("src/user.rs", "pub struct User;\n"),
        ]);
        let sink = project(&FileMissing, &context(&dir));
        assert_eq!(
            described(&sink),
            vec![
                (
                    "specs/users/spec.yaml:4".to_string(),
                    "`src/db/` is declared in specs/users/spec.yaml but does not exist".to_string()
                ),
                (
                    "specs/users/design.md:5".to_string(),
                    "`src/api.rs` is declared in specs/users/design.md but does not exist"
                        .to_string()
                ),
                (
                    "specs/users/design.md:6".to_string(),
                    "`../outside.rs` is declared in specs/users/design.md but points outside the repository"
                        .to_string()
                ),
            ]
        );
    }

    #[test]
    fn quiet_when_every_declared_path_exists() {
        let dir = repo(&[
            (
                "specs/users/design.md",
                "| Component | Files |\n|---|---|\n| Model | `src/user.rs` |\n",
            ),
            ("specs/users/spec.yaml", "files: [src/]\n"),
            ("src/user.rs", "pub struct User;\n"),
        ]);
        let sink = project(&FileMissing, &context(&dir));
        assert!(sink.hits.is_empty(), "{:?}", sink.hits);
        assert!(sink.notes.is_empty());
    }
}
