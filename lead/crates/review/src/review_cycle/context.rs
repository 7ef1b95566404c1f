//! The root-cause context the deep-dive gathers for a finding: its enclosing function, that
//! function's callers (a text search of its name over the scope's files), the last change of
//! its line, and the findings related to it (same function, or same rule).

use inspector::project::functions::{self, FnSpan};
use protocol::{Finding, Severity};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// At most this many call sites are listed (all are counted).
pub const MAX_LISTED_CALLERS: usize = 20;

/// Names too common for a text search to tell their callers apart (`new(` is everywhere):
/// their callers are listed but never count toward a severity change.
const AMBIGUOUS_NAMES: [&str; 16] = [
    "new", "default", "fmt", "from", "into", "clone", "drop", "main", "init", "__init__", "get",
    "set", "run", "call", "len", "eq",
];

/// The texts the deep-dive reads: the scope's files (where callers are searched) and the
/// findings' own files.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    texts: BTreeMap<String, String>,
    scope: Vec<String>,
}

impl Sources {
    /// Sources from `(path, text)` pairs; `scope` names the ones callers are searched in.
    pub fn new(texts: BTreeMap<String, String>, scope: Vec<String>) -> Sources {
        Sources { texts, scope }
    }

    /// The text of a repository-relative path, when read.
    pub fn text(&self, path: &str) -> Option<&str> {
        self.texts.get(path).map(String::as_str)
    }
}

/// Where a line's last change comes from (git, in the shell).
pub trait History {
    /// The last change of `line` of `path` (of the whole file without a line).
    fn last_change(&self, path: &str, line: Option<u32>) -> LastChange;
}

/// A commit that last changed a line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Commit {
    /// Full hash.
    pub commit: String,
    /// Author name.
    pub author: String,
    /// Author date, RFC 3339.
    pub date: String,
    /// Subject line.
    pub summary: String,
}

/// The last change of a finding's line: a commit, a line not yet committed, or `unknown`
/// (no git, an untracked file, a line past the end).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LastChange {
    /// The commit.
    Commit(Commit),
    /// The line has uncommitted changes.
    Uncommitted,
    /// Not known.
    Unknown,
}

/// One call site of a function.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CallSite {
    /// Repository-relative path.
    pub path: String,
    /// 1-based line.
    pub line: u32,
}

/// The callers of a finding's enclosing function.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Callers {
    /// The name searched for.
    pub name: String,
    /// Call sites found.
    pub total: usize,
    /// Distinct files with a call site.
    pub files: usize,
    /// The name is too common for the search to be trusted (see `AMBIGUOUS_NAMES`).
    pub ambiguous: bool,
    /// The first [`MAX_LISTED_CALLERS`] call sites.
    pub sites: Vec<CallSite>,
}

/// How a related finding relates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Relation {
    /// In the same function of the same file.
    SameFunction,
    /// Reported by the same rule elsewhere.
    SameRule,
}

/// A finding related to the one analysed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Related {
    /// Its fingerprint.
    pub fingerprint: String,
    /// Its rule.
    pub rule: String,
    /// Its location.
    pub location: String,
    /// How it relates.
    pub relation: Relation,
}

/// The root-cause context of one picked finding, and what the re-assessment made of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RootCause {
    /// The finding's fingerprint.
    pub fingerprint: String,
    /// Its rule.
    pub rule: String,
    /// Its location.
    pub location: String,
    /// Severity when picked.
    pub severity_before: Severity,
    /// Severity after the re-assessment.
    pub severity_after: Severity,
    /// Whether its file is a critical file.
    pub critical_file: bool,
    /// Whether it sits in test-only code (a test path or a test function).
    pub test_code: bool,
    /// The function around its line, when one is found.
    pub enclosing_function: Option<FnSpan>,
    /// That function's callers.
    pub callers: Option<Callers>,
    /// The last change of its line.
    pub last_change: LastChange,
    /// Related findings.
    pub related: Vec<Related>,
}

/// The functions of every file `findings` point into, parsed once.
pub fn functions_of(findings: &[Finding], sources: &Sources) -> BTreeMap<String, Vec<FnSpan>> {
    let mut out = BTreeMap::new();
    for f in findings {
        let path = &f.location.path;
        if out.contains_key(path) {
            continue;
        }
        let fns = sources
            .text(path)
            .map(|t| functions::functions(path, t))
            .unwrap_or_default();
        out.insert(path.clone(), fns);
    }
    out
}

/// The function around a finding's line.
pub fn enclosing<'a>(f: &Finding, fns: &'a BTreeMap<String, Vec<FnSpan>>) -> Option<&'a FnSpan> {
    let line = f.location.line?;
    functions::innermost(fns.get(&f.location.path)?, line)
}

/// The findings related to `findings[index]`: in the same function, else by the same rule.
pub fn related(findings: &[Finding], index: usize, function: Option<&FnSpan>) -> Vec<Related> {
    let f = &findings[index];
    findings
        .iter()
        .enumerate()
        .filter(|(j, _)| *j != index)
        .filter_map(|(_, g)| {
            let same_function = g.location.path == f.location.path
                && function.is_some_and(|s| g.location.line.is_some_and(|l| s.contains(l)));
            let relation = if same_function {
                Relation::SameFunction
            } else if g.rule == f.rule {
                Relation::SameRule
            } else {
                return None;
            };
            Some(Related {
                fingerprint: g.fingerprint.clone(),
                rule: g.rule.clone(),
                location: g.location.to_string(),
                relation,
            })
        })
        .collect()
}

/// The call sites of `function` (defined in `def_path`) over the scope's files: a word
/// `name` followed by `(` (or a turbofish), outside comment lines, definitions and the
/// function's own body.
pub fn callers(sources: &Sources, function: &FnSpan, def_path: &str) -> Callers {
    let name = function.name.as_str();
    let mut sites = Vec::new();
    for path in &sources.scope {
        let Some(text) = sources.text(path) else {
            continue;
        };
        for (i, line) in text.lines().enumerate() {
            let number = u32::try_from(i + 1).unwrap_or(u32::MAX);
            if path == def_path && function.contains(number) {
                continue;
            }
            let t = line.trim_start();
            let comment = ["//", "#", "/*", "*"].iter().any(|c| t.starts_with(c));
            if comment || is_definition(t, name) || !calls(line, name) {
                continue;
            }
            sites.push(CallSite {
                path: path.clone(),
                line: number,
            });
        }
    }
    let files: BTreeSet<&str> = sites.iter().map(|s| s.path.as_str()).collect();
    Callers {
        name: name.to_string(),
        total: sites.len(),
        files: files.len(),
        ambiguous: name.len() < 3 || AMBIGUOUS_NAMES.contains(&name),
        sites: sites.into_iter().take(MAX_LISTED_CALLERS).collect(),
    }
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// Whether `line` calls `name`: the word followed by `(` or `::<`.
fn calls(line: &str, name: &str) -> bool {
    line.match_indices(name).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let after = line[at + name.len()..].trim_start();
        !before.is_some_and(is_ident_char) && (after.starts_with('(') || after.starts_with("::<"))
    })
}

/// Whether a trimmed line defines `name` (`fn name(`, `def name(`, `function name(`,
/// `func name(`, `func (r T) name(`).
fn is_definition(t: &str, name: &str) -> bool {
    ["fn ", "def ", "function ", "func "].iter().any(|kw| {
        t.match_indices(kw).any(|(at, _)| {
            let rest = t[at + kw.len()..].trim_start();
            let rest = match rest.strip_prefix('(').filter(|_| *kw == "func ") {
                Some(r) => r.split_once(')').map_or("", |(_, x)| x.trim_start()),
                None => rest,
            };
            rest.strip_prefix(name)
                .is_some_and(|r| !r.starts_with(is_ident_char))
        })
    })
}
