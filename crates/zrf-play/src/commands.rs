//! The play commands themselves, for any engine of the runtime: `zrfc` runs them on
//! the interpreter and compiled engines on their generated code, from the same
//! options ([`crate::args`]), so that both print and save exactly the same.

use std::io::{self, Write};
use std::path::Path;
use std::time::Instant;

use zrf_runtime::{printable, Engine, Game, Pos, State, Tables, Templates};
use zrf_search::parallel::MakeEngine;

use crate::args::{MovesArgs, PerftArgs, PlayArgs, SelfplayArgs, ShowArgs};
use crate::board;
use crate::move_text::{read_move, Reading};
use crate::terminal::{ask_at_terminal, play_game, Seats};
use crate::{MatchGame, Tally};

/// Why a command stopped, and the exit code that says so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub message: String,
    /// 1: the work found a difference or could not be done; 2: the request was wrong.
    pub code: u8,
}

impl Failure {
    /// The request was wrong (exit code 2).
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code: 2,
        }
    }

    /// The work could not be done, or found a difference (exit code 1).
    pub fn failed(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code: 1,
        }
    }
}

/// What a command answers.
pub type CommandResult = Result<(), Failure>;

/// `perft`: the count at every depth up to the one asked for, with the speed and the
/// verdict on any published count; then, with `--divide`, the last depth by first move.
pub fn perft<T: Templates>(make_engine: MakeEngine<'_, T>, args: &PerftArgs) -> CommandResult {
    let engine = make_engine();
    let start = engine.start();
    let depth = args.depth();
    let threads = crate::args::threads(args.threads);
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{}", printable(&engine.tables.title));
    let mut mismatches = Vec::new();
    for d in 1..=depth {
        let clock = Instant::now();
        let count = zrf_search::parallel::perft_split(make_engine, &start, d, threads);
        let seconds = clock.elapsed().as_secs_f64();
        let speed = count as f64 / seconds.max(1e-9);
        let verdict = match args.expect.iter().find(|(at, _)| *at == d) {
            Some(&(_, want)) if want == count => " ok".to_string(),
            Some(&(_, want)) => {
                mismatches.push(d);
                format!(" MISMATCH: expected {want}")
            }
            None => String::new(),
        };
        if writeln!(
            out,
            "depth {d}: {count} ({seconds:.3} s, {speed:.0} leaves/s){verdict}"
        )
        .is_err()
        {
            return Ok(());
        }
        let _ = out.flush();
        // A runaway move list makes every deeper count wrong, and each of its
        // positions would run away again: stop at the first (the caller says why).
        if zrf_runtime::move_list_cut_short() {
            return Ok(());
        }
    }
    if args.divide && depth > 0 {
        for (notation, count) in zrf_search::divide(&engine, &start, depth) {
            let _ = writeln!(out, "{notation}: {count}");
        }
    }
    match mismatches.as_slice() {
        [] => Ok(()),
        depths => Err(Failure::failed(format!(
            "the count differs from the expected one at depth {}",
            depths
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// The position some moves lead to from the start, and the squares the last one
/// touched.
pub struct AfterMoves {
    pub state: State,
    pub last_move: Vec<Pos>,
}

/// Plays `after` (moves as people write them: see [`crate::move_text`]) from the
/// start; a move that cannot be read is a failure naming it, why, and the moves it
/// could have been.
pub fn after_moves<T: Templates>(
    engine: &Engine<T>,
    after: &[String],
) -> Result<AfterMoves, Failure> {
    let mut state = engine.start();
    let mut last_move = Vec::new();
    for (i, wanted) in after.iter().enumerate() {
        let moves = engine.legal_moves(&state);
        let reading = read_move(engine, &state, &moves, wanted);
        let listed: Vec<usize> = match &reading {
            Reading::Move(found) => {
                last_move = board::move_squares(&moves[*found]);
                state = engine.play(&state, &moves[*found]);
                continue;
            }
            Reading::Ambiguous(several) => several.clone(),
            Reading::NotLegal | Reading::NotRecognised => (0..moves.len()).collect(),
        };
        let what = match reading {
            Reading::Ambiguous(_) => "the moves it could be",
            _ => "the legal moves",
        };
        let mut message = format!("move {}: {}; {what} are:", i + 1, reading.complaint(wanted));
        for m in listed {
            message.push_str(&format!("\n  {}", engine.notation(&state, &moves[m])));
        }
        return Err(Failure::failed(message));
    }
    Ok(AfterMoves { state, last_move })
}

/// `moves`: the legal moves where `--after` leads, in saved-game notation, and the
/// result if the game is over there.
pub fn moves<T: Templates>(engine: &Engine<T>, args: &MovesArgs) -> CommandResult {
    let state = after_moves(engine, &args.after)?.state;
    let moves = engine.legal_moves(&state);
    let mut out = io::stdout().lock();
    for m in &moves {
        if writeln!(out, "{}", engine.notation(&state, m)).is_err() {
            return Ok(());
        }
    }
    if let Some(outcome) = engine.outcome(&state, &moves) {
        let _ = writeln!(out, "game over: {}", outcome.describe(&engine.tables));
    }
    Ok(())
}

/// `show`: the position `--after` leads to as a text board, or an SVG file.
pub fn show<T: Templates>(engine: &Engine<T>, args: &ShowArgs) -> CommandResult {
    let AfterMoves { state, last_move } = after_moves(engine, &args.after)?;
    let to_move = engine.to_move(&state);
    let Some(path) = &args.svg else {
        say(&board::text_board(&engine.tables, &state, to_move));
        return Ok(());
    };
    let options = board::SvgOptions {
        last_move,
        zones: args.zones,
    };
    let picture = board::svg_board(&engine.tables, &state, to_move, &options);
    std::fs::write(path, picture)
        .map_err(|err| Failure::usage(format!("cannot write {}: {err}", path.display())))?;
    say(&format!("wrote {}\n", path.display()));
    Ok(())
}

/// Per player, whether one of `names` (players moved by hand) names it.
fn seats(tables: &Tables, names: &[String]) -> Result<Vec<bool>, Failure> {
    let mut humans = vec![false; tables.players.len()];
    for name in names {
        let player = tables.players.iter().position(|p| p.name == *name);
        let player = player.ok_or_else(|| {
            Failure::usage(format!(
                "no player {name:?}; the players are {}",
                tables.player_names().join(", ")
            ))
        })?;
        humans[player] = true;
    }
    Ok(humans)
}

/// `play`: a game from the start, the computer moving every player not named by
/// `--human`, each record printed as played; saved with `--save`. `rules_file` is
/// the name saved games give the rules.
pub fn play<T: Templates>(
    engine: &Engine<T>,
    make_engine: MakeEngine<'_, T>,
    args: &PlayArgs,
    rules_file: &str,
) -> CommandResult {
    let tables = &engine.tables;
    let seats = Seats {
        humans: seats(tables, &args.human)?,
        settings: args.computer.settings(),
        max_turns: args.max_turns,
        verbose: true,
        rules_file: rules_file.to_string(),
    };
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{}", printable(&tables.title));
    let played = play_game(engine, make_engine, &seats, &mut out, ask_at_terminal);
    let _ = writeln!(out, "{}", played.ending);
    let Some(path) = &args.save else {
        return Ok(());
    };
    if played.records.is_empty() {
        let _ = writeln!(
            out,
            "no move was played: nothing saved to {}",
            path.display()
        );
        return Ok(());
    }
    let text = zrf_runtime::saved_game(tables, rules_file, &seats.humans, &played.records);
    let saved = crate::save_new_file(path, &text).map_err(Failure::usage)?;
    let _ = writeln!(
        out,
        "saved {} records to {}",
        played.records.len(),
        saved.display()
    );
    Ok(())
}

/// `selfplay`: a match between two computer players, every game shown to `on_game`
/// as it ends, saved unless `--no-save`, and a results table. `rules_file` is the
/// name saved games give the rules.
pub fn selfplay<T: Templates>(
    make_engine: MakeEngine<'_, T>,
    args: &SelfplayArgs,
    rules_file: &str,
    on_game: &(dyn Fn(&MatchGame) + Sync),
) -> CommandResult {
    let engine = make_engine();
    let tables = &engine.tables;
    if args.vs_rules_eval && tables.evaluation.is_none() {
        return Err(Failure::usage(
            "--vs-rules-eval compares a learned evaluation with the rules' own, and this game \
             has none: give one with --eval FILE.eval (zrfc tune writes it), or build it in \
             with zrfc build --eval",
        ));
    }
    let folder = match args.no_save {
        true => None,
        false => {
            Some(crate::save_folder(args.save_dir.as_deref(), rules_file).map_err(Failure::usage)?)
        }
    };
    let contenders = args.contenders();
    let options = args.match_options();
    say(&format!(
        "{}: {} games, {} against {}\n",
        printable(&tables.title),
        options.games,
        contenders[0].label,
        contenders[1].label
    ));
    let games = crate::play_match(make_engine, &contenders, &options, on_game);
    if let Some(folder) = &folder {
        crate::save_games(folder, tables, rules_file, &games).map_err(Failure::usage)?;
        say(&format!(
            "saved {} games in {}\n",
            games.len(),
            folder.display()
        ));
    }
    let tally = Tally::of(&games, tables.players.len());
    say(&tally.table(&contenders, &tables.player_names()));
    Ok(())
}

/// `serve`: the page with these games (`first` open) at `args`' address, until the
/// process is stopped.
#[cfg(feature = "web")]
pub fn serve(
    variants: Vec<String>,
    first: usize,
    open: &crate::web::Opener<'_>,
    args: &crate::args::ServeArgs,
) -> CommandResult {
    use crate::web;
    let server = web::bind(&format!("{}:{}", args.address, args.port)).map_err(|message| {
        Failure::usage(format!("{message}\nhelp: `--port 0` picks a free port"))
    })?;
    say(&format!(
        "serving {} at {} (Ctrl-C stops)\n",
        variants.get(first).map_or("", String::as_str),
        web::page_address(&server)
    ));
    let site = web::Site {
        variants,
        first,
        open,
    };
    web::serve(&server, &site).map_err(Failure::failed)
}

/// The name saved games give a rules file: its own name.
pub fn rules_file_name(file: &Path) -> String {
    file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Writes `text` to standard output, flushed (a page's address must reach a waiting
/// reader); a closed pipe (`engine bench | head`) is not an error worth a panic.
pub(crate) fn say(text: &str) {
    let mut out = io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}
