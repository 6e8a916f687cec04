//! `zrfc`: the command-line front of the zrf compiler.

// Expansion builds and drops millions of small nodes; mimalloc halves the time the
// system allocator spends on them (measured on the corpus run).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    zrf::cli::main()
}
