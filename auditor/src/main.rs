//! `retake-auditor`: the Auditor as its own process (what container images run), or
//! `retake-auditor health URL` as its health check.

fn main() -> std::process::ExitCode {
    protocol::session::process::actor_main(
        "retake-auditor",
        "Run the retake Auditor and connect it to the Lead",
        auditor::runtime::run_process,
    )
}
