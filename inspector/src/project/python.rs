//! Python packages: `pyproject.toml` (`[project]` name, `[project.scripts]`,
//! `[project.gui-scripts]`, `[tool.poetry.scripts]`, setuptools and poetry packages) and
//! `setup.cfg` (`[metadata] name`, `console_scripts` and `gui_scripts` entry points). The
//! module an entry point names is program code, wherever it sits (`main()` in a package's
//! `__init__.py` included).

use super::{dir_of, Roles, Sources};
use protocol::project::{Ecosystem, FileRole, Package, Target, TargetKind};
use toml::{Table, Value};

/// Reads every `pyproject.toml` and `setup.cfg` and places the entry points' modules.
pub(crate) fn read(src: &Sources<'_>, packages: &mut Vec<Package>, roles: &mut Roles) {
    let manifests: Vec<String> = src
        .paths()
        .iter()
        .filter(|p| matches!(p.rsplit('/').next(), Some("pyproject.toml" | "setup.cfg")))
        .filter(|p| roles.get(p).is_none())
        .cloned()
        .collect();
    for manifest in manifests {
        let Some(text) = src.text(&manifest) else {
            continue;
        };
        let root = dir_of(&manifest).to_string();
        let (name, scripts, listed) = if manifest.ends_with(".toml") {
            let Ok(table) = text.parse::<Table>() else {
                continue;
            };
            pyproject(&table)
        } else {
            setup_cfg(&text)
        };
        let mut targets = Vec::new();
        for (section, script, reference) in scripts {
            let module = reference.split(':').next().unwrap_or_default().trim();
            let path = module_file(src, &root, module).unwrap_or_default();
            let reason = format!("`{section}` entry point `{reference}` in {manifest}");
            if !path.is_empty() {
                roles.place(&path, FileRole::Program, reason.clone());
            }
            targets.push(Target {
                kind: TargetKind::Bin,
                name: script,
                path,
                reason,
            });
        }
        let mut libs = listed;
        if libs.is_empty() && !name.is_empty() {
            libs.push(name.replace('-', "_").to_lowercase());
        }
        for lib in libs {
            if let Some(path) = module_file(src, &root, &lib.replace('/', ".")) {
                targets.push(Target {
                    kind: TargetKind::Lib,
                    name: lib.clone(),
                    path,
                    reason: format!("package `{lib}` of {manifest}"),
                });
            }
        }
        packages.push(Package {
            ecosystem: Ecosystem::Python,
            manifest: manifest.clone(),
            name,
            root,
            targets,
            publish: true,
            members: Vec::new(),
            edition: None,
            proc_macro: false,
        });
    }
}

/// (section, script name, `module:function`) of each entry point.
type Scripts = Vec<(String, String, String)>;

/// The name, entry points and listed packages of a `pyproject.toml`.
fn pyproject(table: &Table) -> (String, Scripts, Vec<String>) {
    let project = table.get("project");
    let poetry = table.get("tool").and_then(|t| t.get("poetry"));
    let name = project
        .or(poetry)
        .and_then(|p| p.get("name"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let mut scripts = Vec::new();
    let sections = [
        ("[project.scripts]", project.and_then(|p| p.get("scripts"))),
        (
            "[project.gui-scripts]",
            project.and_then(|p| p.get("gui-scripts")),
        ),
        (
            "[tool.poetry.scripts]",
            poetry.and_then(|p| p.get("scripts")),
        ),
    ];
    for (section, entries) in sections {
        for (script, value) in entries.and_then(Value::as_table).into_iter().flatten() {
            // Poetry also writes `{ callable = "pkg:main" }` (older: `reference`).
            let reference = value
                .as_str()
                .or_else(|| value.get("callable").and_then(Value::as_str))
                .or_else(|| value.get("reference").and_then(Value::as_str));
            if let Some(reference) = reference {
                scripts.push((section.to_string(), script.clone(), reference.to_string()));
            }
        }
    }
    let mut listed: Vec<String> = Vec::new();
    let setuptools = table.get("tool").and_then(|t| t.get("setuptools"));
    for p in setuptools
        .and_then(|s| s.get("packages"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        listed.extend(p.as_str().map(str::to_string));
    }
    for p in poetry
        .and_then(|s| s.get("packages"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        listed.extend(p.get("include").and_then(Value::as_str).map(str::to_string));
    }
    (name, scripts, listed)
}

/// The name and entry points of a `setup.cfg` (an INI file: `key = value`, values continued
/// on indented lines).
fn setup_cfg(text: &str) -> (String, Scripts, Vec<String>) {
    let mut section = String::new();
    let mut key = String::new();
    let mut name = String::new();
    let mut scripts = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with(['#', ';']) {
            continue;
        }
        if trimmed.starts_with('[') {
            section = trimmed.trim_matches(['[', ']']).trim().to_string();
            continue;
        }
        let continued = line.starts_with([' ', '\t']);
        if !continued {
            let (k, v) = trimmed.split_once('=').unwrap_or((trimmed, ""));
            key = k.trim().to_string();
            if section == "metadata" && key == "name" {
                name = v.trim().to_string();
            }
            continue;
        }
        let entry_points = section == "options.entry_points";
        if entry_points && matches!(key.as_str(), "console_scripts" | "gui_scripts") {
            if let Some((script, reference)) = trimmed.split_once('=') {
                scripts.push((
                    key.clone(),
                    script.trim().to_string(),
                    reference.trim().to_string(),
                ));
            }
        }
    }
    (name, scripts, Vec::new())
}

/// The file of dotted `module` under a project folder `root`: `a/b.py` or `a/b/__init__.py`,
/// beside the manifest or under its `src/`.
pub(crate) fn module_file(src: &Sources<'_>, root: &str, module: &str) -> Option<String> {
    if module.is_empty() {
        return None;
    }
    let rel = module.replace('.', "/");
    ["", "src/"].iter().find_map(|layout| {
        [
            format!("{root}{layout}{rel}.py"),
            format!("{root}{layout}{rel}/__init__.py"),
        ]
        .into_iter()
        .find(|f| src.exists(f))
    })
}
