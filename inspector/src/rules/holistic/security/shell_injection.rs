//! `holistic/shell-injection`: a shell command line built from strings at run time — Rust
//! `Command::new("sh").arg("-c").arg(format!(..))`, Python `os.system(f"..")` or
//! `subprocess.run("..." + x, shell=True)`, Node `exec(\`..${x}\`)`, Go
//! `exec.Command("sh", "-c", fmt.Sprintf(..))`. Any value spliced in can carry `;`, `$(..)` or
//! a quote and run commands of its own. Passing argv without a shell is the fix.
//!
//! A fixed script (`sh -c "make all"`) or a variable of unknown origin is not flagged: only
//! strings visibly built by formatting or concatenation. Test code is exempt.

use crate::engine::{Language, Rule, RuleMeta, Sink, SourceFile};
use crate::lexical::args::{call_args, is_built, Arg};
use crate::lexical::{find_word, lex};
use crate::rules::holistic::syntax::{callee, line, path_ends_with};
use crate::rules::line_hits::{find_in_syntax_or_text, line_hit, outside_tests};
use crate::rules::macro_calls::visit_macro_args;
use protocol::{Category, Dimension, Severity};
use std::collections::BTreeSet;
use syn::visit::{self, Visit};

/// Programs that run their argument as a shell script.
const SHELLS: [&str; 9] = [
    "sh",
    "bash",
    "zsh",
    "/bin/sh",
    "/bin/bash",
    "cmd",
    "cmd.exe",
    "powershell",
    "pwsh",
];

static META: RuleMeta = RuleMeta {
    id: "holistic/shell-injection",
    category: Category::OperationalRisk,
    severity: Severity::High,
    languages: &[
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::JavaScript,
        Language::Go,
    ],
    dimensions: &[Dimension::Security],
    explanation:
        "Shell command lines built with format!/f-strings/concatenation: command injection",
};

/// Flags shell commands built from strings.
pub(crate) struct ShellInjection;

impl Rule for ShellInjection {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn wants(&self, file: &SourceFile) -> bool {
        let t = &file.text;
        let candidate = match file.language {
            Some(Language::Rust) => {
                t.contains("Command::new") && t.contains("\"-c\"") || t.contains("\"/C\"")
            }
            Some(Language::Python) => {
                t.contains("os.system") || t.contains("os.popen") || t.contains("shell=True")
            }
            Some(Language::TypeScript | Language::JavaScript) => t.contains("child_process"),
            Some(Language::Go) => t.contains("exec.Command") && t.contains("\"-c\""),
            _ => false,
        };
        candidate && !file.is_test_file()
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let Some(found) =
            find_in_syntax_or_text(file, Finder::default(), |f: Finder| f.found, text)
        else {
            return;
        };
        for l in outside_tests(file, found, |l| *l) {
            out.hit(
                line_hit(
                    file,
                    l,
                    "shell command line built from a formatted string: a value with `;`, `$(..)` or a quote runs commands of its own",
                    "shell",
                )
                .suggest("run the program directly with an argument list (no shell); never splice values into a script"),
            );
        }
    }
}

/// Rust: shell `Command`s whose arguments include `-c` and a built string.
#[derive(Default)]
struct Finder {
    /// Locals bound to `Command::new(<shell>)` and to `format!(..)`.
    shell_vars: Vec<String>,
    built_vars: Vec<String>,
    found: BTreeSet<u32>,
}

fn is_format(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Macro(m) => m
            .mac
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == "format"),
        syn::Expr::Reference(r) => is_format(&r.expr),
        syn::Expr::Binary(b) => matches!(b.op, syn::BinOp::Add(_)),
        syn::Expr::MethodCall(m) if m.method == "as_str" => is_format(&m.receiver),
        _ => false,
    }
}

fn shell_root(e: &syn::Expr) -> Option<u32> {
    let syn::Expr::Call(c) = e else {
        return None;
    };
    let program = match c.args.first() {
        Some(syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        })) => s.value(),
        _ => return None,
    };
    let is_new = callee(c).is_some_and(|p| path_ends_with(&p, "Command::new"));
    (is_new && SHELLS.contains(&program.as_str())).then(|| match &*c.func {
        syn::Expr::Path(p) => p.path.segments.first().map_or(0, |s| line(s.ident.span())),
        _ => 0,
    })
}

impl Finder {
    fn is_built(&self, e: &syn::Expr) -> bool {
        let e = match e {
            syn::Expr::Reference(r) => &*r.expr,
            other => other,
        };
        is_format(e)
            || matches!(e, syn::Expr::Path(p) if p.path.get_ident().is_some_and(|i| self.built_vars.contains(&i.to_string())))
    }

    fn args_of<'e>(e: &'e syn::Expr, out: &mut Vec<&'e syn::Expr>) {
        match e {
            syn::Expr::Array(a) => out.extend(a.elems.iter()),
            syn::Expr::Reference(r) => Self::args_of(&r.expr, out),
            syn::Expr::Macro(m) if m.mac.path.is_ident("vec") => {}
            other => out.push(other),
        }
    }
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_local(&mut self, l: &'ast syn::Local) {
        if let (syn::Pat::Ident(id), Some(init)) = (&l.pat, &l.init) {
            let mut e = &*init.expr;
            while let syn::Expr::MethodCall(m) = e {
                e = &m.receiver;
            }
            if shell_root(e).is_some() {
                self.shell_vars.push(id.ident.to_string());
            }
            if is_format(&init.expr) {
                self.built_vars.push(id.ident.to_string());
            }
        }
        visit::visit_local(self, l);
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        if m.method == "arg" || m.method == "args" {
            let mut args: Vec<&syn::Expr> = Vec::new();
            let mut chain: Vec<&syn::ExprMethodCall> = vec![m];
            let mut e: &syn::Expr = &m.receiver;
            while let syn::Expr::MethodCall(call) = e {
                chain.push(call);
                e = &call.receiver;
            }
            let root_line = shell_root(e).or_else(|| match e {
                syn::Expr::Path(p)
                    if p.path
                        .get_ident()
                        .is_some_and(|i| self.shell_vars.contains(&i.to_string())) =>
                {
                    Some(line(m.method.span()))
                }
                _ => None,
            });
            if let Some(at) = root_line {
                for call in chain
                    .iter()
                    .filter(|c| c.method == "arg" || c.method == "args")
                {
                    for a in &call.args {
                        Self::args_of(a, &mut args);
                    }
                }
                let dash_c = args.iter().any(|a| {
                    matches!(a, syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) if s.value() == "-c" || s.value() == "/C")
                });
                if dash_c && args.iter().any(|a| self.is_built(a)) {
                    self.found.insert(at);
                }
            }
        }
        visit::visit_expr_method_call(self, m);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        visit_macro_args(self, mac);
    }
}

/// Python, TypeScript/JavaScript and Go: lines of shell calls with a built string argument.
fn text(text: &str, lang: Language) -> BTreeSet<u32> {
    let lines = lex(text, lang);
    let mut found = BTreeSet::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.code();
        let call = match lang {
            Language::Python => [
                "os.system(",
                "os.popen(",
                "subprocess.run(",
                "subprocess.call(",
                "subprocess.Popen(",
                "subprocess.check_output(",
                "subprocess.check_call(",
            ]
            .iter()
            .find_map(|c| {
                code.find(c)
                    .map(|at| (at + c.len(), c.starts_with("subprocess")))
            }),
            Language::Go => code
                .find("exec.Command(")
                .map(|at| (at + "exec.Command(".len(), false)),
            _ => ["execSync(", "exec("].iter().find_map(|c| {
                let at = find_word(&code, c.trim_end_matches('('))?;
                let receiver = code[..at].strip_suffix('.').map(|head| {
                    let start = head
                        .rfind(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
                        .map_or(0, |p| p + 1);
                    &head[start..]
                });
                let child_process =
                    receiver.is_none_or(|r| r == "cp" || r.to_ascii_lowercase().contains("child"));
                (code[at..].starts_with(c) && child_process).then_some((at + c.len(), false))
            }),
        };
        let Some((open, needs_shell_flag)) = call else {
            continue;
        };
        let args = call_args(&lines, i, open);
        let code_text: String = args
            .iter()
            .filter_map(|a| match a {
                Arg::Code(c) => Some(*c),
                _ => None,
            })
            .collect();
        if needs_shell_flag && !code_text.contains("shell=True") {
            continue;
        }
        let built = (0..args.len())
            .any(|k| is_built(&args, k, (lang == Language::Python).then_some("f")))
            || (lang == Language::Go && code_text.contains("fmt.Sprintf("));
        let shell = lang != Language::Go
            || args
                .iter()
                .any(|a| matches!(a, Arg::Str(s) if *s == "\"-c\""));
        if built && shell {
            found.insert(line.number);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;

    const MSG: &str = "shell command line built from a formatted string: a value with `;`, `$(..)` or a quote runs commands of its own";

    #[test]
    fn fires_on_shell_scripts_built_from_strings() {
        let rust = "fn archive(name: &str) -> io::Result<Output> {\n    Command::new(\"sh\")\n        .arg(\"-c\")\n        .arg(format!(\"tar czf {name}.tgz data/\"))\n        .output()\n}\nfn b(u: &str) {\n    let script = format!(\"curl {u} | sh\");\n    let mut cmd = Command::new(\"bash\");\n    cmd.args([\"-c\", &script]);\n}\n";
        assert_eq!(
            hits(&ShellInjection, "src/a.rs", rust),
            vec![(2, MSG.to_string()), (10, MSG.to_string())]
        );
        let py = "import os, subprocess\ndef f(name):\n    os.system(f\"rm -rf /tmp/{name}\")\n    subprocess.run(\"ls \" + name, shell=True)\n";
        let lines: Vec<u32> = hits(&ShellInjection, "app/a.py", py)
            .into_iter()
            .map(|h| h.0)
            .collect();
        assert_eq!(lines, vec![3, 4]);
        let js = "const { exec } = require('child_process');\nexec(`git log ${branch}`, cb);\n";
        assert_eq!(hits(&ShellInjection, "web/a.js", js).len(), 1);
        let go = "package a\n\nfunc F(n string) {\n\texec.Command(\"sh\", \"-c\", fmt.Sprintf(\"echo %s\", n))\n}\n";
        assert_eq!(hits(&ShellInjection, "a/a.go", go).len(), 1);
    }

    #[test]
    fn quiet_on_fixed_scripts_argv_and_no_shell() {
        let rust = "fn a(name: &str) {\n    Command::new(\"sh\").arg(\"-c\").arg(\"make all\").status();\n    Command::new(\"tar\").arg(\"czf\").arg(format!(\"{name}.tgz\")).status();\n    Command::new(\"sh\").arg(\"-c\").arg(script).status();\n}\n";
        assert!(hits(&ShellInjection, "src/a.rs", rust).is_empty());
        let py = "import subprocess\nsubprocess.run([\"ls\", name])\nsubprocess.run(f\"ls {name}\")\nos.system(\"make\")\n";
        assert!(hits(&ShellInjection, "app/a.py", py).is_empty());
        let js = "const { execFile } = require('child_process');\nexecFile('git', ['log', branch]);\nregex.exec(`x ${y}`);\n";
        assert!(hits(&ShellInjection, "web/a.js", js).is_empty());
    }
}
