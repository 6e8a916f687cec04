//! `zrfc replay` and `zrfc corpus-replay`: saved games recorded by Zillions, replayed
//! record by record with the reference interpreter.

use std::io::{self, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use clap::Args;
use codespan_reporting::term::termcolor::ColorChoice;
use rayon::prelude::*;

use super::expectations::{Expectations, Judgement, Strictness};
use super::{report_human, FrontEndArgs};
use crate::diag::Diagnostic;
use crate::frontend::{self, FrontEndOptions};
use crate::interp;
use crate::source::{read_limited, FileId, SourceMap, MAX_FILE_BYTES};
use crate::zsg::{self, Replay};

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The saved game (.zsg).
    file: PathBuf,
    /// The rules file. Default: the header's `RulesFile`, looked up by file name
    /// (ignoring case) next to the saved game, then in each `-I` folder.
    #[arg(long, value_name = "FILE")]
    rules: Option<PathBuf>,
    /// The game or variant to play. Default: the header's `VariantName`.
    #[arg(long, value_name = "TITLE")]
    variant: Option<String>,
    /// Print a JSON report on stdout instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    front_end: FrontEndArgs,
}

/// A saved game ready to replay: the file (its records checked, counted and read again
/// one at a time as they are replayed), the rules it names, and their engine.
struct Prepared {
    sources: SourceMap,
    file: FileId,
    records: usize,
    rules: PathBuf,
    title: String,
    engine: interp::Interpreted,
}

/// Why a saved game could not be replayed at all.
struct Failure {
    /// Short and stable, for expectations: `zsg-error`, `rules-not-found`, ...
    status: String,
    message: String,
    sources: SourceMap,
    diagnostics: Vec<Diagnostic>,
}

fn fail(
    status: &str,
    message: String,
    sources: SourceMap,
    diagnostics: Vec<Diagnostic>,
) -> Failure {
    Failure {
        status: status.to_string(),
        message,
        sources,
        diagnostics,
    }
}

/// Reads the saved game, finds and checks its rules, and builds the interpreter.
fn prepare(
    path: &Path,
    rules: Option<&Path>,
    variant: Option<&str>,
    accept_similar_title: bool,
    options: &FrontEndOptions,
) -> Result<Prepared, Failure> {
    let mut sources = SourceMap::new();
    let bytes = match read_limited(path, MAX_FILE_BYTES) {
        Ok(bytes) => bytes,
        Err(err) => {
            let message = format!("cannot read {}: {err}", path.display());
            return Err(fail("io-error", message, sources, Vec::new()));
        }
    };
    let file = sources.add(path.display().to_string(), bytes);
    let header = match zsg::parse_header(file, sources.file(file)) {
        Ok(header) => header,
        Err(error) => {
            let message = format!("{} is not a saved game", path.display());
            return Err(fail(
                "zsg-error",
                message,
                sources,
                vec![error.to_diagnostic()],
            ));
        }
    };
    let rules = match rules {
        Some(rules) => rules.to_path_buf(),
        None => match find_rules(path, &header.rules_file, &options.load.include_dirs) {
            Some(found) => found,
            None => {
                let message = format!(
                    "cannot find the rules file {:?} named in {}; give it with --rules, \
                     or its folder with -I",
                    header.rules_file,
                    path.display()
                );
                return Err(fail("rules-not-found", message, sources, Vec::new()));
            }
        },
    };
    let mut options = options.clone();
    if let Some(dir) = rules.parent() {
        options.load.include_dirs.push(dir.to_path_buf());
    }
    let front_end = match frontend::run(&rules, &crate::syntax::FsLoader, &options, &mut sources) {
        Ok(front_end) => front_end,
        Err(err) => return Err(fail("rules-io-error", err.to_string(), sources, Vec::new())),
    };
    let errors: Vec<Diagnostic> = front_end
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .cloned()
        .collect();
    let title = variant.unwrap_or(&header.variant);
    let games = front_end.games;
    let exact = games.iter().position(|g| g.title == title).or_else(|| {
        games
            .iter()
            .position(|g| g.title.eq_ignore_ascii_case(title))
    });
    let similar = games
        .iter()
        .map(|g| strsim::normalized_levenshtein(&g.title, title))
        .enumerate()
        .filter(|&(_, score)| score >= 0.9)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i);
    let chosen = match (exact, similar) {
        (Some(i), _) => i,
        (None, Some(i)) if accept_similar_title => i,
        (None, similar) => {
            let hint = similar.map_or(String::new(), |i| {
                format!(
                    " (did you mean {:?}? give it with --variant)",
                    games[i].title
                )
            });
            let message = format!(
                "{} has no game or variant titled {title:?}{hint}; `zrfc check --list {}` \
                 lists them",
                rules.display(),
                rules.display()
            );
            return Err(fail("no-such-variant", message, sources, errors));
        }
    };
    let Some(chosen) = games.into_iter().nth(chosen) else {
        return Err(fail("no-such-variant", title.to_string(), sources, errors));
    };
    let Some(game) = chosen.game else {
        let message = format!("{title:?} in {} has errors", rules.display());
        let status = format!("rules-error:{}", chosen.first_error.unwrap_or("?"));
        return Err(fail(&status, message, sources, errors));
    };
    let engine = match interp::engine(game) {
        Ok(engine) => engine,
        Err(err) => return Err(fail("interp-error", err.to_string(), sources, Vec::new())),
    };
    let players = engine.tables.player_names();
    let (records, errors) = check_records(file, &sources, Some(&players));
    match errors.is_empty() {
        true => Ok(Prepared {
            sources,
            file,
            records,
            rules,
            title: chosen.title,
            engine,
        }),
        false => {
            let message = format!("{} is malformed", path.display());
            Err(fail("zsg-error", message, sources, errors))
        }
    }
}

/// Most malformed records reported of one saved game; the rest are counted.
const MOST_RECORD_ERRORS: usize = 100;

/// Reads every record once, keeping none: how many there are, and what is wrong with
/// the malformed ones.
fn check_records(
    file: FileId,
    sources: &SourceMap,
    players: Option<&[String]>,
) -> (usize, Vec<Diagnostic>) {
    let (mut count, mut malformed) = (0, 0);
    let mut errors = Vec::new();
    for record in zsg::records(file, sources.file(file), players) {
        match record {
            Ok(_) => count += 1,
            Err(error) => {
                malformed += 1;
                if errors.len() < MOST_RECORD_ERRORS {
                    errors.push(error.to_diagnostic());
                }
            }
        }
    }
    if malformed > errors.len() {
        errors.push(zsg::more_malformed(malformed - errors.len()));
    }
    (count, errors)
}

/// The rules file a header names: by file name, ignoring case, next to the saved game
/// and then in each include folder. The name may be a Windows path (`.\X.zrf`,
/// `C:\Games\X.zrf`); only its last component counts.
fn find_rules(saved_game: &Path, named: &str, include_dirs: &[PathBuf]) -> Option<PathBuf> {
    let wanted = named.rsplit(['\\', '/']).next().unwrap_or(named);
    let beside = saved_game
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    std::iter::once(beside)
        .chain(include_dirs.iter().cloned())
        .find_map(|dir| {
            let dir = if dir.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                dir
            };
            std::fs::read_dir(&dir).ok()?.find_map(|entry| {
                let path = entry.ok()?.path();
                let name = path.file_name()?.to_str()?;
                (name.eq_ignore_ascii_case(wanted) && path.is_file()).then_some(path)
            })
        })
}

pub fn replay(args: &ReplayArgs, color: ColorChoice) -> u8 {
    let options = args.front_end.options();
    let prepared = match prepare(
        &args.file,
        args.rules.as_deref(),
        args.variant.as_deref(),
        false,
        &options,
    ) {
        Ok(prepared) => prepared,
        Err(failure) => {
            report_human(&failure.sources, &failure.diagnostics, color);
            eprintln!("error: {}", failure.message);
            return if failure.status.contains("not-found") || failure.status.contains("io") {
                2
            } else {
                1
            };
        }
    };
    let report = replay_prepared(&prepared);
    if args.json {
        let json = json_report(&prepared, &report);
        let _ = writeln!(io::stdout().lock(), "{json:#}");
    } else {
        text_report(&prepared, &report, color);
    }
    u8::from(report.divergence.is_some())
}

/// Replays the prepared game's records as they are read again from its text.
fn replay_prepared(prepared: &Prepared) -> Replay {
    let players = prepared.engine.tables.player_names();
    let source = prepared.sources.file(prepared.file);
    // The records were checked when prepared: every one reads.
    let records = zsg::records(prepared.file, source, Some(&players)).filter_map(Result::ok);
    zsg::replay_records(&prepared.engine, records, prepared.records)
}

fn text_report(prepared: &Prepared, report: &Replay, color: ColorChoice) {
    let mut out = io::stdout().lock();
    let _ = writeln!(
        out,
        "{} with {} ({:?})",
        prepared.sources.file(prepared.file).name(),
        prepared.rules.display(),
        prepared.title
    );
    if let Some(divergence) = &report.divergence {
        let mut diagnostic = Diagnostic::error(
            "E0502",
            format!("record {} cannot be replayed", divergence.record + 1),
        )
        .primary(divergence.span, divergence.reason.clone());
        diagnostic = diagnostic.note(format!(
            "the position before it:\n{}",
            indent(&divergence.board)
        ));
        if !divergence.candidates.is_empty() {
            diagnostic = diagnostic.note(format!(
                "the engine's moves here:\n{}",
                indent(&divergence.candidates)
            ));
        }
        if let Some((closest, differences)) = &divergence.closest {
            diagnostic = diagnostic.note(format!(
                "nearest engine move `{closest}` differs:\n{}",
                indent(differences)
            ));
        }
        let _ = out.flush();
        report_human(&prepared.sources, &[diagnostic], color);
    }
    let _ = writeln!(out, "{}", summary_line(report, &prepared.engine.tables));
}

fn indent(lines: &[String]) -> String {
    lines
        .iter()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn summary_line(report: &Replay, tables: &zrf_runtime::Tables) -> String {
    let mut line = format!("{}/{} records replayed", report.replayed, report.records);
    if report.ambiguous > 0 {
        line.push_str(&format!(
            "; {} reproduced by more than one move",
            report.ambiguous
        ));
    }
    if let Some((first, count)) = report.turn_numbers_differ {
        line.push_str(&format!(
            "; {count} records numbered otherwise than the turn order gives (first: record {})",
            first + 1
        ));
    }
    if !report.attributes.is_empty() {
        let mapping: Vec<String> = report
            .attributes
            .iter()
            .map(|(i, name)| format!("{i} = {name}"))
            .collect();
        line.push_str(&format!("; attributes {}", mapping.join(", ")));
    }
    if let Some((record, outcome)) = report.over_early {
        line.push_str(&format!(
            "; the engine ended the game ({}) before record {}",
            outcome.describe(tables),
            record + 1
        ));
    }
    if let Some(outcome) = report.outcome {
        line.push_str(&format!("; game over: {}", outcome.describe(tables)));
    }
    line
}

fn json_report(prepared: &Prepared, report: &Replay) -> serde_json::Value {
    let tables = &prepared.engine.tables;
    let divergence = report.divergence.as_ref().map(|d| {
        serde_json::json!({
            "record": d.record + 1,
            "text": crate::diag::capped(&d.text),
            "reason": crate::diag::capped(&d.reason),
            "board": d.board,
            "candidates": d.candidates,
            "closest": d.closest.as_ref().map(|(text, differences)| serde_json::json!({
                "move": text,
                "differences": differences,
            })),
        })
    });
    serde_json::json!({
        "file": prepared.sources.file(prepared.file).name(),
        "rules": prepared.rules.display().to_string(),
        "variant": prepared.title,
        "records": report.records,
        "replayed": report.replayed,
        "ambiguous": report.ambiguous,
        "turn_numbers_differ": report.turn_numbers_differ.map(|(first, count)| serde_json::json!({"first": first + 1, "count": count})),
        "attributes": report.attributes.iter().map(|(i, n)| serde_json::json!({"index": i, "name": n})).collect::<Vec<_>>(),
        "over_early": report.over_early.map(|(r, o)| serde_json::json!({"record": r + 1, "outcome": o.describe(tables)})),
        "outcome": report.outcome.map(|o| o.describe(tables)),
        "divergence": divergence,
    })
}

#[derive(Args, Debug)]
pub struct CorpusReplayArgs {
    /// The oracles folder: holds `zsg-index.tsv`, `zsg/` and `recorded-zrf/`.
    oracles: PathBuf,
    /// The corpus folder the index's `corpus_zrf` column is relative to.
    #[arg(long, value_name = "DIR", default_value = "../shared/corpus")]
    corpus: PathBuf,
    /// Expectations file (`zsg<TAB>status` lines) to compare against.
    #[arg(long, value_name = "FILE")]
    expect: Option<PathBuf>,
    /// Write the statuses of this run to the expectations file instead of comparing.
    #[arg(long, requires = "expect")]
    bless: bool,
    #[command(flatten)]
    front_end: FrontEndArgs,
}

/// One row of `zsg-index.tsv`, the columns this command uses.
struct IndexRow {
    zsg: String,
    scope: String,
    variant: String,
    corpus_zrf: String,
    recorded_zrf: String,
    flags: String,
}

fn read_index(path: &Path) -> Result<Vec<IndexRow>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .ok_or_else(|| format!("{} has no `{name}` column", path.display()))
    };
    let (zsg, scope, variant, corpus_zrf, recorded_zrf, flags) = (
        column("zsg")?,
        column("scope")?,
        column("variant")?,
        column("corpus_zrf")?,
        column("recorded_zrf")?,
        column("flags")?,
    );
    Ok(lines
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            let cell = |i: usize| cells.get(i).copied().unwrap_or_default().to_string();
            IndexRow {
                zsg: cell(zsg),
                scope: cell(scope),
                variant: cell(variant),
                corpus_zrf: cell(corpus_zrf),
                recorded_zrf: cell(recorded_zrf),
                flags: cell(flags),
            }
        })
        .collect())
}

/// The result for one saved game: `N/M` records replayed, `parsed` for files that are
/// only read, or a failure status.
struct Outcome {
    zsg: String,
    status: String,
    detail: String,
}

fn replay_row(row: &IndexRow, args: &CorpusReplayArgs, options: &FrontEndOptions) -> Outcome {
    let path = args.oracles.join(&row.zsg);
    let outcome = |status: String, detail: String| Outcome {
        zsg: row.zsg.clone(),
        status,
        detail,
    };
    if row.scope.starts_with("format-only") {
        let Ok(bytes) = read_limited(&path, MAX_FILE_BYTES) else {
            return outcome("io-error".into(), String::new());
        };
        let mut sources = SourceMap::new();
        let file = sources.add(row.zsg.clone(), bytes);
        let header = zsg::parse_header(file, sources.file(file));
        let (records, errors) = check_records(file, &sources, None);
        return match header {
            Ok(_) if errors.is_empty() => outcome(
                "parsed".into(),
                format!("  {records} records ({})", row.scope),
            ),
            _ => outcome("zsg-error".into(), String::new()),
        };
    }
    let rules = if row.recorded_zrf.is_empty() {
        args.corpus.join(&row.corpus_zrf)
    } else {
        args.oracles.join(&row.recorded_zrf)
    };
    let mut options = options.clone();
    // Included files (sokoban.inc) live beside the corpus copy of the rules.
    if let Some(dir) = args.corpus.join(&row.corpus_zrf).parent() {
        options.load.include_dirs.push(dir.to_path_buf());
    }
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        // Saved games whose header was edited by hand name the variant slightly
        // differently from any title in the rules they were recorded with.
        let edited = row.flags.split(' ').any(|f| f == "header-edited");
        prepare(&path, Some(&rules), Some(&row.variant), edited, &options)
            .map(|prepared| replay_prepared(&prepared))
    }));
    match result {
        Err(_) => outcome("panic".into(), String::new()),
        Ok(Err(failure)) => outcome(failure.status, format!("  {}", failure.message)),
        Ok(Ok(report)) => {
            let detail = match &report.divergence {
                Some(d) => format!("  record {}: {}", d.record + 1, d.reason),
                None => String::new(),
            };
            outcome(format!("{}/{}", report.replayed, report.records), detail)
        }
    }
}

pub fn corpus_replay(args: &CorpusReplayArgs) -> u8 {
    let rows = match read_index(&args.oracles.join("zsg-index.tsv")) {
        Ok(rows) => rows,
        Err(err) => {
            eprintln!("error: {err}");
            return 2;
        }
    };
    let options = args.front_end.options();
    let progress = super::progress_bar(rows.len() as u64);
    let results: Vec<Outcome> = rows
        .par_iter()
        .map(|row| {
            progress.set_message(row.zsg.clone());
            let result = replay_row(row, args, &options);
            progress.inc(1);
            result
        })
        .collect();
    progress.finish_and_clear();
    for r in &results {
        println!("{:<12} {}{}", r.status, r.zsg, r.detail);
    }
    let complete = results.iter().filter(|r| is_complete(&r.status)).count();
    let parsed = results.iter().filter(|r| r.status == "parsed").count();
    let replays = results
        .iter()
        .filter(|r| r.status.contains('/') || !is_good(&r.status))
        .count();
    println!(
        "{} saved games: {complete} of {replays} replayed to the last record, {parsed} parsed only",
        results.len()
    );
    let Some(expect) = &args.expect else {
        let failed = results.iter().filter(|r| !is_good(&r.status)).count();
        println!("{} passed, {failed} failed", results.len() - failed);
        return u8::from(failed > 0);
    };
    if args.bless {
        return Expectations::bless(
            expect,
            "# zrfc corpus-replay expectations: saved game (relative to the oracles folder),\n\
             # then records replayed/records, or `parsed`, or why it could not be replayed\n",
            results.iter().map(|r| (r.zsg.as_str(), r.status.as_str())),
        );
    }
    // More records replayed of the same game is better; any other change is worse.
    Expectations::check(
        expect,
        results.iter().map(|r| (r.zsg.as_str(), r.status.as_str())),
        |want, now| match (replayed(want), replayed(now)) {
            (Some((was, total)), Some((now, now_total))) if total == now_total && now > was => {
                Judgement::Improved
            }
            _ => Judgement::Regressed,
        },
        Strictness {
            new_fails: true,
            missing_fails: true,
        },
    )
}

fn is_complete(status: &str) -> bool {
    status
        .split_once('/')
        .is_some_and(|(done, total)| done == total)
}

fn is_good(status: &str) -> bool {
    status == "parsed" || is_complete(status)
}

/// Records replayed, from an `N/M` status.
fn replayed(status: &str) -> Option<(u64, u64)> {
    let (done, total) = status.split_once('/')?;
    Some((done.parse().ok()?, total.parse().ok()?))
}
