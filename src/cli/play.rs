//! `zrfc perft`, `moves`, `show`, `play`, `selfplay`, `uci`, `info`, `eval` and
//! `bench`: running a game with the reference interpreter.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use codespan_reporting::term::termcolor::ColorChoice;
use zrf_play::board;
use zrf_play::driver;
use zrf_play::move_text::{read_move, Reading};
use zrf_play::terminal::{self, Seats};
use zrf_play::web;
use zrf_play::{Contender, MatchGame, MatchOptions, Tally};
use zrf_runtime::Game;
use zrf_search::Settings;

use super::{choose_game, run_front_end};
use crate::frontend::FrontEndOptions;
use crate::interp::{self, Interpreted};
use zrf_runtime::printable;

/// Runs the front end and lowers one game; `Err` is the exit code after saying why
/// there is none.
fn lowered_game(
    file: &Path,
    variant: Option<&str>,
    options: &FrontEndOptions,
    color: ColorChoice,
) -> Result<crate::ir::Game, u8> {
    let front_end = run_front_end(file, options, color, true)?;
    let chosen = choose_game(file, front_end, variant)?;
    chosen.game.ok_or_else(|| {
        eprintln!(
            "error: {:?} has errors; `zrfc check {}` shows them",
            chosen.title,
            file.display()
        );
        1
    })
}

/// Runs the front end and builds the interpreter for one game; `Err` is the exit code.
pub(super) fn load(
    file: &Path,
    variant: Option<&str>,
    options: &FrontEndOptions,
    color: ColorChoice,
) -> Result<Interpreted, u8> {
    let game = lowered_game(file, variant, options, color)?;
    if let Some(engine) = &game.engine {
        eprintln!("warning: the moves of {:?} come from the Axiom engine {engine:?}; its ZRF templates are placeholders", printable(&game.title));
    }
    interp::engine(game).map_err(|err| {
        eprintln!("error: {err}");
        1
    })
}

/// Gives `engine` the learned evaluation in `path` (`zrfc tune`), checked against its
/// game; `Err` is the exit code.
fn with_evaluation(mut engine: Interpreted, path: Option<&Path>) -> Result<Interpreted, u8> {
    let Some(path) = path else {
        return Ok(engine);
    };
    let learned = crate::build::read_evaluation(path)
        .map_err(|e| e.to_string())
        .and_then(|learned| {
            learned
                .check(&engine.tables)
                .map(|()| learned)
                .map_err(|e| format!("{}: {e}", path.display()))
        });
    match learned {
        Ok(learned) => {
            engine.tables.evaluation = Some(learned.to_text());
            Ok(engine)
        }
        Err(err) => {
            eprintln!("error: {err}");
            Err(1)
        }
    }
}

/// What `zrfc perft` was asked for.
pub struct PerftRequest {
    pub depth: u32,
    pub divide: bool,
    /// Published counts: (depth, count).
    pub expect: Vec<(u32, u64)>,
    /// Threads the first moves are shared between.
    pub threads: usize,
}

pub fn perft(
    file: &Path,
    variant: Option<&str>,
    request: PerftRequest,
    options: &FrontEndOptions,
    color: ColorChoice,
) -> u8 {
    let engine = match load(file, variant, options, color) {
        Ok(engine) => engine,
        Err(code) => return code,
    };
    let start = engine.start();
    let blueprint = interp::Blueprint::of(&engine);
    let make_engine = || blueprint.engine();
    let mut stdout = io::stdout().lock();
    let _ = writeln!(stdout, "{}", printable(&engine.tables.title));
    let mut mismatches = 0;
    for d in 1..=request.depth {
        let clock = Instant::now();
        let count = zrf_search::parallel::perft_split(&make_engine, &start, d, request.threads);
        let seconds = clock.elapsed().as_secs_f64();
        let speed = if seconds > 0.0 {
            count as f64 / seconds
        } else {
            0.0
        };
        let verdict = match request
            .expect
            .iter()
            .find(|(depth, _)| *depth == d)
            .map(|e| e.1)
        {
            Some(want) if want == count => " ok".to_string(),
            Some(want) => {
                mismatches += 1;
                format!(" MISMATCH: expected {want}")
            }
            None => String::new(),
        };
        let _ = writeln!(
            stdout,
            "depth {d}: {count} ({seconds:.3} s, {speed:.0} leaves/s){verdict}"
        );
        let _ = stdout.flush();
        // A runaway move list makes every deeper count wrong, and each of its
        // positions would run away again: stop at the first (the exit says why).
        if zrf_runtime::move_list_cut_short() {
            return 1;
        }
    }
    if request.divide && request.depth > 0 {
        for (notation, count) in zrf_search::divide(&engine, &start, request.depth) {
            let _ = writeln!(stdout, "{notation}: {count}");
        }
    }
    u8::from(mismatches > 0)
}

/// The position after `after` (moves as people write them: see
/// [`zrf_play::move_text`]) from the start; `Err` is the exit code after saying which
/// move could not be read and why, with the moves it could have been.
fn after_moves(engine: &Interpreted, after: &[String]) -> Result<AfterMoves, u8> {
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
        eprintln!(
            "error: move {}: {}; {what} are:",
            i + 1,
            reading.complaint(wanted)
        );
        for m in listed {
            eprintln!("  {}", engine.notation(&state, &moves[m]));
        }
        return Err(1);
    }
    Ok(AfterMoves { state, last_move })
}

/// The position `--after` leads to, and the squares its last move touched.
struct AfterMoves {
    state: zrf_runtime::State,
    last_move: Vec<zrf_runtime::Pos>,
}

pub fn moves(
    file: &Path,
    variant: Option<&str>,
    after: &[String],
    options: &FrontEndOptions,
    color: ColorChoice,
) -> u8 {
    let engine = match load(file, variant, options, color) {
        Ok(engine) => engine,
        Err(code) => return code,
    };
    let state = match after_moves(&engine, after) {
        Ok(after) => after.state,
        Err(code) => return code,
    };
    let moves = engine.legal_moves(&state);
    let mut stdout = io::stdout().lock();
    for m in &moves {
        let _ = writeln!(stdout, "{}", engine.notation(&state, m));
    }
    if let Some(outcome) = engine.outcome(&state, &moves) {
        let _ = writeln!(stdout, "game over: {}", outcome.describe(&engine.tables));
    }
    0
}

/// `zrfc show`: the position at the start or after some moves, as a text board or
/// an SVG file.
pub fn show(
    file: &Path,
    variant: Option<&str>,
    after: &[String],
    svg: Option<&Path>,
    zones: bool,
    options: &FrontEndOptions,
    color: ColorChoice,
) -> u8 {
    let engine = match load(file, variant, options, color) {
        Ok(engine) => engine,
        Err(code) => return code,
    };
    let AfterMoves { state, last_move } = match after_moves(&engine, after) {
        Ok(after) => after,
        Err(code) => return code,
    };
    let to_move = engine.to_move(&state);
    match svg {
        None => {
            print!("{}", board::text_board(&engine.tables, &state, to_move));
            0
        }
        Some(path) => {
            let options = board::SvgOptions { last_move, zones };
            let picture = board::svg_board(&engine.tables, &state, to_move, &options);
            match std::fs::write(path, picture) {
                Ok(()) => {
                    println!("wrote {}", path.display());
                    0
                }
                Err(err) => {
                    eprintln!("error: cannot write {}: {err}", path.display());
                    2
                }
            }
        }
    }
}

/// What `zrfc play` was asked for.
pub struct PlayRequest {
    /// Players moved by a person at the terminal; the computer moves the others.
    pub humans: Vec<String>,
    /// How the computer plays (its seed included).
    pub settings: Settings,
    pub max_turns: usize,
    /// Where to write the saved game; `None`: nowhere.
    pub save: Option<PathBuf>,
}

pub fn play(
    file: &Path,
    variant: Option<&str>,
    request: PlayRequest,
    options: &FrontEndOptions,
    evaluation: Option<&Path>,
    color: ColorChoice,
) -> u8 {
    let engine =
        match load(file, variant, options, color).and_then(|e| with_evaluation(e, evaluation)) {
            Ok(engine) => engine,
            Err(code) => return code,
        };
    let tables = &engine.tables;
    let humans = match seats(tables, &request.humans) {
        Ok(humans) => humans,
        Err(code) => return code,
    };
    let mut stdout = io::stdout().lock();
    let _ = writeln!(stdout, "{}", printable(&tables.title));
    let rules_name = rules_file_name(file);
    let seats = Seats {
        humans,
        settings: request.settings,
        max_turns: request.max_turns,
        verbose: true,
        rules_file: rules_name.clone(),
    };
    let blueprint = interp::Blueprint::of(&engine);
    let make_engine = || blueprint.engine();
    let played = terminal::play_game(
        &engine,
        &make_engine,
        &seats,
        &mut stdout,
        terminal::ask_at_terminal,
    );
    let _ = writeln!(stdout, "{}", played.ending);
    let Some(path) = request.save else {
        return 0;
    };
    if played.records.is_empty() {
        let _ = writeln!(
            stdout,
            "no move was played: nothing saved to {}",
            path.display()
        );
        return 0;
    }
    let text = zrf_runtime::saved_game(tables, &rules_name, &seats.humans, &played.records);
    match zrf_play::save_new_file(&path, &text) {
        Ok(saved) => {
            let _ = writeln!(
                stdout,
                "saved {} records to {}",
                played.records.len(),
                saved.display()
            );
            0
        }
        Err(err) => {
            eprintln!("error: {err}");
            2
        }
    }
}

/// Per player, whether one of `names` (players moved by hand) names it; `Err` is the
/// exit code after naming the players.
fn seats(tables: &zrf_runtime::Tables, names: &[String]) -> Result<Vec<bool>, u8> {
    let mut humans = vec![false; tables.players.len()];
    for name in names {
        match tables.players.iter().position(|p| p.name == *name) {
            Some(p) => humans[p] = true,
            None => {
                eprintln!(
                    "error: no player {name:?}; the players are {}",
                    tables.player_names().join(", ")
                );
                return Err(2);
            }
        }
    }
    Ok(humans)
}

/// What `zrfc selfplay` was asked for.
pub struct SelfplayRequest {
    pub contenders: [Contender; 2],
    pub options: MatchOptions,
    /// Where to save every game as a .zsg file: `None` to keep none, `Some(None)` for
    /// a new folder named after the rules ([`zrf_play::save_folder`]).
    pub save: Option<Option<PathBuf>>,
}

pub fn selfplay(
    file: &Path,
    variant: Option<&str>,
    request: SelfplayRequest,
    options: &FrontEndOptions,
    evaluation: Option<&Path>,
    color: ColorChoice,
) -> u8 {
    let engine =
        match load(file, variant, options, color).and_then(|e| with_evaluation(e, evaluation)) {
            Ok(engine) => engine,
            Err(code) => return code,
        };
    let blueprint = interp::Blueprint::of(&engine);
    let make_engine = || blueprint.engine();
    let tables = &engine.tables;
    let rules_name = file.file_name().map_or_else(
        || "game.zrf".to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let folder = match &request.save {
        None => None,
        Some(dir) => match zrf_play::save_folder(dir.as_deref(), &rules_name) {
            Ok(folder) => Some(folder),
            Err(err) => {
                eprintln!("error: {err}");
                return 2;
            }
        },
    };
    println!(
        "{}: {} games, {} against {}",
        tables.title,
        request.options.games,
        request.contenders[0].label,
        request.contenders[1].label
    );
    let bar = super::progress_bar(request.options.games as u64);
    let on_game = |game: &MatchGame| {
        bar.inc(1);
        bar.set_message(format!(
            "game {}: {} in {} turns",
            game.number + 1,
            game.outcome
                .map_or("cut".to_string(), |o| o.describe(tables)),
            game.turns
        ));
    };
    let games = zrf_play::play_match(
        &make_engine,
        &request.contenders,
        &request.options,
        &on_game,
    );
    bar.finish_and_clear();
    if let Some(folder) = &folder {
        if let Err(err) = zrf_play::save_games(folder, tables, &rules_name, &games) {
            eprintln!("error: {err}");
            return 2;
        }
        println!("saved {} games in {}", games.len(), folder.display());
    }
    let tally = Tally::of(&games, tables.players.len());
    print!(
        "{}",
        tally.table(&request.contenders, &tables.player_names())
    );
    0
}

/// `zrfc uci`: the Universal Chess Interface over the interpreter, every game of the
/// file that lowers offered as `UCI_Variant` (`variant`, else the first, to start with).
pub fn uci(
    file: &Path,
    variant: Option<&str>,
    options: &FrontEndOptions,
    evaluation: Option<&Path>,
    color: ColorChoice,
) -> u8 {
    let front_end = match run_front_end(file, options, color, true) {
        Ok(front_end) => front_end,
        Err(code) => return code,
    };
    let mut engines: Vec<Interpreted> = Vec::new();
    for game in front_end.games.into_iter().filter_map(|g| g.game) {
        match interp::engine(game) {
            Ok(engine) => engines.push(engine),
            Err(err) => eprintln!("warning: {err}"),
        }
    }
    let titles: Vec<String> = engines.iter().map(|e| e.tables.title.clone()).collect();
    let Some(first) = first_game(&titles, variant) else {
        return no_such_game(file, variant);
    };
    if let Some(path) = evaluation {
        let learned = match crate::build::read_evaluation(path).map_err(|e| e.to_string()) {
            Ok(learned) => learned,
            Err(err) => {
                eprintln!("error: {err}");
                return 1;
            }
        };
        let Some(index) = titles.iter().position(|t| *t == learned.title) else {
            eprintln!(
                "error: {}: the evaluation is for {:?}, which {} does not have",
                path.display(),
                learned.title,
                file.display()
            );
            return 1;
        };
        match with_evaluation(engines.swap_remove(index), Some(path)) {
            Ok(engine) => {
                engines.push(engine);
                let last = engines.len() - 1;
                engines.swap(index, last);
            }
            Err(code) => return code,
        }
    }
    let blueprints: Vec<interp::Blueprint> = engines.iter().map(interp::Blueprint::of).collect();
    let plays: Vec<_> = blueprints
        .iter()
        .map(|blueprint| {
            move |session: &mut zrf_play::uci::Session<'_>| {
                zrf_play::uci::play_variant(&|| blueprint.engine(), session)
            }
        })
        .collect();
    let variants: Vec<zrf_play::uci::Variant<'_>> = titles
        .iter()
        .zip(&plays)
        .map(|(title, play)| zrf_play::uci::Variant {
            title: title.clone(),
            play,
        })
        .collect();
    match zrf_play::uci::run_uci_variants(&variants, first) {
        Ok(()) => 0,
        Err(err) => {
            eprintln!("error: {err}");
            2
        }
    }
}

/// The index of the game `variant` names (exactly, else ignoring case), or of the
/// first when none is named.
fn first_game(titles: &[String], variant: Option<&str>) -> Option<usize> {
    let index = match variant {
        None => Some(0),
        Some(title) => titles
            .iter()
            .position(|t| t == title)
            .or_else(|| titles.iter().position(|t| t.eq_ignore_ascii_case(title))),
    };
    index.filter(|&i| i < titles.len())
}

/// Says that `file` has no game `variant` without errors; the exit code.
fn no_such_game(file: &Path, variant: Option<&str>) -> u8 {
    eprintln!(
        "error: no game or variant {}without errors in {}",
        variant.map_or(String::new(), |v| format!("{v:?} ")),
        file.display()
    );
    eprintln!("help: `zrfc check {}` shows what is wrong", file.display());
    1
}

/// `zrfc info`: the game's title, players and what the rules say of it and its pieces,
/// as Zillions' "About this game" showed it.
pub fn info(
    file: &Path,
    variant: Option<&str>,
    options: &FrontEndOptions,
    color: ColorChoice,
) -> u8 {
    match load(file, variant, options, color) {
        Ok(engine) => {
            print!("{}", board::about_text(&engine.tables));
            0
        }
        Err(code) => code,
    }
}

/// `zrfc serve`: the game in a browser, every variant of the file that lowers in its
/// menu.
pub fn serve(
    file: &Path,
    variant: Option<&str>,
    address: &str,
    options: &FrontEndOptions,
    color: ColorChoice,
) -> u8 {
    let front_end = match run_front_end(file, options, color, true) {
        Ok(front_end) => front_end,
        Err(code) => return code,
    };
    let games: Vec<crate::ir::Game> = front_end.games.into_iter().filter_map(|g| g.game).collect();
    let titles: Vec<String> = games.iter().map(|g| g.title.clone()).collect();
    let Some(first) = first_game(&titles, variant) else {
        return no_such_game(file, variant);
    };
    let rules_name = rules_file_name(file);
    let open = |index: usize| -> Result<Box<dyn web::Table>, String> {
        let engine = interp::engine(games[index].clone()).map_err(|e| e.to_string())?;
        Ok(Box::new(web::Session::new(engine, &rules_name)))
    };
    let site = web::Site {
        variants: titles,
        first,
        open: &open,
    };
    let server = match web::bind(address) {
        Ok(server) => server,
        Err(message) => {
            eprintln!("error: {message}");
            eprintln!("help: `--port 0` picks a free port");
            return 2;
        }
    };
    println!(
        "serving {} at {} (Ctrl-C stops)",
        site.variants[first],
        web::page_address(&server)
    );
    let _ = io::stdout().flush();
    match web::serve(&server, &site) {
        Ok(()) => 0,
        Err(message) => {
            eprintln!("error: {message}");
            1
        }
    }
}

/// The name saved games give the rules: the file's own.
fn rules_file_name(file: &Path) -> String {
    file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// `zrfc eval`: the piece values worked out from the rules, and the search chosen.
pub fn eval(
    file: &Path,
    variant: Option<&str>,
    options: &FrontEndOptions,
    evaluation: Option<&Path>,
    color: ColorChoice,
) -> u8 {
    match load(file, variant, options, color).and_then(|e| with_evaluation(e, evaluation)) {
        Ok(engine) => {
            print!("{}", driver::describe_eval(&engine));
            0
        }
        Err(code) => code,
    }
}

/// `zrfc bench`: perft, playouts and search speed of the interpreter on one game.
pub fn bench(
    file: &Path,
    variant: Option<&str>,
    seconds: f64,
    options: &FrontEndOptions,
    color: ColorChoice,
) -> u8 {
    match load(file, variant, options, color) {
        Ok(engine) => {
            println!("{} (interpreted)", printable(&engine.tables.title));
            print!("{}", driver::bench(&engine, seconds));
            0
        }
        Err(code) => code,
    }
}
