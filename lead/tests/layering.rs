//! The layering invariant (ARCHITECTURE.md): within each of the Lead's crates, the top-level
//! modules form no import cycle — one module may use another, never both ways round, directly
//! or through others. This test reads the crates' sources (production code: test modules and
//! `tests.rs` files are left out) and fails naming the modules of a cycle and where each edge is.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The crates checked: `lead` and every library under `lead/crates/`.
fn crates() -> Vec<PathBuf> {
    let lead = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = vec![lead.join("src")];
    for entry in std::fs::read_dir(lead.join("crates")).expect("lead/crates") {
        all.push(entry.expect("entry").path().join("src"));
    }
    all
}

/// Production `.rs` files under `dir` with their module path from the crate root.
fn files(dir: &Path, module: &[String], out: &mut Vec<(PathBuf, Vec<String>)>) {
    for entry in std::fs::read_dir(dir).expect("readable").flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            let mut inner = module.to_vec();
            inner.push(name);
            files(&path, &inner, out);
            continue;
        }
        let Some(stem) = name.strip_suffix(".rs") else {
            continue;
        };
        if stem == "tests" || stem.ends_with("_tests") || stem == "testing" {
            continue;
        }
        let mut path_of = module.to_vec();
        if !matches!(stem, "mod" | "lib" | "main") {
            path_of.push(stem.to_string());
        }
        out.push((path, path_of));
    }
}

/// The top-level modules a line refers to: `crate::m…`, or `super::…` climbing to the root.
fn targets(code: &str, module: &[String]) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    let word_start =
        |i: usize| i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
    for (i, _) in code.match_indices("crate::") {
        if word_start(i) {
            for name in segments(&code[i + "crate::".len()..]) {
                found.push((i, name));
            }
        }
    }
    for (i, _) in code.match_indices("super::") {
        if !word_start(i) || code[..i].ends_with("super::") {
            continue;
        }
        let mut rest = &code[i..];
        let mut depth = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            depth += 1;
            rest = r;
        }
        // `module` is where the file's items live; `super` is its parent.
        if depth == module.len() {
            for name in segments(rest) {
                found.push((i, name));
            }
        }
    }
    found.retain(|(_, s)| !s.is_empty());
    found
}

/// The first path segment of `text`, or of each path in a `{a, b::c}` group.
fn segments(text: &str) -> Vec<String> {
    let Some(group) = text.strip_prefix('{') else {
        return vec![first_segment(text)];
    };
    let mut names = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                names.push(first_segment(group[start..i].trim_start()));
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                names.push(first_segment(group[start..i].trim_start()));
                start = i + 1;
            }
            _ => {}
        }
    }
    names
}

fn first_segment(text: &str) -> String {
    text.chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

/// The files of modules declared only for tests (`#[cfg(test)] [#[path = "…"]] mod name;`).
fn test_only(all: &[(PathBuf, Vec<String>)]) -> BTreeSet<PathBuf> {
    let mut skip = BTreeSet::new();
    for (path, _) in all {
        let text = std::fs::read_to_string(path).expect("readable");
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        let dir = path.parent().expect("in a folder");
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        let own_dir = if matches!(stem, "mod" | "lib" | "main") {
            dir.to_path_buf()
        } else {
            dir.join(stem)
        };
        for (i, line) in lines.iter().enumerate() {
            if *line != "#[cfg(test)]" {
                continue;
            }
            let mut rest = lines[i + 1..].iter();
            let mut given = None;
            for next in rest.by_ref() {
                if let Some(p) = next.strip_prefix("#[path = \"") {
                    given = p.strip_suffix("\"]").map(|p| dir.join(p));
                } else if next.starts_with("#[") {
                    continue;
                } else {
                    let decl = next
                        .trim_start_matches("pub(crate) ")
                        .trim_start_matches("pub ");
                    if let Some(name) = decl.strip_prefix("mod ").and_then(|d| d.strip_suffix(';'))
                    {
                        skip.insert(
                            given
                                .take()
                                .unwrap_or_else(|| own_dir.join(format!("{name}.rs"))),
                        );
                        skip.insert(own_dir.join(name).join("mod.rs"));
                    }
                    break;
                }
            }
        }
    }
    skip
}

/// Top-level module -> the top-level modules it uses, with one place for each edge.
fn graph(src: &Path) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut all = Vec::new();
    files(src, &[], &mut all);
    let skip = test_only(&all);
    all.retain(|(path, _)| !skip.contains(path));
    let tops: BTreeSet<String> = all.iter().filter_map(|(_, m)| m.first().cloned()).collect();
    let mut edges: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for (path, module) in &all {
        let Some(top) = module.first() else {
            continue;
        };
        let text = std::fs::read_to_string(path).expect("readable");
        // Production code without comments, one string so that a `use` group may span lines.
        let code: Vec<&str> = text
            .lines()
            .take_while(|l| !l.trim_start().starts_with("#[cfg(test)]"))
            .map(|l| l.split("//").next().unwrap_or_default())
            .collect();
        let code = code.join("\n");
        for (at, target) in targets(&code, module) {
            if &target != top && tops.contains(&target) {
                let line = code[..at].matches('\n').count() + 1;
                edges
                    .entry(top.clone())
                    .or_default()
                    .entry(target)
                    .or_insert_with(|| format!("{}:{line}", path.display()));
            }
        }
    }
    edges
}

/// A cycle in `edges`, as the modules along it, if there is one.
fn cycle(edges: &BTreeMap<String, BTreeMap<String, String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeMap<String, String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut found = path[at..].to_vec();
            found.push(node.to_string());
            return Some(found);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in edges.get(node).into_iter().flat_map(|e| e.keys()) {
            if let Some(found) = visit(next, edges, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges
        .keys()
        .find_map(|start| visit(start, edges, &mut Vec::new(), &mut done))
}

#[test]
fn no_crate_of_the_lead_has_an_import_cycle_between_its_modules() {
    for src in crates() {
        let edges = graph(&src);
        if let Some(found) = cycle(&edges) {
            let places: Vec<String> = found
                .windows(2)
                .map(|w| format!("{} -> {} ({})", w[0], w[1], edges[&w[0]][&w[1]]))
                .collect();
            panic!("import cycle in {}: {}", src.display(), places.join(", "));
        }
    }
}

#[test]
fn the_checker_sees_crate_and_super_paths_and_finds_a_cycle() {
    let at = |m: &[&str]| m.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let names = |code: &str, m: &[&str]| -> Vec<String> {
        targets(code, &at(m)).into_iter().map(|(_, n)| n).collect()
    };
    assert_eq!(
        names("use crate::review::plan::Plan;", &["run"]),
        ["review"]
    );
    assert_eq!(
        names("use super::super::config::Settings;", &["run", "hub"]),
        ["config"]
    );
    assert!(names("use super::board::Board;", &["run", "hub"]).is_empty());
    assert!(names("let x = my_crate::a;", &["run"]).is_empty());
    assert_eq!(
        names(
            "use crate::{\n    config::Settings,\n    review::{plan, hub},\n};",
            &["run"]
        ),
        ["config", "review"]
    );
    assert_eq!(
        names("use super::{fix, state};", &["run"]),
        ["fix", "state"]
    );
    let mut edges: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    edges
        .entry("a".into())
        .or_default()
        .insert("b".into(), "x:1".into());
    assert_eq!(cycle(&edges), None);
    edges
        .entry("b".into())
        .or_default()
        .insert("a".into(), "y:2".into());
    assert_eq!(cycle(&edges), Some(at(&["a", "b", "a"])));
}

/// Every `src/` folder of the workspace's crates (the actors', then the Lead's).
fn workspace_sources() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut dirs: Vec<PathBuf> = ["protocol", "inspector", "auditor", "implementer"]
        .iter()
        .map(|c| root.join(c).join("src"))
        .collect();
    dirs.extend(crates());
    dirs
}

/// The test layout (ARCHITECTURE.md): a module's unit tests are `mod tests` in its file or in its
/// folder (`x.rs` → `x/tests.rs`), never a file elsewhere pulled in with `#[path]`.
#[test]
fn unit_tests_live_in_their_module_s_file_or_folder() {
    fn walk(dir: &Path, bad: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("readable").flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, bad);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("source");
                for (n, line) in text.lines().enumerate() {
                    if line.trim_start().starts_with("#[path = ") {
                        bad.push(format!("{}:{}", path.display(), n + 1));
                    }
                }
            }
        }
    }
    let mut bad = Vec::new();
    for src in workspace_sources() {
        walk(&src, &mut bad);
    }
    assert!(bad.is_empty(), "a #[path] module under src/: {bad:?}");
}
