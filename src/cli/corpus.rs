//! `zrfc corpus`: the pipeline over a folder of rules files, in parallel, compared with
//! committed expectations (relative path and status only, never file contents).

use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use clap::Args;
use rayon::prelude::*;

use super::expectations::{Expectations, Judgement, Strictness};
use super::FrontEndArgs;
use crate::expand::GameKind;
use crate::frontend;
use crate::source::SourceMap;

#[derive(Args, Debug)]
pub struct CorpusArgs {
    /// Folder searched recursively for .zrf files.
    dir: PathBuf,
    /// Expectations file (`path<TAB>status` lines) to compare against.
    #[arg(long, value_name = "FILE")]
    expect: Option<PathBuf>,
    /// Write the statuses of this run to the expectations file instead of comparing.
    #[arg(long, requires = "expect")]
    bless: bool,
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    #[command(flatten)]
    front_end: FrontEndArgs,
}

/// One line of the expectations: a file (`ok`, `error:<first error code>`, `io-error`,
/// `panic`) or one of its games and variants, keyed `path #N` in file order (`lowered`,
/// `axiom` when the moves come from an Axiom engine, or `rejected:<first error code>`).
struct Row {
    key: String,
    status: String,
    detail: String,
    /// For game rows: game or variant.
    kind: Option<GameKind>,
}

fn is_good(status: &str) -> bool {
    matches!(status, "ok" | "lowered" | "axiom")
}

pub fn run(args: &CorpusArgs) -> u8 {
    let files = match find_zrf_files(&args.dir) {
        Ok(files) if files.is_empty() => {
            eprintln!("error: no .zrf files under {}", args.dir.display());
            return 2;
        }
        Ok(files) => files,
        Err(err) => {
            eprintln!("error: cannot read {}: {err}", args.dir.display());
            return 2;
        }
    };
    if let Some(jobs) = args.jobs {
        // Fails only if a pool already exists, which keeps its own size: harmless.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build_global();
    }
    let progress = super::progress_bar(files.len() as u64);
    let options = args.front_end.options();
    let mut per_file: Vec<Vec<Row>> = files
        .par_iter()
        .map(|path| {
            let relative = relative_name(&args.dir, path);
            progress.set_message(relative.clone());
            let rows = check_one(path, &options, relative);
            progress.inc(1);
            rows
        })
        .collect();
    progress.finish_and_clear();
    per_file.sort_by(|a, b| a[0].key.cmp(&b[0].key));

    for rows in &per_file {
        let file = &rows[0];
        println!("{:<16} {}{}", file.status, file.key, file.detail);
        for game in rows[1..].iter().filter(|g| !is_good(&g.status)) {
            println!("  {:<14} {}{}", game.status, game.key, game.detail);
        }
    }
    let results: Vec<Row> = per_file.into_iter().flatten().collect();
    summarise(&results);

    let Some(expect_path) = &args.expect else {
        let good = results.iter().filter(|r| is_good(&r.status)).count();
        println!("{} passed, {} failed", good, results.len() - good);
        return u8::from(good != results.len());
    };
    if args.bless {
        return bless(expect_path, &results);
    }
    // Any change of status but to a good one is a regression.
    Expectations::check(
        expect_path,
        results.iter().map(|r| (r.key.as_str(), r.status.as_str())),
        |want, now| match is_good(now) && !is_good(want) {
            true => Judgement::Improved,
            false => Judgement::Regressed,
        },
        Strictness {
            new_fails: true,
            missing_fails: true,
        },
    )
}

fn check_one(path: &Path, options: &frontend::FrontEndOptions, relative: String) -> Vec<Row> {
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        let mut sources = SourceMap::new();
        frontend::run(path, &crate::syntax::FsLoader, options, &mut sources)
    }));
    let row = |key: String, status: String, detail: String, kind| Row {
        key,
        status,
        detail,
        kind,
    };
    let front_end = match outcome {
        Err(_) => return vec![row(relative, "panic".into(), String::new(), None)],
        Ok(Err(err)) => return vec![row(relative, "io-error".into(), format!("  {err}"), None)],
        Ok(Ok(front_end)) => front_end,
    };
    let (status, detail) = match front_end.diagnostics.iter().find(|d| d.is_error()) {
        None => ("ok".to_string(), String::new()),
        Some(first) => (
            format!("error:{}", first.code),
            format!("  {}", first.message),
        ),
    };
    let mut rows = vec![row(relative.clone(), status, detail, None)];
    for (index, game) in front_end.games.iter().enumerate() {
        // Keyed by position, not title: expectations hold no text of the corpus.
        let key = format!("{relative} #{}", index + 1);
        let (status, detail) = match (&game.game, game.first_error) {
            (Some(ir), _) => {
                let lowered = if ir.engine.is_some() {
                    "axiom"
                } else {
                    "lowered"
                };
                match playout(ir.clone()) {
                    Ok(report) => (lowered.to_string(), format!("  {}  ({report})", game.title)),
                    Err(status) => (status, format!("  {}", game.title)),
                }
            }
            (None, code) => (
                format!("rejected:{}", code.unwrap_or("?")),
                format!("  {}", game.title),
            ),
        };
        rows.push(row(key, status, detail, Some(game.kind)));
    }
    rows
}

/// Turns of the random playout run on every lowered game, and the time it may take.
const PLAYOUT_PLIES: usize = 1000;
const PLAYOUT_SECONDS: f64 = 2.0;
/// The first turns of the playout, where every legal move is replayed from its record,
/// and the time those checks may take (each replays against the whole move list, so a
/// game with hundreds of drops would spend its playout on them).
const ROUND_TRIP_TURNS: u32 = 8;
const ROUND_TRIP_SECONDS: f64 = 0.25;

/// A seeded random playout with the interpreter: a report, or the failing status
/// (`interp-error` when the game cannot be interpreted, `playout-panic`, `reach-error`
/// when a piece's move takes effect outside the reach its attack test assumes,
/// `royal-guard-error` when the legal-move filter for `checkmated` and a fresh attack
/// test disagree, `random-move-error` when a random move drawn the way random playouts
/// draw them is not legal or none is drawn among legal ones, `count-error` when the
/// legal moves counted the way perft's last ply counts them are not as many as those
/// listed, `notation-error` when a move's records do not replay to it).
fn playout(game: crate::ir::Game) -> Result<String, String> {
    let engine = crate::interp::engine(game).map_err(|_| "interp-error".to_string())?;
    let clock = std::time::Instant::now();
    let mut error = None;
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        zrf_search::playout(&engine, 1, PLAYOUT_PLIES, |state| {
            // The attack test trusts the reach table, and the legal-move filter trusts
            // its shortcuts; every position played checks both.
            error = engine
                .reach_violation(state)
                .map(|v| format!("reach-error ({v})"))
                .or_else(|| {
                    let violation = engine.royal_guard_violation(state)?;
                    Some(format!("royal-guard-error ({violation})"))
                })
                .or_else(|| {
                    // Random playouts draw their moves without listing them all (by
                    // piece within the step bounds), trying candidates on the position
                    // itself: each must be legal, one drawn exactly when there is one,
                    // and the position left the one the move leads to (or untouched).
                    let legal = engine.legal_moves(state);
                    let mut rng = zrf_runtime::SplitMix64::new(u64::from(state.turn));
                    let (mut buffer, mut after) = (Vec::new(), state.clone());
                    let drawn = engine.make_random_move(&mut after, &mut rng, &mut buffer);
                    let expected = (drawn.as_ref())
                        .map_or_else(|| state.snapshot(), |m| engine.play(state, m).snapshot());
                    match drawn {
                        Some(m) if !legal.contains(&m) => {
                            Some(format!("random-move-error ({m:?} is not legal)"))
                        }
                        None if !legal.is_empty() => {
                            Some("random-move-error (none drawn among legal moves)".into())
                        }
                        _ if after.snapshot() != expected => {
                            Some("random-move-error (the position left is not the move's)".into())
                        }
                        _ => {
                            // Perft's last ply counts the moves without making most.
                            let counted = engine.legal_move_count(state, &mut buffer);
                            (counted != legal.len()).then(|| {
                                format!("count-error ({counted} counted, {} listed)", legal.len())
                            })
                        }
                    }
                })
                .or_else(|| {
                    // Early positions: every move must replay from its own notation.
                    if state.turn >= ROUND_TRIP_TURNS {
                        return None;
                    }
                    let moves = engine.legal_moves(state);
                    let mut failures = moves
                        .iter()
                        .take_while(|_| clock.elapsed().as_secs_f64() < ROUND_TRIP_SECONDS)
                        .filter_map(|m| crate::zsg::turn_round_trips(&engine, state, m).err());
                    failures.next().map(|why| format!("notation-error ({why})"))
                });
            error.is_none() && clock.elapsed().as_secs_f64() < PLAYOUT_SECONDS
        })
    }));
    let played = outcome.map_err(|_| "playout-panic".to_string())?;
    if let Some(error) = error {
        return Err(error);
    }
    Ok(match played.outcome {
        Some(result) => format!("{} plies, {result:?}", played.plies),
        None if played.plies == PLAYOUT_PLIES => format!("{} plies", played.plies),
        None => format!("{} plies in {PLAYOUT_SECONDS} s", played.plies),
    })
}

fn summarise(results: &[Row]) {
    let files: Vec<&Row> = results.iter().filter(|r| r.kind.is_none()).collect();
    let ok = files.iter().filter(|r| r.status == "ok").count();
    println!(
        "{} files: {} ok, {} with errors",
        files.len(),
        ok,
        files.len() - ok
    );
    for (kind, noun) in [(GameKind::Game, "games"), (GameKind::Variant, "variants")] {
        let rows: Vec<&Row> = results.iter().filter(|r| r.kind == Some(kind)).collect();
        let count = |status: &str| rows.iter().filter(|r| r.status == status).count();
        let (lowered, axiom) = (count("lowered"), count("axiom"));
        println!(
            "{} {noun}: {lowered} lowered, {axiom} with an Axiom engine, {} rejected",
            rows.len(),
            rows.len() - lowered - axiom
        );
    }
    let reports: Vec<&str> = results
        .iter()
        .filter(|r| r.kind.is_some() && r.detail.ends_with(')'))
        .map(|r| r.detail.as_str())
        .collect();
    let timed_out = reports.iter().filter(|d| d.contains(" s)")).count();
    let ended = reports
        .iter()
        .filter(|d| d.contains("Win") || d.contains("Loss") || d.contains("Draw"))
        .count();
    println!(
        "{} random playouts without a panic: {ended} games ended, {} reached {PLAYOUT_PLIES} plies, \
         {timed_out} stopped after {PLAYOUT_SECONDS} s",
        reports.len(),
        reports.len() - ended - timed_out
    );
}

fn bless(path: &Path, results: &[Row]) -> u8 {
    Expectations::bless(
        path,
        "# zrfc corpus expectations: a file (path relative to the corpus folder) or its Nth\n\
         # game or variant in file order (path #N), then its status\n",
        results.iter().map(|r| (r.key.as_str(), r.status.as_str())),
    )
}

pub(super) fn find_zrf_files(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            if path.is_dir() {
                pending.push(path);
            } else if path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("zrf"))
            {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

pub(super) fn relative_name(root: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(root).unwrap_or(path);
    relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}
