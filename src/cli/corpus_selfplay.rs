//! `zrfc corpus-selfplay`: computer players on corpus games, a few short games each,
//! checking that search and evaluation run on every kind of rules without a panic.

use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use rayon::prelude::*;
use zrf_play::{Contender, MatchOptions};
use zrf_search::Settings;

use super::differential::{sample_games, Candidate};
use super::expectations::{good_or_not, Expectations, Strictness};
use super::FrontEndArgs;
use crate::interp;

#[derive(Args, Debug)]
pub struct CorpusSelfplayArgs {
    /// The corpus folder.
    corpus: PathBuf,
    /// Games to play: one `path #N` key per line, as `zrfc corpus` names them. Default:
    /// every game that lowers.
    #[arg(long, value_name = "FILE")]
    sample: Option<PathBuf>,
    /// Games played per corpus game (sides alternating).
    #[arg(long, value_name = "N", default_value_t = 4)]
    games: usize,
    /// Seconds per move.
    #[arg(long, value_name = "S", default_value_t = 0.05)]
    time: f64,
    /// Games still going after this many turns are cut (and reported as cut).
    #[arg(long, value_name = "N", default_value_t = 100)]
    max_turns: usize,
    /// Games still going after this many seconds are cut too (games whose move lists
    /// are slow to generate).
    #[arg(long, value_name = "S", default_value_t = 20.0)]
    game_seconds: f64,
    /// Expected status per game (`played`); a game that played and no longer does
    /// fails the run.
    #[arg(long, value_name = "FILE")]
    expect: Option<PathBuf>,
    /// Rewrite the `--expect` file with this run's statuses.
    #[arg(long, requires = "expect")]
    bless: bool,
    #[command(flatten)]
    front_end: FrontEndArgs,
}

pub fn run(args: &CorpusSelfplayArgs) -> u8 {
    let candidates = match sample_games(
        &args.corpus,
        args.sample.as_deref(),
        &args.front_end.options(),
    ) {
        Ok(candidates) => candidates,
        Err(code) => return code,
    };
    println!(
        "{} games, {} selfplay games each at {} s a move, cut after {} turns",
        candidates.len(),
        args.games,
        args.time,
        args.max_turns
    );
    let progress = super::progress_bar(candidates.len() as u64);
    let results: Vec<(String, String, String)> = candidates
        .par_iter()
        .map(|candidate| {
            let (status, detail) = play_one(candidate, args);
            progress.inc(1);
            (candidate.key.clone(), status, detail)
        })
        .collect();
    progress.finish_and_clear();
    let mut statuses = BTreeMap::new();
    let mut cut_games = 0;
    for (key, status, detail) in results {
        println!("{status:<10} {key}  {detail}");
        cut_games += detail.matches("cut").count();
        statuses.insert(key, status);
    }
    let played = statuses.values().filter(|s| *s == "played").count();
    println!(
        "{played} of {} games played {} selfplay games each without a panic ({cut_games} of \
         those games cut at {} turns or {} s)",
        statuses.len(),
        args.games,
        args.max_turns,
        args.game_seconds
    );
    match &args.expect {
        Some(path) if args.bless => Expectations::bless(
            path,
            "# zrfc corpus-selfplay expectations: corpus game (path #N) and whether its\n\
             # selfplay games ran without a panic\n",
            statuses.iter().map(|(k, s)| (k.as_str(), s.as_str())),
        ),
        Some(path) => Expectations::check(
            path,
            statuses.iter().map(|(k, s)| (k.as_str(), s.as_str())),
            good_or_not(|status| status == "played"),
            Strictness {
                new_fails: false,
                missing_fails: false,
            },
        ),
        None => u8::from(played < statuses.len()),
    }
}

/// Plays the selfplay games of one corpus game: its status (`played`, `panic`,
/// `interp-error`) and the results.
fn play_one(candidate: &Candidate, args: &CorpusSelfplayArgs) -> (String, String) {
    let Ok(engine) = interp::engine(candidate.game.clone()) else {
        return ("interp-error".to_string(), String::new());
    };
    let blueprint = interp::Blueprint::of(&engine);
    let contender = |label: &str| Contender {
        label: label.to_string(),
        settings: Settings {
            limits: zrf_search::Limits::time(Duration::from_secs_f64(args.time.max(0.001))),
            table_megabytes: 8,
            ..Settings::default()
        },
    };
    let options = MatchOptions {
        games: args.games,
        max_turns: args.max_turns,
        threads: 1,
        seed: 1,
        max_seconds: Some(args.game_seconds),
    };
    let played = panic::catch_unwind(AssertUnwindSafe(|| {
        let make = || blueprint.engine();
        zrf_play::play_match(&make, &[contender("A"), contender("B")], &options, &|_| {})
    }));
    match played {
        Err(_) => ("panic".to_string(), String::new()),
        Ok(games) => {
            let results: Vec<String> = games
                .iter()
                .map(|g| match g.outcome {
                    Some(outcome) => {
                        format!("{} in {}", outcome.describe(&engine.tables), g.turns)
                    }
                    None => format!("cut at {}", g.turns),
                })
                .collect();
            ("played".to_string(), results.join(", "))
        }
    }
}
