//! `zrfc`: the command-line front of the zrf compiler.

fn main() -> std::process::ExitCode {
    zrf::cli::main()
}
