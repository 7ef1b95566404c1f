//! `specs/<feature>/spec.yaml`: the feature's metadata (phase, blocking, roadmap wave) and the
//! implementation files it declares.

use super::{clean_path, DeclaredPath, SpecError};
use serde::Deserialize;
use serde_yaml::Value;

/// Where a feature is in its lifecycle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Phase {
    /// `design-generated`
    DesignGenerated,
    /// `tasks-generated`
    TasksGenerated,
    /// `implementation-complete`
    ImplementationComplete,
    /// `blocked`
    Blocked,
    /// Any other text, kept so the phase gate can quote it.
    Other(String),
}

impl Phase {
    /// Reads the text form; unknown text is kept as [`Phase::Other`].
    pub fn parse(text: &str) -> Phase {
        match text.trim() {
            "design-generated" => Phase::DesignGenerated,
            "tasks-generated" => Phase::TasksGenerated,
            "implementation-complete" => Phase::ImplementationComplete,
            "blocked" => Phase::Blocked,
            other => Phase::Other(other.to_string()),
        }
    }

    /// The text form.
    pub fn as_str(&self) -> &str {
        match self {
            Phase::DesignGenerated => "design-generated",
            Phase::TasksGenerated => "tasks-generated",
            Phase::ImplementationComplete => "implementation-complete",
            Phase::Blocked => "blocked",
            Phase::Other(text) => text,
        }
    }
}

/// A parsed spec.yaml.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SpecYaml {
    /// `feature`.
    pub feature: Option<String>,
    /// `version`, as text.
    pub version: Option<String>,
    /// `phase`.
    pub phase: Option<Phase>,
    /// Line of the `phase:` key.
    pub phase_line: Option<u32>,
    /// `blocked_info.blocked_by`.
    pub blocked_by: Option<String>,
    /// `roadmap.wave`.
    pub wave: Option<u32>,
    /// `files`, with the lines that list them.
    pub files: Vec<DeclaredPath>,
}

#[derive(Deserialize, Default)]
struct Raw {
    feature: Option<Value>,
    version: Option<Value>,
    phase: Option<Value>,
    blocked_info: Option<RawBlocked>,
    roadmap: Option<RawRoadmap>,
    #[serde(default)]
    files: Vec<String>,
}

#[derive(Deserialize)]
struct RawBlocked {
    blocked_by: Option<Value>,
}

#[derive(Deserialize)]
struct RawRoadmap {
    wave: Option<Value>,
}

impl SpecYaml {
    /// Parses spec.yaml's text; `path` names the file in errors.
    pub fn parse(text: &str, path: &str) -> Result<SpecYaml, SpecError> {
        let malformed = |reason: String| SpecError::Malformed {
            path: path.to_string(),
            reason,
        };
        let raw: Raw = if text.trim().is_empty() {
            Raw::default()
        } else {
            serde_yaml::from_str(text).map_err(|e| malformed(e.to_string()))?
        };
        let wave = match raw.roadmap.and_then(|r| r.wave) {
            None | Some(Value::Null) => None,
            Some(v) => Some(
                scalar_text(&v)
                    .and_then(|t| t.parse::<u32>().ok())
                    .ok_or_else(|| malformed("roadmap.wave must be a whole number".to_string()))?,
            ),
        };
        let files = declared_lines(text, &raw.files);
        Ok(SpecYaml {
            feature: raw.feature.as_ref().and_then(scalar_text),
            version: raw.version.as_ref().and_then(scalar_text),
            phase: raw
                .phase
                .as_ref()
                .and_then(scalar_text)
                .map(|t| Phase::parse(&t)),
            phase_line: key_line(text, "phase"),
            blocked_by: raw
                .blocked_info
                .and_then(|b| b.blocked_by)
                .as_ref()
                .and_then(scalar_text),
            wave,
            files,
        })
    }
}

/// A YAML scalar as text (`1.0`, `true`, `auth`); `None` for null, lists and maps.
pub(crate) fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The 1-based line of a top-level `key:`.
fn key_line(text: &str, key: &str) -> Option<u32> {
    text.lines()
        .position(|l| {
            l.strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        })
        .map(|i| i as u32 + 1)
}

/// Each of `files` with the first line after the `files:` key that names it.
fn declared_lines(text: &str, files: &[String]) -> Vec<DeclaredPath> {
    let start = key_line(text, "files").unwrap_or(1);
    let lines: Vec<&str> = text.lines().collect();
    files
        .iter()
        .map(|f| {
            let line = lines
                .iter()
                .enumerate()
                .skip(start as usize - 1)
                .find(|(_, l)| l.contains(f.as_str()))
                .map_or(start, |(i, _)| i as u32 + 1);
            DeclaredPath {
                path: clean_path(f),
                line,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_field_with_lines() {
        let text = "feature: auth\nversion: 1.2\nphase: blocked\nblocked_info:\n  blocked_by: billing\nroadmap:\n  wave: 2\nfiles:\n  - src/auth.rs\n  - ./src/session.rs\n";
        let spec = SpecYaml::parse(text, "specs/auth/spec.yaml").expect("parse");
        assert_eq!(spec.feature.as_deref(), Some("auth"));
        assert_eq!(spec.version.as_deref(), Some("1.2"));
        assert_eq!(spec.phase, Some(Phase::Blocked));
        assert_eq!(spec.phase_line, Some(3));
        assert_eq!(spec.blocked_by.as_deref(), Some("billing"));
        assert_eq!(spec.wave, Some(2));
        assert_eq!(
            spec.files,
            vec![
                DeclaredPath {
                    path: "src/auth.rs".into(),
                    line: 9
                },
                DeclaredPath {
                    path: "src/session.rs".into(),
                    line: 10
                },
            ]
        );
    }

    #[test]
    fn unknown_phases_are_kept_and_empty_files_are_empty_specs() {
        let spec = SpecYaml::parse("phase: implementing\n", "s").expect("parse");
        assert_eq!(spec.phase, Some(Phase::Other("implementing".into())));
        assert_eq!(
            spec.phase.map(|p| p.as_str().to_string()),
            Some("implementing".into())
        );
        assert_eq!(
            SpecYaml::parse("", "s").expect("empty"),
            SpecYaml::default()
        );
        for p in [
            "design-generated",
            "tasks-generated",
            "implementation-complete",
        ] {
            assert_eq!(Phase::parse(p).as_str(), p);
        }
    }

    #[test]
    fn malformed_fields_are_errors() {
        let err =
            SpecYaml::parse("roadmap:\n  wave: soon\n", "specs/a/spec.yaml").expect_err("wave");
        assert_eq!(
            err.to_string(),
            "specs/a/spec.yaml: roadmap.wave must be a whole number"
        );
        assert!(SpecYaml::parse("files: 3\n", "s").is_err());
    }
}
