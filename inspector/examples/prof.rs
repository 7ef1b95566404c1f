//! Temporary profiling harness (not committed).
#[global_allocator]
static A: mimalloc::MiMalloc = mimalloc::MiMalloc;
use inspector::engine::{inspect, Context};
use protocol::message::InspectOptions;
use protocol::{InspectorKind, Scope};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let root = std::path::Path::new(&args[1]);
    let kinds: Vec<InspectorKind> = InspectorKind::ALL
        .into_iter()
        .filter(|k| args.len() < 3 || args[2..].iter().any(|a| a == k.as_str()))
        .collect();
    let opts = InspectOptions {
        no_exec: true,
        ..InspectOptions::default()
    };
    for kind in kinds {
        let t = std::time::Instant::now();
        let ctx = Context::build(root, &Scope::repository(), &opts).expect("ctx");
        let tw = t.elapsed();
        let r = inspect(kind, &ctx, "x", "r");
        eprintln!(
            "{kind}: walk {:?} total {:?} findings {}",
            tw,
            t.elapsed(),
            r.findings.len()
        );
    }
}
