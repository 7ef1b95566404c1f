//! Reading an agent's reply as an Inspector report, tolerantly: the whole text if it is CPF,
//! else a fenced block in prose that is, else everything from the first CPF line on. Agents
//! wrap their answers in explanations; the CPF reader itself stays strict.

use protocol::cpf::{parse_report, ReportCpf};

/// Lines that open a CPF report.
const OPENERS: [&str; 5] = ["VERDICT:", "SCOPE:", "ISSUES:", "NOTES:", "QUESTIONS:"];

/// The report in `text`, or why there is none (empty, or the CPF reader's error).
pub fn read_reply(text: &str) -> Result<ReportCpf, String> {
    if text.trim().is_empty() {
        return Err("empty output".to_string());
    }
    let first_error = match parse_report(text) {
        Ok(report) => return Ok(report),
        Err(e) => e.to_string(),
    };
    for block in fenced_blocks(text).filter(|b| opens_cpf(b)) {
        if let Ok(report) = parse_report(block) {
            return Ok(report);
        }
    }
    if let Some(start) = cpf_start(text) {
        let tail = &text[start..];
        // An answer that ends with a closing fence after the CPF: drop it.
        let tail = tail.trim_end().strip_suffix("```").unwrap_or(tail);
        return parse_report(tail).map_err(|e| format!("not CPF: {e}"));
    }
    Err(format!("not CPF: {first_error}"))
}

/// The bodies of the ``` fenced blocks of `text`.
fn fenced_blocks(text: &str) -> impl Iterator<Item = &str> {
    let mut blocks = Vec::new();
    let mut open: Option<usize> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with("```") {
            match open {
                None => open = Some(offset + line.len()),
                Some(start) => {
                    blocks.push(&text[start..offset]);
                    open = None;
                }
            }
        }
        offset += line.len();
    }
    blocks.into_iter()
}

fn opens_cpf(block: &str) -> bool {
    block
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .is_some_and(|l| OPENERS.iter().any(|o| l.starts_with(o)))
}

/// The byte offset of the first line that opens a report.
fn cpf_start(text: &str) -> Option<usize> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if OPENERS.iter().any(|o| line.trim_start().starts_with(o)) {
            return Some(offset);
        }
        offset += line.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_cpf_and_cpf_inside_prose_are_read() {
        let plain =
            read_reply("VERDICT:CONDITIONAL\nISSUES:\nH|race-condition|src/a.rs:3|lock held\n")
                .expect("plain");
        assert_eq!(plain.issues.len(), 1);
        let prose = "Here is my review.\n\n```cpf\nVERDICT:GO\nISSUES:\nL|style|src/b.rs:1|long line\n```\nHope it helps!\n";
        let fenced = read_reply(prose).expect("fenced");
        assert_eq!(fenced.issues[0].category, "style");
        let tail = read_reply("Sure.\nVERDICT:GO\nNOTES:\nnothing found\n").expect("tail");
        assert_eq!(tail.notes, vec!["nothing found".to_string()]);
    }

    #[test]
    fn empty_and_garbage_replies_are_errors() {
        assert_eq!(read_reply(" \n\n"), Err("empty output".to_string()));
        let err = read_reply("I could not review this repository.\n").expect_err("garbage");
        assert!(err.starts_with("not CPF: line 1: "), "{err}");
        let err = read_reply("VERDICT:MAYBE\n").expect_err("bad verdict");
        assert!(err.contains("unknown verdict 'MAYBE'"), "{err}");
    }
}
