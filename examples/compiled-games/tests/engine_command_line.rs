//! The command line every compiled package's `main` hands to `zrf_search::driver`, on a
//! compiled sample: what `--variant` does in a package of one game.

use std::process::ExitCode;

use zrf_example_games::tictactoe;
use zrf_search::driver::run_engine;

fn run(args: &[&str]) -> ExitCode {
    run_engine(
        tictactoe::engine,
        "tictactoe.zrf",
        args.iter().map(|a| a.to_string()).collect(),
    )
}

#[test]
fn the_usage_line_holds_for_a_package_of_one_game() {
    // `ENGINE [--variant TITLE] COMMAND`: the engine's own title, in any case, anywhere.
    let title = tictactoe::TITLE.to_uppercase();
    assert_eq!(run(&["--variant", &title, "perft", "1"]), ExitCode::SUCCESS);
    assert_eq!(
        run(&["perft", "1", "--variant", tictactoe::TITLE]),
        ExitCode::SUCCESS
    );
}

#[test]
fn another_title_or_a_missing_one_is_a_usage_error() {
    assert_eq!(run(&["--variant", "Nope", "perft", "1"]), ExitCode::from(2));
    assert_eq!(run(&["perft", "1", "--variant"]), ExitCode::from(2));
}
