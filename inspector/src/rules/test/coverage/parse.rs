//! The total coverage figure in a coverage tool's output: cargo-llvm-cov (llvm-cov report's
//! `TOTAL` row, lines column), cargo-tarpaulin (`85.71% coverage, 12/14 lines covered`),
//! pytest-cov (`TOTAL … 90%`), `go test -cover` (`coverage: 75.0% of statements`, averaged
//! over packages; `go tool cover -func`'s `total:` row wins) and istanbul/nyc/jest/vitest
//! (`Lines : 85.71% ( 12/14 )` of text-summary, or the `All files` row of the text table).

/// A coverage figure and where it was read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CoverageFigure {
    /// Percent covered.
    pub(crate) percent: f64,
    /// Of what: `lines` or `statements`.
    pub(crate) of: &'static str,
    /// The tool whose output it was.
    pub(crate) tool: &'static str,
}

/// The numbers of a line that end in `%` (`90%`, `85.71%`).
fn percents(line: &str) -> Vec<f64> {
    line.split(|c: char| c.is_whitespace() || c == '|' || c == '(' || c == ',')
        .filter_map(|w| w.strip_suffix('%'))
        .filter_map(|n| n.parse::<f64>().ok())
        .collect()
}

/// The figure of the last recognised total in `output`.
pub(crate) fn coverage_figure(output: &str) -> Option<CoverageFigure> {
    let figure =
        |percent: f64, of: &'static str, tool: &'static str| CoverageFigure { percent, of, tool };
    let mut found: Option<CoverageFigure> = None;
    let mut go_packages: Vec<f64> = Vec::new();
    for line in output.lines() {
        let t = line.trim();
        if let Some(head) = t
            .split("% coverage,")
            .next()
            .filter(|_| t.contains("% coverage,"))
        {
            if let Ok(p) = head.trim().rsplit(' ').next().unwrap_or_default().parse() {
                found = Some(figure(p, "lines", "cargo-tarpaulin"));
            }
        } else if t.starts_with("TOTAL") {
            let p = percents(t);
            found = match p.len() {
                0 => found,
                1 | 2 => Some(figure(p[p.len() - 1], "lines", "pytest-cov")),
                // Regions, functions, lines[, branches]: the third is the lines column.
                _ => Some(figure(p[2], "lines", "llvm-cov")),
            };
        } else if let Some(rest) = t
            .split("coverage: ")
            .nth(1)
            .filter(|r| r.contains("% of statements"))
        {
            if let Ok(p) = rest.split('%').next().unwrap_or_default().parse() {
                go_packages.push(p);
            }
        } else if t.starts_with("total:") && t.contains("(statements)") {
            if let Some(p) = percents(t).last() {
                found = Some(figure(*p, "statements", "go tool cover"));
                go_packages.clear();
            }
        } else if let Some(rest) = t
            .strip_prefix("Lines")
            .filter(|r| r.trim_start().starts_with(':'))
        {
            if let Some(p) = percents(rest).first() {
                found = Some(figure(*p, "lines", "istanbul"));
            }
        } else if t.starts_with("All files") {
            let columns: Vec<f64> = t
                .split('|')
                .skip(1)
                .filter_map(|c| c.trim().parse().ok())
                .collect();
            // % Stmts | % Branch | % Funcs | % Lines
            if let Some(p) = columns.get(3) {
                found = Some(figure(*p, "lines", "istanbul"));
            }
        }
    }
    if found.is_none() && !go_packages.is_empty() {
        let mean = go_packages.iter().sum::<f64>() / go_packages.len() as f64;
        found = Some(figure(mean, "statements", "go test -cover"));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(output: &str) -> Option<(f64, &'static str, &'static str)> {
        coverage_figure(output).map(|f| (f.percent, f.of, f.tool))
    }

    #[test]
    fn reads_each_tools_total() {
        let llvm = "Filename   Regions  Missed Regions  Cover  Functions  Missed Functions  Executed  Lines  Missed Lines  Cover\n-----\nsrc/lib.rs  10  2  80.00%  4  1  75.00%  50  5  90.00%\n-----\nTOTAL  20  4  80.00%  8  2  75.00%  100  12  88.00%  0  0  -\n";
        assert_eq!(read(llvm), Some((88.0, "lines", "llvm-cov")));
        let tarpaulin = "|| src/lib.rs: 12/14\n|| \n85.71% coverage, 12/14 lines covered\n";
        assert_eq!(read(tarpaulin), Some((85.71, "lines", "cargo-tarpaulin")));
        let pytest = "Name    Stmts   Miss  Cover\n---\napp/users.py   20   2   90%\n---\nTOTAL   120   12   90%\n";
        assert_eq!(read(pytest), Some((90.0, "lines", "pytest-cov")));
        let go = "ok  \tshop/cart\t0.01s\tcoverage: 80.0% of statements\nok  \tshop/pay\t0.02s\tcoverage: 60.0% of statements\n";
        assert_eq!(read(go), Some((70.0, "statements", "go test -cover")));
        let go_func = "shop/cart/cart.go:5:\tAdd\t100.0%\ntotal:\t\t\t(statements)\t72.5%\n";
        assert_eq!(read(go_func), Some((72.5, "statements", "go tool cover")));
        let summary = "=== Coverage summary ===\nStatements   : 80% ( 8/10 )\nBranches     : 50% ( 1/2 )\nFunctions    : 100% ( 2/2 )\nLines        : 85.71% ( 12/14 )\n";
        assert_eq!(read(summary), Some((85.71, "lines", "istanbul")));
        let table = "File      | % Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s\nAll files |   84.21 |       50 |     100 |   83.33 |\n";
        assert_eq!(read(table), Some((83.33, "lines", "istanbul")));
    }

    #[test]
    fn nothing_recognisable_is_none() {
        assert_eq!(read("test result: ok. 3 passed\n"), None);
        assert_eq!(read("TOTAL nothing here\n"), None);
    }
}
