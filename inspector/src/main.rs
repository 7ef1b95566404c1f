//! `retake-inspector`: one Inspector as its own process (what container images run).

use clap::Parser;

// The Inspectors allocate heavily (syntax trees, token streams) on several threads at once,
// where mimalloc is markedly cheaper than glibc's malloc.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "retake-inspector",
    about = "Run one retake Inspector and connect it to the Lead"
)]
struct Cli {
    #[command(flatten)]
    args: inspector::runtime::InspectorArgs,
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let outcome = protocol::wire::Secret::from_env()
        .map_err(anyhow::Error::from)
        .and_then(|secret| {
            inspector::runtime::run_process(cli.args, secret).map_err(anyhow::Error::from)
        });
    match outcome {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("retake-inspector: error: {e:#}");
            std::process::ExitCode::from(2)
        }
    }
}
