//! `retake-inspector`: one Inspector as its own process (what container images run), or
//! `retake-inspector health URL` as their health check.

// The Inspectors allocate heavily (syntax trees, token streams) on several threads at once,
// where mimalloc is markedly cheaper than glibc's malloc.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    protocol::session::process::actor_main(
        "retake-inspector",
        "Run one retake Inspector and connect it to the Lead",
        inspector::runtime::run_process,
    )
}
