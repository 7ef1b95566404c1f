//! `retake`: the command line (see `retake --help`).

// The Inspectors allocate heavily (syntax trees, token streams) on several threads at once;
// mimalloc takes about a fifth off a review's CPU time against glibc's malloc (BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(lead::main())
}
