//! Node packages: each `package.json`'s name, `bin` (a path or a map of names to paths),
//! `main`, `module` and, roughly, `exports` (every path string in it). `bin` files are
//! program code.

use super::{dir_of, join, Roles, Sources};
use protocol::project::{Ecosystem, FileRole, Package, Target, TargetKind};
use serde_json::Value;

/// Reads every `package.json` outside vendored folders and places its `bin` files.
pub(crate) fn read(src: &Sources<'_>, packages: &mut Vec<Package>, roles: &mut Roles) {
    let manifests: Vec<String> = src
        .paths()
        .iter()
        .filter(|p| p.rsplit('/').next() == Some("package.json"))
        .filter(|p| roles.get(p).is_none())
        .cloned()
        .collect();
    for manifest in manifests {
        let Some(json) = parsed(src, &manifest) else {
            continue;
        };
        let root = dir_of(&manifest).to_string();
        let name = json
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let file = |rel: &str| {
            join(&root, rel)
                .filter(|p| src.exists(p))
                .unwrap_or_default()
        };
        let mut targets = Vec::new();
        let bins: Vec<(String, String)> = match json.get("bin") {
            Some(Value::String(p)) => vec![(name.clone(), p.clone())],
            Some(Value::Object(map)) => map
                .iter()
                .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                .collect(),
            _ => Vec::new(),
        };
        for (bin, rel) in bins {
            let path = file(&rel);
            let reason = format!("package.json `bin` `{bin}` in {manifest}");
            if !path.is_empty() {
                roles.place(&path, FileRole::Program, reason.clone());
            }
            targets.push(Target {
                kind: TargetKind::Bin,
                name: bin,
                path,
                reason,
            });
        }
        for key in ["main", "module"] {
            if let Some(rel) = json.get(key).and_then(Value::as_str) {
                targets.push(Target {
                    kind: TargetKind::Lib,
                    name: key.to_string(),
                    path: file(rel),
                    reason: format!("package.json `{key}` in {manifest}"),
                });
            }
        }
        let mut exported = Vec::new();
        if let Some(exports) = json.get("exports") {
            strings(exports, &mut exported);
        }
        for rel in exported.into_iter().filter(|r| r.starts_with('.')) {
            let path = file(&rel);
            if !path.is_empty() && !targets.iter().any(|t| t.path == path) {
                targets.push(Target {
                    kind: TargetKind::Lib,
                    name: "exports".to_string(),
                    path,
                    reason: format!("package.json `exports` in {manifest}"),
                });
            }
        }
        packages.push(Package {
            ecosystem: Ecosystem::Node,
            manifest,
            name,
            root,
            targets,
            publish: json.get("private").and_then(Value::as_bool) != Some(true),
            members: json
                .get("workspaces")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default(),
            edition: None,
            proc_macro: false,
        });
    }
}

/// A `package.json` parsed, when it is valid JSON.
pub(crate) fn parsed(src: &Sources<'_>, manifest: &str) -> Option<Value> {
    serde_json::from_str(&src.text(manifest)?).ok()
}

/// Every string inside a JSON value.
fn strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|v| strings(v, out)),
        Value::Object(m) => m.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}
