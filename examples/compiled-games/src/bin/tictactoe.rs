//! The compiled tic-tac-toe sample as a package's program: what `zrfc build` writes as
//! `main`, so that tests run the command line a package's users run.

fn main() -> std::process::ExitCode {
    zrf_play::driver::run_engine(
        zrf_example_games::tictactoe::engine,
        "tictactoe.zrf",
        std::env::args().skip(1).collect(),
    )
}
