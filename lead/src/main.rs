//! `retake`: the command line (see `retake --help`).

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(lead::main())
}
