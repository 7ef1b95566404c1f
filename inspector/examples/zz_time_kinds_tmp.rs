fn main() {
    let root = std::path::PathBuf::from(std::env::args().nth(1).expect("root"));
    let only = std::env::args().nth(2);
    let options = protocol::message::InspectOptions {
        no_exec: true,
        ..Default::default()
    };
    for kind in [
        protocol::InspectorKind::Test,
        protocol::InspectorKind::Rulebase,
        protocol::InspectorKind::Interface,
    ] {
        let ctx = inspector::Context::build(&root, &protocol::Scope::repository(), &options)
            .expect("ctx");
        for rule in inspector::rules::for_kind(kind) {
            let t = std::time::Instant::now();
            let mut sink = inspector::engine::Sink::default();
            for f in &ctx.files {
                if rule.wants(f) {
                    rule.check_file(f, &mut sink);
                }
            }
            rule.check_project(&ctx, &mut sink);
            println!(
                "{}: {:?} hits {}",
                rule.meta().id,
                t.elapsed(),
                sink.hits.len()
            );
            if only.as_deref() == Some(rule.meta().id) {
                for h in &sink.hits {
                    println!("   {} {}", h.location, h.description);
                }
            }
        }
    }
}
