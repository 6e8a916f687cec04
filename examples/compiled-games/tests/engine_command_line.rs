//! The command line every compiled package's `main` hands to `zrf_play::driver`, on a
//! compiled sample: what `--variant` does in a package of one game, and what its
//! commands print (run as the package's program).

use std::process::ExitCode;

use zrf_example_games::tictactoe;
use zrf_play::driver::run_engine;

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

/// The program's output for `args`, and its exit code.
fn program(args: &[&str]) -> (String, Option<i32>) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("the tic-tac-toe program runs: {e}"));
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code(),
    )
}

#[test]
fn perft_prints_the_known_counts() {
    let (out, code) = program(&["perft", "3"]);
    assert_eq!(code, Some(0), "{out}");
    let counts: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("depth "))
        .map(|l| l.split(" (").next().unwrap_or(l))
        .collect();
    assert_eq!(counts, ["1: 9", "2: 72", "3: 504"], "{out}");
}

#[test]
fn play_prints_the_title_and_the_game() {
    let (out, code) = program(&["play", "--engine", "random", "--seed", "3"]);
    assert_eq!(code, Some(0), "{out}");
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some(tictactoe::TITLE));
    assert_eq!(
        lines.next().map(|l| l.starts_with("1. ")),
        Some(true),
        "{out}"
    );
    assert!(out.contains("\ngame over: "), "{out}");
}

#[test]
fn moves_and_show_take_the_moves_to_play_first() {
    let (out, code) = program(&["moves", "--after", "b2"]);
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(out.lines().count(), 8, "{out}");
    assert!(!out.contains("Mark b2"), "{out}");
    let (out, code) = program(&["show", "--after", "b2", "a1"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.starts_with("3 . . .\n2 . M .\n1 m . .\n"), "{out}");
    let (out, code) = program(&["moves", "--after", "z9"]);
    assert_eq!((out.as_str(), code), ("", Some(1)));
}

#[test]
fn perft_compares_with_expected_counts_as_zrfc_does() {
    let (out, code) = program(&["perft", "2", "--expect", "1:9,2:72"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("depth 2: 72 (") && out.contains(") ok\n"),
        "{out}"
    );
    let (out, code) = program(&["perft", "--depth", "2", "--expect", "2:71"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("MISMATCH: expected 71"), "{out}");
}

#[test]
fn bad_options_are_usage_errors_and_help_is_not() {
    assert_eq!(program(&["play", "--ai", "9"]).1, Some(2));
    assert_eq!(program(&["perft", "--frobnicate"]).1, Some(2));
    assert_eq!(program(&[]).1, Some(2));
    let (out, code) = program(&["help", "play"]);
    assert_eq!(code, Some(0));
    assert!(
        out.contains("--human <PLAYER>") && out.contains("--ai <LEVEL>"),
        "{out}"
    );
}
