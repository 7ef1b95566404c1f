//! `retake-auditor`: the Auditor as its own process (what container images run).

use clap::Parser;

#[derive(Parser)]
#[command(
    name = "retake-auditor",
    about = "Run the retake Auditor and connect it to the Lead"
)]
struct Cli {
    #[command(flatten)]
    args: auditor::runtime::AuditorArgs,
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let outcome = protocol::wire::Secret::from_env()
        .map_err(anyhow::Error::from)
        .and_then(|secret| {
            auditor::runtime::run_process(cli.args, secret).map_err(anyhow::Error::from)
        });
    match outcome {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("retake-auditor: error: {e:#}");
            std::process::ExitCode::from(2)
        }
    }
}
