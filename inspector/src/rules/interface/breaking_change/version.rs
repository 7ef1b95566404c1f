//! The version a package declares, and whether a change of it is a major bump: what decides
//! whether a breaking change is a finding or the version's business.

/// The version a package's manifest declares: `[package] version` (through `version.workspace
/// = true` to the workspace root's `[workspace.package] version`), pyproject's `[project]` or
/// `[tool.poetry]` version, package.json's `"version"`.
pub(super) fn version(
    ecosystem: protocol::project::Ecosystem,
    manifest: Option<String>,
    workspace: Option<String>,
) -> Option<String> {
    use protocol::project::Ecosystem;
    match ecosystem {
        Ecosystem::Cargo => {}
        Ecosystem::Python => {
            let doc: toml::Table = manifest?.parse().ok()?;
            let declared = doc.get("project").and_then(|p| p.get("version"));
            let poetry = || doc.get("tool")?.get("poetry")?.get("version");
            return declared.or_else(poetry)?.as_str().map(str::to_string);
        }
        Ecosystem::Node => {
            let doc: serde_json::Value = serde_json::from_str(&manifest?).ok()?;
            return doc.get("version")?.as_str().map(str::to_string);
        }
        // A Go module's major version is its path's `/vN` suffix (v0 and v1 have none).
        Ecosystem::Go => {
            let text = manifest?;
            let module = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("module "))?
                .trim()
                .trim_matches('"');
            let major = module
                .rsplit_once("/v")
                .and_then(|(_, n)| n.parse::<u64>().ok())
                .filter(|n| *n >= 2)
                .unwrap_or(1);
            return Some(format!("v{major}"));
        }
    }
    let doc: toml::Table = manifest?.parse().ok()?;
    let v = doc.get("package")?.get("version")?;
    if let Some(text) = v.as_str() {
        return Some(text.to_string());
    }
    let inherited = v.get("workspace").and_then(toml::Value::as_bool) == Some(true);
    if !inherited {
        return None;
    }
    let root: toml::Table = workspace?.parse().ok()?;
    root.get("workspace")?
        .get("package")?
        .get("version")?
        .as_str()
        .map(str::to_string)
}

/// Whether `to` is a major bump over `from` as Cargo reads versions: the first non-zero of
/// major, minor, patch went up (0.3.1 → 0.4.0 is major; 1.2.0 → 1.3.0 is not).
pub(super) fn major_bump(from: &str, to: &str) -> bool {
    let parts = |v: &str| -> Vec<u64> {
        v.trim_start_matches('v')
            .split(['.', '-', '+'])
            .take(3)
            .map(|p| p.parse().unwrap_or(0))
            .collect()
    };
    let (a, b) = (parts(from), parts(to));
    let lead = a.iter().position(|n| *n != 0).unwrap_or(2);
    (0..=lead).any(|i| b.get(i).copied().unwrap_or(0) > a.get(i).copied().unwrap_or(0))
        && (0..lead).all(|i| b.get(i).copied().unwrap_or(0) >= a.get(i).copied().unwrap_or(0))
}
