//! Structured output over HTTP: the endpoint is asked for a JSON object a schema constrains
//! (OpenAI's `response_format` of type `json_schema`, which llama.cpp's server, vLLM and ollama
//! honour too), and the object becomes the CPF report the rest of the backend reads. A small
//! model that drifts out of a text format cannot leave the schema. An endpoint that ignores the
//! request answers in text, read as before; one that refuses it is asked again without it.

use protocol::cpf::{format_report, CpfIssue, ReportCpf};
use protocol::{Severity, Verdict};
use serde_json::{json, Value};

/// What the reply must look like, for an agent asked for JSON.
pub(super) const FORMAT: &str = "\
Answer with one JSON object and nothing else:
{\"verdict\": \"GO\" | \"CONDITIONAL\" | \"NO-GO\",
 \"issues\": [{\"severity\": \"C\" | \"H\" | \"M\" | \"L\", \"category\": \"<short-kebab-case>\",
             \"location\": \"<path>:<line>\", \"description\": \"<what is wrong, specifically>\"}],
 \"notes\": [\"<one advisory observation>\"]}

severity is one letter: C (critical), H (high), M (medium), L (low). <path> is relative to the
repository root. With no issues, answer verdict GO and an empty issues list.";

/// The `response_format` asking for a report object.
pub(super) fn response_format() -> Value {
    let issue = json!({
        "type": "object",
        "properties": {
            "severity": {"type": "string", "enum": ["C", "H", "M", "L"]},
            "category": {"type": "string", "minLength": 1, "maxLength": 64},
            "location": {"type": "string", "maxLength": 512},
            "description": {"type": "string", "maxLength": 2000}
        },
        "required": ["severity", "category", "location", "description"],
        "additionalProperties": false
    });
    json!({
        "type": "json_schema",
        "json_schema": {
            "name": "inspector_report",
            "strict": true,
            "schema": {
                "type": "object",
                "properties": {
                    "verdict": {"type": "string", "enum": ["GO", "CONDITIONAL", "NO-GO"]},
                    "issues": {"type": "array", "items": issue, "maxItems": 200},
                    "notes": {
                        "type": "array",
                        "items": {"type": "string", "maxLength": 2000},
                        "maxItems": 50
                    }
                },
                "required": ["verdict", "issues", "notes"],
                "additionalProperties": false
            }
        }
    })
}

/// The report in a reply that is a JSON object (alone, or in a fenced block), as CPF text;
/// `None` when the reply is not one (an endpoint that answered in text), an error naming what
/// is wrong when it is one that is not a report.
pub(super) fn as_cpf(content: &str) -> Option<Result<String, String>> {
    let text = content.trim();
    let text = text
        .strip_prefix("```json")
        .or_else(|| text.strip_prefix("```"))
        .and_then(|t| t.trim_end().strip_suffix("```"))
        .unwrap_or(text)
        .trim();
    if !text.starts_with('{') {
        return None;
    }
    let value: Value = serde_json::from_str(text).ok()?;
    Some(report(&value).map(|r| format_report(&r)))
}

fn report(value: &Value) -> Result<ReportCpf, String> {
    let object = value.as_object().ok_or("the JSON reply is not an object")?;
    let verdict = match object.get("verdict") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_str()
                .ok_or("verdict is not a string")?
                .parse::<Verdict>()
                .map_err(|e| format!("verdict: {e}"))?,
        ),
    };
    let list = |key: &str| -> Result<Vec<Value>, String> {
        match object.get(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(items)) => Ok(items.clone()),
            Some(_) => Err(format!("{key} is not a list")),
        }
    };
    let issues = list("issues")?
        .iter()
        .enumerate()
        .map(|(i, item)| issue(item).map_err(|e| format!("issues[{i}]: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    let notes = list("notes")?
        .iter()
        .enumerate()
        .map(|(i, n)| {
            n.as_str()
                .map(str::to_string)
                .ok_or(format!("notes[{i}] is not a string"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ReportCpf {
        verdict,
        scope: None,
        issues,
        notes,
        questions: Vec::new(),
    })
}

fn issue(item: &Value) -> Result<CpfIssue, String> {
    let field = |key: &str| -> Result<String, String> {
        match item.get(key) {
            Some(Value::String(s)) => Ok(one_line(s)),
            None | Some(Value::Null) => Ok(String::new()),
            Some(_) => Err(format!("{key} is not a string")),
        }
    };
    let severity = field("severity")?;
    Ok(CpfIssue {
        severity: severity
            .parse::<Severity>()
            .map_err(|e| format!("severity: {e}"))?,
        category: field("category")?,
        location: field("location")?,
        description: field("description")?,
    })
}

/// A field on one line: a CPF row cannot carry a line break.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_object_becomes_the_cpf_the_reader_takes() {
        let reply = r#"{"verdict": "NO-GO", "issues": [{"severity": "H", "category": "null-check",
            "location": "src/a.rs:12", "description": "unwrap on | user\ninput"}],
            "notes": ["the tests do not cover a.rs"]}"#;
        let cpf = as_cpf(reply).expect("a JSON reply").expect("a report");
        let read = super::super::read_reply(&cpf).expect("CPF");
        assert_eq!(read.verdict, Some(Verdict::NoGo));
        assert_eq!(
            read.issues,
            vec![CpfIssue {
                severity: Severity::High,
                category: "null-check".into(),
                location: "src/a.rs:12".into(),
                description: "unwrap on | user input".into(),
            }]
        );
        assert_eq!(read.notes, vec!["the tests do not cover a.rs".to_string()]);
    }

    #[test]
    fn fenced_json_is_json_text_is_not_and_a_wrong_object_is_named() {
        let fenced = "```json\n{\"verdict\": \"GO\", \"issues\": [], \"notes\": []}\n```";
        assert_eq!(as_cpf(fenced), Some(Ok("VERDICT:GO\n".to_string())));
        assert_eq!(as_cpf("VERDICT:GO\n"), None);
        assert_eq!(
            as_cpf(r#"{"verdict": "GO", "issues": [{"severity": "X"}]}"#),
            Some(Err(
                "issues[0]: severity: unknown severity 'X' (expected C, H, M or L)".into()
            ))
        );
        assert_eq!(
            as_cpf(r#"{"verdict": "MAYBE"}"#).map(|r| r.is_err()),
            Some(true)
        );
        // An empty object is read like an empty report: refused by the CPF reader, never clean.
        let empty = as_cpf("{}").expect("JSON").expect("converted");
        assert!(super::super::read_reply(&empty).is_err());
    }

    #[test]
    fn the_schema_asks_for_the_three_fields() {
        let format = response_format();
        assert_eq!(format["type"], "json_schema");
        assert_eq!(
            format["json_schema"]["schema"]["required"],
            json!(["verdict", "issues", "notes"])
        );
    }
}
