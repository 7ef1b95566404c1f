//! `rulebase/gate-config-changed`: the change under review edits the files that configure its
//! own gate — `retake.toml`, `.retake/decisions.yaml`, the "Allowed" sections of
//! `steering/*.md`, the Steering Exceptions of `.retake/handover/session.md` (the sections
//! retake drafts there after every command are not the gate's).
//!
//! The Lead reads those files from committed history (the base revision), so the edits do not
//! weaken this review; the finding makes a human look at them before they weaken the next one.
//! It lives in rulebase so that it is produced once per review (one Inspector, one project
//! rule), goes through the Auditor like any finding, and can be disabled or re-rated only by
//! trusted configuration. It is located at the file without a line: an inline `retake-ignore`
//! the change adds next to its own edit cannot silence it (only a committed
//! `.retake/decisions.yaml` entry can).

use crate::engine::{file_at_revision_or_shipped, Context, Hit, Rule, RuleMeta, Sink};
use crate::engine::{Decisions, DECISIONS_PATH, HANDOVER_PATH};
use crate::spec::Design;
use protocol::{Category, Dimension, Location, Severity};
use std::collections::{BTreeMap, BTreeSet};

static META: RuleMeta = RuleMeta {
    id: "rulebase/gate-config-changed",
    category: Category::GateConfigChanged,
    severity: Severity::High,
    languages: &[],
    dimensions: &[Dimension::Security],
    explanation: "The change edits the gate's own configuration (retake.toml, decisions.yaml, steering allow-lists, the handover's Steering Exceptions).",
};

/// The configuration file at the repository root.
const CONFIG_PATH: &str = crate::engine::REPO_CONFIG_PATH;
/// The steering folder whose "Allowed" sections exempt findings.
const STEERING_DIR: &str = "steering";

/// In a session, one finding per gate file whose settings differ between the merge base and
/// the work tree, naming the keys (or fingerprints, or sections) that changed.
pub(crate) struct GateConfigChanged;

impl Rule for GateConfigChanged {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_project(&self, ctx: &Context, out: &mut Sink) {
        let Some(changes) = &ctx.changes else {
            return;
        };
        let mut files = vec![
            (CONFIG_PATH.to_string(), Kind::Toml),
            (DECISIONS_PATH.to_string(), Kind::Decisions),
            (HANDOVER_PATH.to_string(), Kind::Handover),
        ];
        files.extend(steering_files(ctx).into_iter().map(|p| (p, Kind::Steering)));
        for (path, kind) in files {
            let now = std::fs::read_to_string(ctx.root.join(&path)).ok();
            // The Lead's copy when it read the file at this very commit (the base of a branch
            // with no commit of its own past it, say); else git.
            let shipped = ctx.options.repo_files.as_ref();
            let before =
                match file_at_revision_or_shipped(shipped, &ctx.root, &changes.merge_base, &path) {
                    Ok((_, text)) => text,
                    Err(e) => {
                        // Fail closed: an edit that cannot be compared is reported, not assumed away.
                        out.hit(hit(&path, &[format!("(cannot read the base: {e})")]));
                        continue;
                    }
                };
            let changed = kind.changed_keys(before.as_deref(), now.as_deref());
            if !changed.is_empty() {
                out.hit(hit(&path, &changed));
            }
        }
    }
}

fn hit(path: &str, keys: &[String]) -> Hit {
    let list = keys.join(", ");
    Hit::new(
        Location::file(path),
        format!(
            "the change edits the gate's configuration in {path}: {list} (this review used the \
             committed settings; the edit applies to later reviews once merged)"
        ),
        format!("{path}: {list}"),
    )
    .suggest("have a maintainer approve the configuration change on its own, or revert it")
}

/// `steering/*.md` in the work tree, sorted (a deleted steering file only narrows the
/// allow-lists, so it needs no finding).
fn steering_files(ctx: &Context) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(ctx.root.join(STEERING_DIR)) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("{STEERING_DIR}/{n}"))
        .collect();
    names.sort();
    names
}

/// How a gate file's settings are compared.
#[derive(Debug, Clone, Copy)]
enum Kind {
    /// TOML: leaf keys (`rules.disable`, `inspector.max_file_bytes`).
    Toml,
    /// decisions.yaml: accepted fingerprints.
    Decisions,
    /// Markdown: the sections whose title says "allowed".
    Steering,
    /// The session handover: the rows of its "Steering Exceptions" table (the header retake
    /// writes, and every other section, configure nothing).
    Handover,
}

impl Kind {
    /// What differs between the two texts (`None`: no such file), as display names.
    fn changed_keys(self, before: Option<&str>, now: Option<&str>) -> Vec<String> {
        if before == now {
            return Vec::new();
        }
        let (b, n) = (before.unwrap_or_default(), now.unwrap_or_default());
        let parsed = match self {
            Kind::Toml => toml_leaves(b)
                .zip(toml_leaves(n))
                .map(|(b, n)| differing(&b, &n)),
            Kind::Decisions => decided(b).zip(decided(n)).map(|(b, n)| {
                b.symmetric_difference(&n)
                    .map(|f| format!("fingerprint {f}"))
                    .collect()
            }),
            Kind::Steering => Some(differing(
                &sections_titled(b, "allowed"),
                &sections_titled(n, "allowed"),
            )),
            Kind::Handover => Some(differing(&exception_rows(b), &exception_rows(n))),
        };
        // A file that no longer parses changed in a way no key list can name.
        parsed.unwrap_or_else(|| vec!["(the whole file: it does not parse)".into()])
    }
}

/// The keys whose values differ, added or removed.
fn differing<V: PartialEq>(before: &BTreeMap<String, V>, now: &BTreeMap<String, V>) -> Vec<String> {
    let keys: BTreeSet<&String> = before.keys().chain(now.keys()).collect();
    keys.into_iter()
        .filter(|k| before.get(*k) != now.get(*k))
        .cloned()
        .collect()
}

/// Every leaf of a TOML document by dotted key (arrays are leaves); `None` when it does not parse.
fn toml_leaves(text: &str) -> Option<BTreeMap<String, toml::Value>> {
    let table = text.parse::<toml::Table>().ok()?;
    let mut out = BTreeMap::new();
    flatten(&table, "", &mut out);
    Some(out)
}

fn flatten(table: &toml::Table, prefix: &str, out: &mut BTreeMap<String, toml::Value>) {
    for (k, v) in table {
        let bare = !k.is_empty()
            && k.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        let segment = if bare { k.clone() } else { format!("{k:?}") };
        let key = if prefix.is_empty() {
            segment
        } else {
            format!("{prefix}.{segment}")
        };
        match v {
            toml::Value::Table(inner) => flatten(inner, &key, out),
            other => {
                out.insert(key, other.clone());
            }
        }
    }
}

/// The fingerprints a decisions file accepts; `None` when it does not parse.
fn decided(text: &str) -> Option<BTreeSet<String>> {
    Decisions::parse(text)
        .ok()
        .map(|d| d.fingerprints().map(str::to_string).collect())
}

/// The rows of the handover's Steering Exceptions table (neither its header nor its
/// separator), each named by itself.
fn exception_rows(text: &str) -> BTreeMap<String, String> {
    let mut rows = BTreeMap::new();
    for body in sections_titled(text, "steering exceptions").values() {
        let table = body.lines().map(str::trim).filter(|l| l.starts_with('|'));
        // The first row of a table is its header.
        for row in table.skip(1) {
            let separator = row.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '));
            if !separator {
                rows.insert(format!("Steering Exceptions row `{row}`"), String::new());
            }
        }
    }
    rows
}

/// The sections of a Markdown file whose lowercase title contains `needle`, by title.
fn sections_titled(text: &str, needle: &str) -> BTreeMap<String, String> {
    Design::parse(text)
        .sections
        .into_iter()
        .filter(|s| s.title.to_lowercase().contains(needle))
        .map(|s| {
            (
                format!("section \"{}\"", s.title),
                s.body.trim().to_string(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testing::{git, write};
    use crate::spec::testing::{context_with, described, project};
    use protocol::message::InspectOptions;
    use protocol::{DiffFilter, Scope};

    /// A repository whose `main` holds `files`, with a `change` branch checked out.
    fn repo(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        git(dir.path(), &["init", "-q"]);
        write(dir.path(), "src/lib.rs", "pub fn a() {}\n");
        for (rel, text) in files {
            write(dir.path(), rel, text);
        }
        git(dir.path(), &["add", "-A"]);
        git(dir.path(), &["commit", "-q", "-m", "base"]);
        git(dir.path(), &["checkout", "-q", "-b", "change"]);
        dir
    }

    fn review(dir: &tempfile::TempDir) -> Vec<(String, String)> {
        let scope = Scope::Session {
            base: "main".into(),
            filter: DiffFilter::Added,
        };
        let ctx = context_with(dir, scope, InspectOptions::default());
        described(&project(&GateConfigChanged, &ctx))
    }

    #[test]
    fn fires_naming_the_keys_decisions_and_sections_the_change_edits() {
        let dir = repo(&[
            (
                "retake.toml",
                "[rules]\ndisable = []\n[test]\ntimeout_secs = 60\n",
            ),
            (
                "steering/tech.md",
                "# Tech\n\n## Allowed patterns\n- unwrap in main\n",
            ),
            (HANDOVER_PATH, HANDOVER),
        ]);
        write(
            dir.path(),
            HANDOVER_PATH,
            &format!("{HANDOVER}| * | quality/unwrap-in-library | | mallory | faster |\n"),
        );
        write(
            dir.path(),
            "retake.toml",
            "# harmless comment\n[rules]\ndisable = [\"holistic/sql-injection\"]\n[test]\ntimeout_secs = 60\n\
             [inspector]\nmax_file_bytes = 0\n[agent]\nurl = \"http://evil\"\n",
        );
        write(
            dir.path(),
            ".retake/decisions.yaml",
            "- fingerprint: 'f00d'\n  reason: mine\n",
        );
        write(
            dir.path(),
            "steering/tech.md",
            "# Tech\n\n## Allowed patterns\n- unwrap in main\n- sql built from strings\n",
        );
        let found = review(&dir);
        let suffix = " (this review used the committed settings; the edit applies to later reviews once merged)";
        assert_eq!(
            found,
            vec![
                (
                    "retake.toml".to_string(),
                    format!("the change edits the gate's configuration in retake.toml: agent.url, inspector.max_file_bytes, rules.disable{suffix}")
                ),
                (
                    ".retake/decisions.yaml".to_string(),
                    format!("the change edits the gate's configuration in .retake/decisions.yaml: fingerprint f00d{suffix}")
                ),
                (
                    HANDOVER_PATH.to_string(),
                    format!("the change edits the gate's configuration in {HANDOVER_PATH}: Steering Exceptions row `| * | quality/unwrap-in-library | | mallory | faster |`{suffix}")
                ),
                (
                    "steering/tech.md".to_string(),
                    format!("the change edits the gate's configuration in steering/tech.md: section \"Allowed patterns\"{suffix}")
                ),
            ]
        );
    }

    /// A handover whose Steering Exceptions table is empty (its header only).
    const HANDOVER: &str = "# Session handover\n\n## Last command\n\n- `retake review`\n\n\
        ## Steering Exceptions\n\n| Feature | Rule | Where | Decided by | Why |\n|---|---|---|---|---|\n";

    #[test]
    fn quiet_for_comment_only_edits_unchanged_files_and_reviews_without_a_base() {
        let dir = repo(&[
            ("retake.toml", "[rules]\ndisable = []\n"),
            (
                "steering/tech.md",
                "# Tech\n\n## Allowed patterns\n- x\n\n## Other\nold\n",
            ),
            (HANDOVER_PATH, HANDOVER),
        ]);
        // retake redrafts its own sections after every command: not the gate's settings.
        write(
            dir.path(),
            HANDOVER_PATH,
            &HANDOVER.replace("`retake review`", "`retake run`"),
        );
        write(
            dir.path(),
            "retake.toml",
            "# why: nothing\n[rules]\ndisable = [ ]\n",
        );
        write(
            dir.path(),
            "steering/tech.md",
            "# Tech\n\n## Allowed patterns\n- x\n\n## Other\nnew text\n",
        );
        write(dir.path(), "src/lib.rs", "pub fn a() {}\npub fn b() {}\n");
        assert_eq!(review(&dir), Vec::<(String, String)>::new());
        let whole = context_with(&dir, Scope::repository(), InspectOptions::default());
        assert!(project(&GateConfigChanged, &whole).hits.is_empty());
    }

    #[test]
    fn a_first_handover_with_no_exception_suspends_nothing() {
        let dir = repo(&[]);
        write(dir.path(), HANDOVER_PATH, HANDOVER);
        assert_eq!(review(&dir), Vec::<(String, String)>::new());
    }

    #[test]
    fn a_file_that_stops_parsing_is_named_whole() {
        let dir = repo(&[("retake.toml", "[rules]\ndisable = []\n")]);
        write(dir.path(), "retake.toml", "[rules\n");
        let found = review(&dir);
        assert_eq!(found.len(), 1);
        assert!(
            found[0]
                .1
                .contains("retake.toml: (the whole file: it does not parse)"),
            "{found:?}"
        );
    }
}
