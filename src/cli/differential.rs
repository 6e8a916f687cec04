//! `zrfc differential`: corpus games compiled to Rust and compared with the interpreter.
//!
//! The chosen games are generated into Cargo packages of up to `--batch` games each
//! (`#![deny(warnings)]`, so generated code must compile without warnings), built in
//! release, and run; each prints [`zrf_search::fingerprint`] of its game (perft counts up
//! to a node budget and seeded random playouts). The interpreter computes the same
//! fingerprints in-process; any difference fails the game.

use std::collections::{BTreeMap, BTreeSet};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::Command;

use clap::Args;
use rayon::prelude::*;

use super::corpus::{find_zrf_files, relative_name};
use super::expectations::{good_or_not, Expectations, Strictness};
use super::FrontEndArgs;
use crate::build::{manifest, write_if_changed, PackageOptions, RuntimeDependency};
use crate::codegen::{self, CodegenOptions};
use crate::frontend::{self, FrontEndOptions};
use crate::ir::visit::Node;
use crate::ir::{self, Stmt};
use crate::source::SourceMap;
use crate::syntax::FsLoader;

#[derive(Args, Debug)]
pub struct DifferentialArgs {
    /// The corpus folder.
    corpus: PathBuf,
    /// Games to compare: one `path #N` key per line (the Nth game or variant of a file,
    /// path relative to the corpus, as `zrfc corpus` names them). Default: every game
    /// that lowers.
    #[arg(long, value_name = "FILE")]
    sample: Option<PathBuf>,
    /// Instead of comparing, choose N games that together use every construct the
    /// lowering games use, and write them to the `--sample` file.
    #[arg(long, value_name = "N", requires = "sample")]
    choose: Option<usize>,
    /// Where the generated packages and their build go.
    #[arg(long, value_name = "DIR", default_value = "target/zrf-differential")]
    work_dir: PathBuf,
    /// Games per generated package.
    #[arg(long, value_name = "N", default_value_t = 50)]
    batch: usize,
    /// Perft stops after the first depth with more leaves than this.
    #[arg(long, value_name = "N", default_value_t = 3000)]
    node_budget: u64,
    /// Expected status per game; a game that agreed and no longer does fails the run.
    #[arg(long, value_name = "FILE")]
    expect: Option<PathBuf>,
    /// Rewrite the `--expect` file with this run's statuses.
    #[arg(long, requires = "expect")]
    bless: bool,
    /// Only check that the generated code compiles without warnings (`cargo check`, much
    /// quicker than building): statuses `compiles` or `compile-error`.
    #[arg(long, conflicts_with_all = ["build_times", "choose"])]
    check_only: bool,
    /// Instead of comparing, build each game as a package of its own (`cargo build
    /// --release`, the runtime already built) and report the build times: per game, the
    /// median and the slowest.
    #[arg(long, conflicts_with = "choose")]
    build_times: bool,
    #[command(flatten)]
    front_end: FrontEndArgs,
}

const SEEDS: [u64; 3] = [1, 2, 3];
const PLIES: usize = 60;

/// One corpus game to compare.
pub(super) struct Candidate {
    /// `path #N`, as `zrfc corpus` names it.
    pub(super) key: String,
    sources: std::sync::Arc<SourceMap>,
    pub(super) game: ir::Game,
}

pub fn differential(args: &DifferentialArgs) -> u8 {
    // With `--choose`, the sample file is written, not read.
    let sample = args.sample.as_deref().filter(|_| args.choose.is_none());
    let candidates = match sample_games(&args.corpus, sample, &args.front_end.options()) {
        Ok(candidates) => candidates,
        Err(code) => return code,
    };
    if let (Some(count), Some(sample)) = (args.choose, &args.sample) {
        return choose(&candidates, count, sample);
    }
    if args.build_times {
        return build_times(&candidates, &args.work_dir, args.node_budget);
    }
    let verb = if args.check_only { "check" } else { "compare" };
    println!("{} games to {verb}", candidates.len());
    let mut statuses: BTreeMap<String, String> = BTreeMap::new();
    let target_dir = args.work_dir.join("target");
    let progress = super::progress_bar(candidates.len() as u64);
    for (index, batch) in candidates.chunks(args.batch.max(1)).enumerate() {
        let dir = args.work_dir.join(format!("batch-{index}"));
        progress.inc(batch.len() as u64);
        if args.check_only {
            for (key, status) in check_batch(&dir, &target_dir, batch, args.node_budget) {
                if status != "compiles" {
                    // `println` on a hidden bar (output not a terminal) prints nothing.
                    progress.suspend(|| println!("{key}: {status}"));
                }
                statuses.insert(key, status);
            }
            continue;
        }
        let compiled = match run_batch(&dir, &target_dir, batch, args.node_budget) {
            Ok(lines) => lines,
            Err(err) => {
                eprintln!("error: batch {index}: {err}");
                for candidate in batch {
                    statuses.insert(candidate.key.clone(), "compile-error".to_string());
                }
                continue;
            }
        };
        let interpreted: Vec<String> = batch
            .par_iter()
            .map(|c| interpreter_fingerprint(&c.game, args.node_budget))
            .collect();
        for ((candidate, ours), theirs) in batch.iter().zip(&compiled).zip(&interpreted) {
            let status = if ours == theirs { "agree" } else { "differ" };
            if ours != theirs {
                println!(
                    "{}: {status}\n  compiled:    {ours}\n  interpreted: {theirs}",
                    candidate.key
                );
            }
            statuses.insert(candidate.key.clone(), status.to_string());
        }
        let agreed = batch.iter().filter(|c| statuses[&c.key] == "agree").count();
        println!("batch {index}: {agreed}/{} agree", batch.len());
    }
    progress.finish_and_clear();
    let good = if args.check_only { "compiles" } else { "agree" };
    let agreed = statuses.values().filter(|s| *s == good).count();
    let verb = if args.check_only {
        "compile without warnings"
    } else {
        "agree"
    };
    println!("{agreed} of {} games {verb}", statuses.len());
    match &args.expect {
        Some(path) if args.bless => Expectations::bless(
            path,
            "# zrfc differential expectations: corpus game (path #N) and whether the compiled\n\
             # engine agreed with the interpreter (or, with --check-only, compiled)\n",
            statuses.iter().map(|(k, s)| (k.as_str(), s.as_str())),
        ),
        Some(path) => Expectations::check(
            path,
            statuses.iter().map(|(k, s)| (k.as_str(), s.as_str())),
            good_or_not(|status| status == "agree"),
            Strictness {
                new_fails: false,
                missing_fails: false,
            },
        ),
        None => u8::from(agreed < statuses.len()),
    }
}

/// The lowering games of the corpus named in the `sample` file of `path #N` keys, or
/// all of them; `Err` is the exit code after saying what failed.
pub(super) fn sample_games(
    corpus: &Path,
    sample: Option<&Path>,
    options: &FrontEndOptions,
) -> Result<Vec<Candidate>, u8> {
    let keys = match sample {
        Some(path) => Some(read_keys(path).map_err(|err| {
            eprintln!("error: cannot read {}: {err}", path.display());
            2u8
        })?),
        None => None,
    };
    collect(corpus, keys.as_ref(), options).map_err(|err| {
        eprintln!("error: {err}");
        2
    })
}

fn read_keys(path: &Path) -> std::io::Result<BTreeSet<String>> {
    Ok(std::fs::read_to_string(path)?
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect())
}

/// The lowering games of the corpus (those named in `keys`, when given), in key order.
fn collect(
    corpus: &Path,
    keys: Option<&BTreeSet<String>>,
    options: &FrontEndOptions,
) -> Result<Vec<Candidate>, String> {
    let files = find_zrf_files(corpus).map_err(|e| format!("{}: {e}", corpus.display()))?;
    let mut candidates = Vec::new();
    for path in files {
        let relative = relative_name(corpus, &path);
        if keys.is_some_and(|keys| !keys.iter().any(|k| k.starts_with(&format!("{relative} #")))) {
            continue;
        }
        let mut sources = SourceMap::new();
        let loaded = panic::catch_unwind(AssertUnwindSafe(|| {
            frontend::run(&path, &FsLoader, options, &mut sources)
        }));
        let Ok(Ok(front_end)) = loaded else { continue };
        let sources = std::sync::Arc::new(sources);
        for (index, result) in front_end.games.into_iter().enumerate() {
            let key = format!("{relative} #{}", index + 1);
            if keys.is_some_and(|keys| !keys.contains(&key)) {
                continue;
            }
            if let Some(game) = result.game {
                if crate::lower::runtime_tables(&game).is_ok() {
                    candidates.push(Candidate {
                        key,
                        sources: sources.clone(),
                        game,
                    });
                }
            }
        }
    }
    if let Some(keys) = keys {
        let found: BTreeSet<&str> = candidates.iter().map(|c| c.key.as_str()).collect();
        let missing: Vec<&String> = keys
            .iter()
            .filter(|k| !found.contains(k.as_str()))
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "sample games not found or not lowering: {missing:?}"
            ));
        }
    }
    Ok(candidates)
}

fn interpreter_fingerprint(game: &ir::Game, node_budget: u64) -> String {
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        crate::interp::engine(game.clone())
            .map(|engine| zrf_search::fingerprint(&engine, node_budget, &SEEDS, PLIES))
    }));
    match result {
        Ok(Ok(line)) => line,
        Ok(Err(err)) => format!("error: {err}"),
        Err(_) => "panic".to_string(),
    }
}

/// Generates, builds and runs one package; the fingerprint line of each game.
fn run_batch(
    dir: &Path,
    target_dir: &Path,
    batch: &[Candidate],
    node_budget: u64,
) -> Result<Vec<String>, String> {
    write_batch(dir, batch, node_budget)?;
    cargo(dir, target_dir, "build")?;
    let run = Command::new(target_dir.join("release/zrf-differential"))
        .output()
        .map_err(|e| format!("cannot run the batch: {e}"))?;
    let stdout = String::from_utf8_lossy(&run.stdout);
    let mut lines = vec!["missing".to_string(); batch.len()];
    for line in stdout.lines() {
        if let Some((index, text)) = line.split_once('\t') {
            if let Some(slot) = index.parse::<usize>().ok().and_then(|i| lines.get_mut(i)) {
                *slot = text.to_string();
            }
        }
    }
    Ok(lines)
}

/// `cargo check` of one package; when it fails, game by game, to name the culprits.
fn check_batch(
    dir: &Path,
    target_dir: &Path,
    batch: &[Candidate],
    node_budget: u64,
) -> Vec<(String, String)> {
    let checked =
        write_batch(dir, batch, node_budget).and_then(|()| cargo(dir, target_dir, "check"));
    match checked {
        Ok(()) => batch
            .iter()
            .map(|c| (c.key.clone(), "compiles".to_string()))
            .collect(),
        Err(_) if batch.len() > 1 => batch
            .iter()
            .flat_map(|c| check_batch(dir, target_dir, std::slice::from_ref(c), node_budget))
            .collect(),
        Err(err) => {
            let first = err.lines().find(|l| l.contains("error")).unwrap_or("");
            vec![(batch[0].key.clone(), format!("compile-error  {first}"))]
        }
    }
}

/// Each game built alone in release, timed: the cost a user pays per game.
fn build_times(candidates: &[Candidate], work_dir: &Path, node_budget: u64) -> u8 {
    let dir = work_dir.join("single");
    let target_dir = work_dir.join("target");
    // The runtime and search crates are built once, before timing.
    if let Some(first) = candidates.first() {
        if let Err(err) = write_batch(&dir, std::slice::from_ref(first), node_budget)
            .and_then(|()| cargo(&dir, &target_dir, "build"))
        {
            eprintln!("error: {}: {err}", first.key);
            return 1;
        }
    }
    let mut times: Vec<(f64, &str)> = Vec::new();
    let mut failed = 0;
    // The first game is timed last: right after the warm-up build it would rebuild
    // nothing.
    for candidate in candidates.iter().skip(1).chain(candidates.first()) {
        let clock = std::time::Instant::now();
        let built = write_batch(&dir, std::slice::from_ref(candidate), node_budget)
            .and_then(|()| cargo(&dir, &target_dir, "build"));
        let seconds = clock.elapsed().as_secs_f64();
        match built {
            Ok(()) => {
                println!("{seconds:7.2} s  {}", candidate.key);
                times.push((seconds, &candidate.key));
            }
            Err(err) => {
                println!(
                    "  error  {}: {}",
                    candidate.key,
                    err.lines().next().unwrap_or("")
                );
                failed += 1;
            }
        }
    }
    times.sort_by(|a, b| a.0.total_cmp(&b.0));
    if let (Some(median), Some(slowest)) = (times.get(times.len() / 2), times.last()) {
        println!(
            "{} games built: median {:.2} s, slowest {:.2} s ({}); {failed} failed",
            times.len(),
            median.0,
            slowest.0,
            slowest.1
        );
    }
    u8::from(failed > 0)
}

/// Runs `cargo SUBCOMMAND --release` on the package in `dir`.
fn cargo(dir: &Path, target_dir: &Path, subcommand: &str) -> Result<(), String> {
    let build = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args([subcommand, "--release", "--quiet", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target_dir)
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !build.status.success() {
        let stderr = String::from_utf8_lossy(&build.stderr);
        let tail: Vec<&str> = stderr.lines().take(40).collect();
        return Err(format!("cargo {subcommand} failed:\n{}", tail.join("\n")));
    }
    Ok(())
}

/// Writes the package of a batch: a module per game and a `main` printing fingerprints.
fn write_batch(dir: &Path, batch: &[Candidate], node_budget: u64) -> Result<(), String> {
    let runtime = RuntimeDependency::detect();
    if let RuntimeDependency::Version(_) = runtime {
        return Err("the runtime crates of this workspace are not where zrfc was built".into());
    }
    let write =
        |path: PathBuf, text: &str| write_if_changed(&path, text).map_err(|e| e.to_string());
    let package = PackageOptions {
        name: "zrf-differential".to_string(),
        runtime,
        force: true,
    };
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    write(
        dir.join("Cargo.toml"),
        &manifest(
            &package,
            "Corpus games compiled by zrfc, for zrfc differential",
            dir,
        ),
    )?;
    let mut lib = String::from(
        "//! Corpus games compiled by zrfc, for `zrfc differential`.\n#![deny(warnings)]\n\n",
    );
    let mut main = format!(
        "//! Prints the fingerprint of every game of the batch.\n\nfn main() {{\n    let games: [fn() -> String; {}] = [\n",
        batch.len()
    );
    for (index, candidate) in batch.iter().enumerate() {
        let code = codegen::generate(
            std::slice::from_ref(&candidate.game),
            &candidate.sources,
            &CodegenOptions::default(),
        )
        .map_err(|e| format!("{}: {e}", candidate.key))?;
        write(dir.join(format!("src/g{index}.rs")), &code)?;
        lib.push_str(&format!(
            "/// {}\npub mod g{index};\n",
            candidate.key.replace('\n', " ")
        ));
        main.push_str(&format!(
            "        || zrf_search::fingerprint(&zrf_differential::g{index}::engine(), {node_budget}, &{SEEDS:?}, {PLIES}),\n"
        ));
    }
    main.push_str(
        "    ];\n    for (index, game) in games.iter().enumerate() {\n        \
         let line = std::panic::catch_unwind(game).unwrap_or_else(|_| \"panic\".to_string());\n        \
         println!(\"{index}\\t{line}\");\n    }\n}\n",
    );
    write(dir.join("src/lib.rs"), &lib)?;
    write(dir.join("src/main.rs"), &main)?;
    Ok(())
}

/// Greedy cover: games adding the most constructs not yet covered, then the smallest game
/// of each file not yet sampled, up to `count`; written to `sample` as keys.
fn choose(candidates: &[Candidate], count: usize, sample: &Path) -> u8 {
    // Games whose moves come from an Axiom engine have placeholder templates: weak
    // evidence, left out.
    let candidates: Vec<&Candidate> = candidates
        .iter()
        .filter(|c| c.game.engine.is_none())
        .collect();
    let features: Vec<BTreeSet<String>> = candidates.iter().map(|c| constructs(&c.game)).collect();
    let all: BTreeSet<&String> = features.iter().flatten().collect();
    let mut covered: BTreeSet<&String> = BTreeSet::new();
    let mut chosen: Vec<usize> = Vec::new();
    while covered.len() < all.len() && chosen.len() < count {
        let best = (0..candidates.len())
            .filter(|i| !chosen.contains(i))
            .max_by_key(|&i| {
                let new = features[i].iter().filter(|f| !covered.contains(f)).count();
                // Ties go to the smaller game: quicker to build and to compare.
                (new, std::cmp::Reverse(candidates[i].game.templates.len()))
            });
        let Some(best) = best else { break };
        if features[best].iter().all(|f| covered.contains(f)) {
            break;
        }
        covered.extend(features[best].iter());
        chosen.push(best);
    }
    let uncovered = all.len() - covered.len();
    // The rest: one small game per file not yet sampled, for variety.
    let file = |i: usize| candidates[i].key.rsplit_once(" #").map_or("", |(f, _)| f);
    let mut files: BTreeSet<&str> = chosen.iter().map(|&i| file(i)).collect();
    let mut rest: Vec<usize> = (0..candidates.len())
        .filter(|i| !chosen.contains(i))
        .collect();
    rest.sort_by_key(|&i| {
        (
            candidates[i].game.templates.len(),
            candidates[i].key.clone(),
        )
    });
    for i in rest {
        if chosen.len() >= count {
            break;
        }
        if files.insert(file(i)) {
            chosen.push(i);
        }
    }
    let mut keys: Vec<&str> = chosen.iter().map(|&i| candidates[i].key.as_str()).collect();
    keys.sort();
    let mut text = format!(
        "# zrfc differential sample: {} corpus games covering {} constructs ({} not covered)\n",
        keys.len(),
        covered.len(),
        uncovered
    );
    for key in keys {
        text.push_str(key);
        text.push('\n');
    }
    match std::fs::write(sample, text) {
        Ok(()) => {
            println!("wrote {} games to {}", chosen.len(), sample.display());
            0
        }
        Err(err) => {
            eprintln!("error: cannot write {}: {err}", sample.display());
            2
        }
    }
}

/// The constructs a game uses: statement and condition kinds, options, turn features.
fn constructs(game: &ir::Game) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for block in &game.templates {
        block_constructs(block, &mut found);
    }
    let options = &game.options;
    for (on, name) in [
        (options.pass_turn != ir::PassTurn::Never, "option pass turn"),
        (options.pass_partial, "option pass partial"),
        (
            options.maximal_captures != ir::MaximalCaptures::Off,
            "option maximal captures",
        ),
        (options.recycle_captures, "option recycle captures"),
        (options.include_off_pieces, "option include off-pieces"),
        (game.players.iter().any(|p| p.random), "random player"),
        (
            game.turn_order.turns.iter().any(|t| t.move_type.is_some()),
            "turn move type",
        ),
        (
            game.turn_order.turns.iter().any(|t| t.move_as != t.player),
            "turn move as",
        ),
        (game.turn_order.repeat_from > 0, "turn repeat"),
        (!game.move_priorities.is_empty(), "move priorities"),
        (game.pieces.iter().any(|p| !p.drops.is_empty()), "drops"),
        (
            game.setup.iter().any(|s| s.off_board > 0),
            "off-board stock",
        ),
        (!game.attributes.is_empty(), "attributes"),
    ] {
        if on {
            found.insert(name.to_string());
        }
    }
    for goal in &game.goals {
        found.insert(format!("goal {:?}", goal.kind));
        goal_constructs(&goal.condition, &mut found);
    }
    found
}

fn goal_constructs(cond: &ir::GoalCond, found: &mut BTreeSet<String>) {
    let name = format!("{cond:?}");
    let variant = name.split([' ', '(', '{']).next().unwrap_or_default();
    found.insert(format!("goal {variant}"));
    match cond {
        ir::GoalCond::And(cs) | ir::GoalCond::Or(cs) => {
            cs.iter().for_each(|c| goal_constructs(c, found))
        }
        ir::GoalCond::Not(c) => goal_constructs(c, found),
        _ => {}
    }
}

fn block_constructs(block: &ir::Block, found: &mut BTreeSet<String>) {
    let variant_of = |debug: String| {
        let variant = debug.split([' ', '(', '{']).next().unwrap_or_default();
        variant.to_string()
    };
    ir::visit::walk(block, &mut |node| match node {
        Node::Stmt(stmt) => {
            found.insert(format!("stmt {}", variant_of(format!("{stmt:?}"))));
            if let Stmt::Add { kind, promote, .. } = stmt {
                found.insert(format!("add {kind:?}"));
                if !promote.is_empty() {
                    found.insert("add promote".to_string());
                }
            }
        }
        Node::Cond(cond) => {
            found.insert(format!("cond {}", variant_of(format!("{cond:?}"))));
        }
    });
}
