//! `zrfc perft`, `moves`, `show`, `play`, `selfplay`, `uci`, `info`, `eval` and
//! `bench`: running a game with the reference interpreter.

use std::path::Path;

use codespan_reporting::term::termcolor::ColorChoice;
use zrf_play::args::{MovesArgs, PerftArgs, PlayArgs, SelfplayArgs, ServeArgs, ShowArgs};
use zrf_play::commands::{self, CommandResult};
use zrf_play::{board, driver, web, MatchGame};

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

/// Says why a shared command failed; its exit code.
fn exit_code(result: CommandResult) -> u8 {
    match result {
        Ok(()) => 0,
        Err(failure) => {
            eprintln!("error: {}", failure.message);
            failure.code
        }
    }
}

/// `zrfc perft`: [`commands::perft`] on the interpreter, one engine per thread.
pub fn perft(
    file: &Path,
    variant: Option<&str>,
    args: &PerftArgs,
    options: &FrontEndOptions,
    color: ColorChoice,
) -> u8 {
    let engine = match load(file, variant, options, color) {
        Ok(engine) => engine,
        Err(code) => return code,
    };
    let blueprint = interp::Blueprint::of(&engine);
    let code = exit_code(commands::perft(&|| blueprint.engine(), args));
    // A runaway move list stops the counts: the caller says why, with exit code 1.
    code.max(u8::from(zrf_runtime::move_list_cut_short()))
}

/// `zrfc moves`: [`commands::moves`] on the interpreter.
pub fn moves(
    file: &Path,
    variant: Option<&str>,
    args: &MovesArgs,
    options: &FrontEndOptions,
    color: ColorChoice,
) -> u8 {
    match load(file, variant, options, color) {
        Ok(engine) => exit_code(commands::moves(&engine, args)),
        Err(code) => code,
    }
}

/// `zrfc show`: [`commands::show`] on the interpreter.
pub fn show(
    file: &Path,
    variant: Option<&str>,
    args: &ShowArgs,
    options: &FrontEndOptions,
    color: ColorChoice,
) -> u8 {
    match load(file, variant, options, color) {
        Ok(engine) => exit_code(commands::show(&engine, args)),
        Err(code) => code,
    }
}

/// `zrfc play`: [`commands::play`] on the interpreter, with the learned evaluation
/// if one is given.
pub fn play(
    file: &Path,
    variant: Option<&str>,
    args: &PlayArgs,
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
    let rules_file = commands::rules_file_name(file);
    exit_code(commands::play(
        &engine,
        &|| blueprint.engine(),
        args,
        &rules_file,
    ))
}

/// `zrfc selfplay`: [`commands::selfplay`] on the interpreter, with a progress bar.
pub fn selfplay(
    file: &Path,
    variant: Option<&str>,
    args: &SelfplayArgs,
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
    let tables = &engine.tables;
    let bar = super::progress_bar(args.games as u64);
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
    let rules_file = commands::rules_file_name(file);
    let result = commands::selfplay(&|| blueprint.engine(), args, &rules_file, &on_game);
    bar.finish_and_clear();
    exit_code(result)
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

/// `zrfc serve`: [`commands::serve`] with every variant of the file that lowers in
/// the page's menu.
pub fn serve(
    file: &Path,
    variant: Option<&str>,
    args: &ServeArgs,
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
    let rules_file = commands::rules_file_name(file);
    let open = |index: usize| -> Result<Box<dyn web::Table>, String> {
        let engine = interp::engine(games[index].clone()).map_err(|e| e.to_string())?;
        Ok(Box::new(web::Session::new(engine, &rules_file)))
    };
    exit_code(commands::serve(titles, first, &open, args))
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
