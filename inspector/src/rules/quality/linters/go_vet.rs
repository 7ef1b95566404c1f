//! Reading `go vet -json ./...`: the go command writes, to stderr, one indented JSON object per
//! package, each after a `# package` header line: `{"pkg": {"analyzer": [{"posn":
//! "file:line:col", "message": "…"}]}}`. An analyzer that failed on a package has
//! `{"error": "…"}` in place of its list. A test variant of a package (`pkg [pkg.test]`)
//! repeats the package's diagnostics; each is kept once.

use super::{relative, Diagnostic};
use serde_json::Value;
use std::path::Path;

/// What go vet's JSON said: located diagnostics (code = the analyzer's name) and the errors of
/// analyzers that could not run on a package (`pkg: analyzer: error`).
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct VetOutput {
    /// The diagnostics, relative to the root, in output order.
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// Analyzer failures.
    pub(crate) errors: Vec<String>,
    /// Whether any JSON object was read.
    pub(crate) json: bool,
}

/// Parses go vet's output (its stderr, with any stdout after it); text around the JSON objects
/// (package headers, the go command's own messages) is skipped.
pub(crate) fn parse(output: &str, root: &Path) -> VetOutput {
    let mut out = VetOutput::default();
    for object in objects(output) {
        out.json = true;
        let Some(packages) = object.as_object() else {
            continue;
        };
        for (package, analyzers) in packages {
            for (analyzer, result) in analyzers.as_object().into_iter().flatten() {
                if let Some(error) = result["error"].as_str() {
                    out.errors.push(format!("{package}: {analyzer}: {error}"));
                }
                for d in result.as_array().into_iter().flatten() {
                    let Some(diagnostic) = located(d, analyzer, root) else {
                        continue;
                    };
                    if !out.diagnostics.contains(&diagnostic) {
                        out.diagnostics.push(diagnostic);
                    }
                }
            }
        }
    }
    out
}

/// The top-level JSON objects in `text`, each starting at the beginning of a line.
fn objects(text: &str) -> Vec<Value> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = object_start(rest) {
        let tail = &rest[start..];
        let mut stream = serde_json::Deserializer::from_str(tail).into_iter::<Value>();
        match stream.next() {
            Some(Ok(value)) => {
                found.push(value);
                rest = &tail[stream.byte_offset()..];
            }
            // Not JSON after all: go on after this line.
            _ => rest = tail.find('\n').map_or("", |nl| &tail[nl + 1..]),
        }
    }
    found
}

/// The byte offset of the first line of `text` that starts with `{`.
fn object_start(text: &str) -> Option<usize> {
    if text.starts_with('{') {
        return Some(0);
    }
    text.find("\n{").map(|i| i + 1)
}

/// A diagnostic from one entry of an analyzer's list: `posn` is `file:line:col` (the file may
/// itself hold colons, so the position is read from the right).
fn located(entry: &Value, analyzer: &str, root: &Path) -> Option<Diagnostic> {
    let posn = entry["posn"].as_str()?;
    let mut parts = posn.rsplitn(3, ':');
    let (_column, line, file) = (parts.next()?, parts.next()?, parts.next()?);
    let line: u32 = line.parse().ok()?;
    Some(Diagnostic {
        path: relative(root, file),
        line,
        end_line: line,
        code: analyzer.to_string(),
        error: false,
        deny_by_default: false,
        message: entry["message"].as_str().unwrap_or_default().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shape `go vet -json ./...` writes to stderr (the go command's package headers, then
    /// each package's JSON tree as `encoding/json` indents it), for a module with a printf
    /// mistake and a lost cancel in one package, a test variant repeating one of them, a
    /// package that does not type-check and a clean one.
    const SAMPLE: &str = "# example.com/shop
{
\t\"example.com/shop\": {
\t\t\"lostcancel\": [
\t\t\t{
\t\t\t\t\"posn\": \"/home/u/shop/orders.go:14:7\",
\t\t\t\t\"message\": \"the cancel function returned by context.WithTimeout should be called, not discarded, to avoid a context leak\"
\t\t\t}
\t\t],
\t\t\"printf\": [
\t\t\t{
\t\t\t\t\"posn\": \"/home/u/shop/orders.go:22:2\",
\t\t\t\t\"message\": \"fmt.Printf format %d has arg name of wrong type string\",
\t\t\t\t\"suggested_fixes\": []
\t\t\t}
\t\t]
\t}
}
# example.com/shop [example.com/shop.test]
{
\t\"example.com/shop [example.com/shop.test]\": {
\t\t\"printf\": [
\t\t\t{
\t\t\t\t\"posn\": \"/home/u/shop/orders.go:22:2\",
\t\t\t\t\"message\": \"fmt.Printf format %d has arg name of wrong type string\"
\t\t\t}
\t\t]
\t}
}
# example.com/shop/broken
{
\t\"example.com/shop/broken\": {
\t\t\"buildtag\": {
\t\t\t\"error\": \"broken.go:3:1: expected declaration, found oops\"
\t\t}
\t}
}
# example.com/shop/clean
{}
";

    #[test]
    fn reads_each_diagnostic_once_with_its_analyzer() {
        let vet = parse(SAMPLE, Path::new("/home/u/shop"));
        let summary: Vec<(&str, u32, &str)> = vet
            .diagnostics
            .iter()
            .map(|d| (d.path.as_str(), d.line, d.code.as_str()))
            .collect();
        assert_eq!(
            summary,
            vec![("orders.go", 14, "lostcancel"), ("orders.go", 22, "printf")]
        );
        assert_eq!(
            vet.diagnostics[1].message,
            "fmt.Printf format %d has arg name of wrong type string"
        );
        assert_eq!(
            vet.errors,
            vec![
                "example.com/shop/broken: buildtag: broken.go:3:1: expected declaration, found oops"
                    .to_string()
            ]
        );
        assert!(vet.json);
    }

    #[test]
    fn text_without_json_and_colons_in_paths() {
        let vet = parse(
            "go: go.mod requires go >= 1.99 (running go 1.22; GOTOOLCHAIN=local)\n",
            Path::new("/r"),
        );
        assert_eq!(vet, VetOutput::default());
        let odd = "{\"p\": {\"printf\": [{\"posn\": \"/r/a:b.go:3:9\", \"message\": \"m\"}]}}\n";
        let vet = parse(odd, Path::new("/r"));
        assert_eq!(
            vet.diagnostics
                .iter()
                .map(|d| (d.path.as_str(), d.line))
                .collect::<Vec<_>>(),
            vec![("a:b.go", 3)]
        );
    }
}
