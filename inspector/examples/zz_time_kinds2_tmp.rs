fn main() {
    let root = std::path::PathBuf::from(std::env::args().nth(1).expect("root"));
    let options = protocol::message::InspectOptions {
        no_exec: true,
        ..Default::default()
    };
    for kind in protocol::InspectorKind::ALL {
        let ctx = inspector::Context::build(&root, &protocol::Scope::repository(), &options)
            .expect("ctx");
        let t = std::time::Instant::now();
        let r = inspector::inspect(kind, &ctx, "x", "r");
        println!("{kind}: {:?} findings {}", t.elapsed(), r.findings.len());
    }
}
