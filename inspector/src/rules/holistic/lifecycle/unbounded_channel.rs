//! `holistic/unbounded-channel-in-loop`: an unbounded channel (`mpsc::unbounded_channel()`,
//! std's `mpsc::channel()`, crossbeam/flume `unbounded()`) whose sender is fed inside a
//! long-running loop of the same function (`loop` that never exits, `while let` over
//! `recv()`/`next()`/`accept()`, `for` over `incoming()`). When the consumer is slower than the
//! producer the queue grows without limit: a memory leak under load. A bounded channel gives
//! back-pressure. Test code is exempt.

use super::loops::visit_counting_long_loops;
use crate::engine::{Hit, Language, Rule, RuleMeta, Sink, SourceFile};
use crate::rules::holistic::prefilter::{any_token_in_loops, Needle};
use crate::rules::holistic::syntax::{callee, line, path_ends_with};
use crate::rules::macro_calls::visit_macro_args;
use crate::rules::test_code::TestCode;
use protocol::{Category, Dimension, Location, Severity};
use syn::visit::{self, Visit};

/// Constructors of unbounded channels; std's `mpsc::channel` only with no argument.
const UNBOUNDED: [&str; 6] = [
    "unbounded_channel",
    "mpsc::channel",
    "crossbeam_channel::unbounded",
    "channel::unbounded",
    "flume::unbounded",
    "async_channel::unbounded",
];

static META: RuleMeta = RuleMeta {
    id: "holistic/unbounded-channel-in-loop",
    category: Category::ResourceLeak,
    severity: Severity::Medium,
    languages: &[Language::Rust],
    dimensions: &[Dimension::Quality, Dimension::Performance],
    explanation:
        "An unbounded channel fed in a long-running loop: the queue grows without limit under load",
};

/// Flags unbounded channels fed from long-running loops.
pub(crate) struct UnboundedChannel;

impl Rule for UnboundedChannel {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    /// Code that names an unbounded constructor ([`MADE`]) and sends inside a loop that may
    /// never end.
    fn wants(&self, file: &SourceFile) -> bool {
        let fed = Needle::Method(&SENDS);
        if file.language != Some(Language::Rust) || !MADE.in_text(file) || !fed.in_text(file) {
            return false;
        }
        let (mut made, mut sent) = (false, false);
        any_token_in_loops(file, |t, loops| {
            made |= MADE.matches(t);
            sent |= loops.endless_marked(fed.matches(t));
            made && sent
        })
    }

    fn check_file(&self, file: &SourceFile, out: &mut Sink) {
        let Some(Ok(ast)) = file.rust_ast() else {
            return;
        };
        let mut fns = Functions(Vec::new());
        fns.visit_file(ast);
        if fns.0.is_empty() {
            return;
        }
        let tests = TestCode::of(file);
        for (made, sender, sent) in fns.0 {
            if tests.contains(made) {
                continue;
            }
            let mut location = Location::at(&file.rel_path, sent);
            location.end_line = None;
            out.hit(
                Hit::new(
                    location,
                    format!("`{sender}` (an unbounded channel made on line {made}) is fed in a long-running loop: the queue can grow without limit"),
                    format!("unbounded channel {sender}"),
                )
                .suggest("use a bounded channel (mpsc::channel(N), sync_channel(N)) so a slow consumer slows the producer"),
            );
        }
    }
}

/// (line made, sender name, line of the first send in a long-running loop) per function.
struct Functions(Vec<(u32, String, u32)>);

impl Functions {
    fn check(&mut self, block: &syn::Block) {
        let mut made = Made(Vec::new());
        made.visit_block(block);
        for (line_made, sender) in made.0 {
            let mut sends = Sends {
                sender: &sender,
                long_loops: 0,
                found: None,
            };
            sends.visit_block(block);
            if let Some(sent) = sends.found {
                self.0.push((line_made, sender, sent));
            }
        }
    }
}

impl<'ast> Visit<'ast> for Functions {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.check(&f.block);
        visit::visit_item_fn(self, f);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.check(&f.block);
        visit::visit_impl_item_fn(self, f);
    }
}

/// `let (tx, rx) = <unbounded constructor>();` → (line, `tx`).
struct Made(Vec<(u32, String)>);

impl<'ast> Visit<'ast> for Made {
    fn visit_local(&mut self, l: &'ast syn::Local) {
        let sender = match &l.pat {
            syn::Pat::Tuple(t) => match t.elems.first() {
                Some(syn::Pat::Ident(id)) => Some(id.ident.to_string()),
                _ => None,
            },
            _ => None,
        };
        let call = l.init.as_ref().and_then(|i| match &*i.expr {
            syn::Expr::Call(c) => Some(c),
            _ => None,
        });
        if let (Some(sender), Some(call)) = (sender, call) {
            let unbounded = callee(call).is_some_and(|name| {
                UNBOUNDED.iter().any(|u| path_ends_with(&name, u))
                    && (!name.ends_with("mpsc::channel") || call.args.is_empty())
                    && !name.starts_with("tokio::sync::mpsc::channel")
            });
            if unbounded {
                self.0.push((line(l.let_token.span), sender));
            }
        }
        visit::visit_local(self, l);
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

/// The last segments of the [`UNBOUNDED`] constructors.
const MADE: Needle<'static> = Needle::Word(&["unbounded_channel", "channel", "unbounded"]);

/// Methods that feed a channel.
const SENDS: [&str; 3] = ["send", "unbounded_send", "try_send"];

/// The first `sender.send(..)` inside a long-running loop.
struct Sends<'s> {
    sender: &'s str,
    long_loops: u32,
    found: Option<u32>,
}

impl<'ast> Visit<'ast> for Sends<'_> {
    fn visit_expr(&mut self, e: &'ast syn::Expr) {
        visit_counting_long_loops(self, e, |v| &mut v.long_loops);
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        let sends = SENDS.contains(&m.method.to_string().as_str());
        let ours = matches!(&*m.receiver, syn::Expr::Path(p) if p.path.is_ident(self.sender));
        if self.long_loops > 0 && sends && ours && self.found.is_none() {
            self.found = Some(line(m.method.span()));
        }
        visit::visit_expr_method_call(self, m);
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {}

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        visit_macro_args(self, mac);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fixture::hits;
    use crate::rules::holistic::prefilter::wanted;

    #[test]
    fn fires_when_a_long_running_loop_feeds_an_unbounded_channel() {
        let text = "async fn pump(mut source: Stream) {\n    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();\n    tokio::spawn(async move {\n        while let Some(ev) = source.next().await {\n            tx.send(ev).ok();\n        }\n    });\n}\nfn accept(listener: TcpListener) {\n    let (work, jobs) = std::sync::mpsc::channel();\n    for stream in listener.incoming() {\n        work.send(stream).ok();\n    }\n}\n";
        assert_eq!(
            hits(&UnboundedChannel, "src/a.rs", text),
            vec![
                (5, "`tx` (an unbounded channel made on line 2) is fed in a long-running loop: the queue can grow without limit".to_string()),
                (12, "`work` (an unbounded channel made on line 10) is fed in a long-running loop: the queue can grow without limit".to_string()),
            ]
        );
    }

    #[test]
    fn quiet_on_bounded_channels_and_finite_loops() {
        let text = "async fn a(items: Vec<u8>, mut s: Stream) {\n    let (tx, rx) = tokio::sync::mpsc::channel(64);\n    while let Some(x) = s.next().await {\n        tx.send(x).await.ok();\n    }\n    let (t2, r2) = std::sync::mpsc::channel();\n    for i in items {\n        t2.send(i).ok();\n    }\n    let (t3, r3) = mpsc::unbounded_channel();\n    loop {\n        if t3.send(1).is_err() {\n            break;\n        }\n    }\n}\n";
        assert!(hits(&UnboundedChannel, "src/a.rs", text).is_empty());
    }

    #[test]
    fn wants_an_unbounded_constructor_and_a_send_in_a_loop_that_may_not_end() {
        let fed = "async fn f(mut rx: Rx) {\n    let (tx, out) = mpsc::unbounded_channel();\n    while let Some(m) = rx.recv().await {\n        tx.send(m);\n    }\n}\n";
        assert!(wanted(&UnboundedChannel, fed));
        let finite = "fn f(xs: &[u8]) {\n    let (tx, rx) = mpsc::channel();\n    for x in xs {\n        tx.send(*x);\n    }\n}\n";
        assert!(!wanted(&UnboundedChannel, finite));
        let commented = "// let (tx, rx) = unbounded();\nfn f() {\n    loop {\n        tx.send(\"unbounded\");\n    }\n}\n";
        assert!(!wanted(&UnboundedChannel, commented));
    }

    #[test]
    fn made_names_the_last_segment_of_every_constructor() {
        let Needle::Word(names) = MADE else {
            panic!("MADE is a list of words");
        };
        for path in UNBOUNDED {
            assert!(
                names.contains(&path.rsplit("::").next().unwrap_or(path)),
                "{path}"
            );
        }
    }
}
