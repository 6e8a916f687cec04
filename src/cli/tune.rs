//! `zrfc tune`: learns a game's evaluation from self-play games
//! ([`zrf_search::learn`]). The games' positions are kept as JSON lines, one game a
//! line, so that a run can be resumed, and split between machines (`--shard K/N`
//! plays every Nth game, seeded by its number) and merged (`--from`).

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use clap::Args;
use codespan_reporting::term::termcolor::ColorChoice;
use zrf_search::learn::{self, Record};
use zrf_search::tune::{self, SelfPlay};

use super::play;
use super::FrontEndArgs;

/// Learn a game's evaluation from self-play games (logistic regression of the results
/// on piece values, square tables and royal-piece safety).
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The .zrf file.
    file: PathBuf,
    /// The game or variant (by title); the first game when absent.
    #[arg(long, value_name = "TITLE")]
    variant: Option<String>,
    /// Self-play games to learn from (numbered 1 to N; each seeded by its number).
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// Search nodes a move in the self-play games (the same games on any machine).
    #[arg(long, default_value_t = 2000)]
    nodes: u64,
    /// Plies played at random at the start of each game, so that games differ.
    #[arg(long, default_value_t = 8)]
    random_plies: usize,
    /// Games still going after this many plies count as draws.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
    /// Games played at once (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Passes of the fit over the positions.
    #[arg(long, default_value_t = 300)]
    passes: usize,
    /// How much a position's target is its game's result (from 0 to 1); the rest is
    /// the self-play search's score of it, through the same logistic curve. Searches
    /// say more of a drawn game's positions than its result does.
    #[arg(long, default_value_t = 1.0, value_parser = parse_weight)]
    result_weight: f64,
    /// Play only games K, K+N, K+2N, ... (1 <= K <= N) and write their positions, for a
    /// job split between machines; `--from` then merges the parts.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<(usize, usize)>,
    /// Learn from these positions files (written by earlier runs or shards) instead of
    /// playing games.
    #[arg(long, value_name = "FILE.jsonl", num_args = 1..)]
    from: Vec<PathBuf>,
    /// Where to write: the learned evaluation (`FILE.eval`), or with `--shard` the
    /// positions. Without `--shard`, the games' positions go to `FILE.eval.jsonl`,
    /// and a run that finds it there plays only the games it lacks.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    #[command(flatten)]
    front_end: FrontEndArgs,
}

fn parse_weight(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(weight) if (0.0..=1.0).contains(&weight) => Ok(weight),
        _ => Err(format!("{text:?} is not a number from 0 to 1")),
    }
}

fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let (k, n) = text
        .split_once('/')
        .ok_or_else(|| format!("expected K/N, found {text:?}"))?;
    let (k, n): (usize, usize) = (
        k.parse().map_err(|_| format!("{k:?} is not a number"))?,
        n.parse().map_err(|_| format!("{n:?} is not a number"))?,
    );
    if k == 0 || k > n {
        return Err(format!("{text}: K must be from 1 to N"));
    }
    Ok((k, n))
}

pub fn tune(args: &TuneArgs, color: ColorChoice) -> u8 {
    let engine = match play::load(
        &args.file,
        args.variant.as_deref(),
        &args.front_end.options(),
        color,
    ) {
        Ok(engine) => engine,
        Err(code) => return code,
    };
    if let Err(err) = learn::Features::new(&engine.tables) {
        eprintln!("error: {err}");
        return 1;
    }
    let result = if args.from.is_empty() {
        play_and_learn(args, &engine)
    } else {
        let mut records = Vec::new();
        let read = args
            .from
            .iter()
            .try_for_each(|path| read_records(path, &mut records));
        read.and_then(|()| learn_from(args, &engine, &records, &args.output))
    };
    match result {
        Ok(()) => 0,
        Err(err) => {
            eprintln!("error: {err}");
            1
        }
    }
}

fn play_and_learn(args: &TuneArgs, engine: &crate::interp::Interpreted) -> Result<(), String> {
    let positions_file = match args.shard {
        Some(_) => args.output.clone(),
        None => {
            let mut name = args.output.clone().into_os_string();
            name.push(".jsonl");
            PathBuf::from(name)
        }
    };
    let mut records = Vec::new();
    if positions_file.exists() {
        read_records(&positions_file, &mut records)?;
    }
    let done: Vec<usize> = records.iter().map(|(n, _)| *n).collect();
    let numbers: Vec<usize> = (1..=args.games)
        .filter(|n| {
            args.shard
                .is_none_or(|(k, shards)| (n - 1) % shards == k - 1)
        })
        .filter(|n| !done.contains(n))
        .collect();
    if !done.is_empty() {
        eprintln!(
            "{}: {} games already played, {} to play",
            positions_file.display(),
            done.len(),
            numbers.len()
        );
    }
    let out = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&positions_file)
        .map_err(|e| format!("{}: {e}", positions_file.display()))?;
    let out = Mutex::new(out);
    let bar = super::progress_bar(numbers.len() as u64);
    bar.set_message("self-play games");
    let blueprint = crate::interp::Blueprint::of(engine);
    let make_engine = || blueprint.engine();
    let written = Mutex::new(Ok(()));
    let on_game = |number: usize, record: &Record| {
        let line = record_line(number, record);
        if let Ok(mut out) = out.lock() {
            if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
                if let Ok(mut written) = written.lock() {
                    *written = Err(format!("{}: {e}", positions_file.display()));
                }
            }
        }
        bar.inc(1);
    };
    let options = SelfPlay {
        nodes: args.nodes,
        random_plies: args.random_plies,
        max_plies: args.max_plies,
        threads: args
            .threads
            .unwrap_or_else(zrf_play::args::available_threads),
    };
    let played = tune::play_games(&make_engine, &numbers, &options, &on_game);
    bar.finish_and_clear();
    written.into_inner().unwrap_or_else(|e| e.into_inner())?;
    records.extend(played);
    eprintln!(
        "{}: positions of {} games",
        positions_file.display(),
        records.len()
    );
    if args.shard.is_some() {
        return Ok(());
    }
    learn_from(args, engine, &records, &args.output)
}

fn learn_from(
    args: &TuneArgs,
    engine: &crate::interp::Interpreted,
    records: &[(usize, Record)],
    output: &Path,
) -> Result<(), String> {
    // In game order, so that the same games give the same fit however they were split.
    let mut records: Vec<&(usize, Record)> = records.iter().collect();
    records.sort_by_key(|(number, _)| *number);
    let records: Vec<Record> = records.into_iter().map(|(_, r)| r.clone()).collect();
    let bar = super::progress_bar(tune::passes_in_all(args.passes) as u64);
    bar.set_message("fitting");
    let fit = tune::fit(engine, &records, args.passes, args.result_weight, &|_| {
        bar.inc(1)
    })?;
    bar.finish_and_clear();
    std::fs::write(output, fit.learned.to_text())
        .map_err(|e| format!("{}: {e}", output.display()))?;
    println!(
        "{}: learned from {} games, {} positions; mean squared error {:.4} (rules-derived evaluation {:.4})",
        output.display(),
        fit.learned.games,
        fit.learned.positions,
        fit.error_after,
        fit.error_before
    );
    if fit.held_out_after.is_nan() {
        println!(
            "too few games to hold any out (one in {}): the fit could not be checked",
            tune::HELD_OUT
        );
    } else {
        println!(
            "on the games held out (one in {}), fitted without them: {:.4} (rules-derived {:.4}); pull toward the rules {:e}",
            tune::HELD_OUT,
            fit.held_out_after,
            fit.held_out_before,
            fit.pull
        );
    }
    Ok(())
}

/// One game as a JSON line: its number, result for the first side, positions as
/// [square, owner, type] triples, and the search's score of each for the first side
/// (null where none).
fn record_line(number: usize, record: &Record) -> String {
    let positions: Vec<serde_json::Value> = record
        .positions
        .iter()
        .map(|pieces| {
            serde_json::json!(pieces
                .iter()
                .map(|&(p, o, k)| [p, u32::from(o), u32::from(k)])
                .collect::<Vec<_>>())
        })
        .collect();
    serde_json::json!({
        "game": number,
        "result": record.result,
        "positions": positions,
        "scores": record.scores,
    })
    .to_string()
}

fn read_records(path: &Path, records: &mut Vec<(usize, Record)>) -> Result<(), String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    for (n, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        let bad = |why: &str| format!("{}:{}: {why}", path.display(), n + 1);
        let value: serde_json::Value =
            serde_json::from_str(&line).map_err(|e| bad(&e.to_string()))?;
        let number = value["game"]
            .as_u64()
            .ok_or_else(|| bad("no game number"))? as usize;
        let result = value["result"]
            .as_f64()
            .filter(|r| (0.0..=1.0).contains(r))
            .ok_or_else(|| bad("no result from 0 to 1"))?;
        let positions = value["positions"]
            .as_array()
            .ok_or_else(|| bad("no positions"))?
            .iter()
            .map(|pieces| {
                pieces
                    .as_array()
                    .ok_or_else(|| bad("a position is not a list"))?
                    .iter()
                    .map(|triple| {
                        let part = |i: usize| triple.get(i).and_then(serde_json::Value::as_u64);
                        match (part(0), part(1), part(2)) {
                            (Some(p), Some(o), Some(k)) if o < 256 && k < 65536 => {
                                Ok((p as u32, o as u8, k as u16))
                            }
                            _ => Err(bad("a piece is not [square, owner, type]")),
                        }
                    })
                    .collect::<Result<learn::Pieces, String>>()
            })
            .collect::<Result<Vec<_>, String>>()?;
        // Files written before scores were kept have none.
        let scores = match value.get("scores") {
            None => vec![None; positions.len()],
            Some(scores) => scores
                .as_array()
                .filter(|scores| scores.len() == positions.len())
                .ok_or_else(|| bad("scores are not one a position"))?
                .iter()
                .map(|score| match score {
                    serde_json::Value::Null => Ok(None),
                    score => (score.as_i64())
                        .and_then(|s| i32::try_from(s).ok())
                        .map(Some)
                        .ok_or_else(|| bad("a score is not a whole number")),
                })
                .collect::<Result<Vec<_>, String>>()?,
        };
        if !records.iter().any(|(seen, _)| *seen == number) {
            records.push((
                number,
                Record {
                    result,
                    positions,
                    scores,
                },
            ));
        }
    }
    Ok(())
}
