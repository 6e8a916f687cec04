//! The command line of every compiled engine, shared by `zrfc` and the `main` that
//! `zrfc build` writes: both call the same game loop ([`crate::terminal`]), so a
//! compiled game plays exactly as the interpreted one does.

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use zrf_runtime::{Engine, Game, Templates};
use zrf_search::{
    alpha_beta, level_limits, mcts, Algorithm, AlphaBetaOptions, Iteration, Limits, MctsOptions,
    RulesEval, Settings, TranspositionTable,
};

use crate::selfplay::{play_match, Contender, MatchOptions, Tally};
use crate::terminal::{ask_at_terminal, play_game, Seats};

/// What [`measure_playouts`] counted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutSpeed {
    pub games: u64,
    pub plies: u64,
    pub seconds: f64,
}

impl PlayoutSpeed {
    pub fn games_per_second(&self) -> f64 {
        self.games as f64 / self.seconds.max(1e-9)
    }
}

/// Random games of at most 1,000 turns from the start, seeded 1, 2, ..., for about
/// `seconds`.
pub fn measure_playouts<G: Game>(game: &G, seconds: f64) -> PlayoutSpeed {
    let clock = Instant::now();
    let (mut games, mut plies) = (0u64, 0u64);
    while games == 0 || clock.elapsed().as_secs_f64() < seconds {
        let (played, _) = zrf_search::random_game(game, games + 1, 1000);
        games += 1;
        plies += played as u64;
    }
    PlayoutSpeed {
        games,
        plies,
        seconds: clock.elapsed().as_secs_f64(),
    }
}

/// Alpha-beta with the rules' evaluation from the start, within `limits` (one thread,
/// a fresh 64 MB table): the last iteration completed, `None` when the game is over at
/// the start.
pub fn measure_search<T: Templates>(engine: &Engine<T>, limits: Limits) -> Option<Iteration> {
    let eval = RulesEval::new(engine);
    let table = TranspositionTable::with_megabytes(64);
    let options = AlphaBetaOptions {
        limits,
        ..AlphaBetaOptions::default()
    };
    let found = alpha_beta(engine, &eval, &table, &engine.start(), &options, |_| {})?;
    Some(found.iteration)
}

/// The depth `bench` times alpha-beta to.
const BENCH_DEPTH: u32 = 8;

/// One line per measure of `engine`'s speed, each run for about `seconds`: perft,
/// random playouts, alpha-beta from the start (depth reached, nodes per second) and
/// Monte Carlo iterations.
pub fn bench<T: Templates>(engine: &Engine<T>, seconds: f64) -> String {
    let budget = Duration::from_secs_f64(seconds.max(0.01));
    let start = engine.start();
    let mut text = format!("{:<32} {:>14}  {}\n", "measure", "per second", "detail");
    // Perft: the deepest depth that ends within the budget.
    let mut depth = 1;
    loop {
        let clock = Instant::now();
        let count = zrf_search::perft(engine, &start, depth);
        let spent = clock.elapsed();
        if spent * 8 > budget || count == 0 || depth >= 12 {
            let rate = count as f64 / spent.as_secs_f64().max(1e-9);
            text.push_str(&format!(
                "{:<32} {:>14.0}  depth {depth}: {count} leaves\n",
                "perft leaves", rate
            ));
            break;
        }
        depth += 1;
    }
    let playouts = measure_playouts(engine, seconds);
    text.push_str(&format!(
        "{:<32} {:>14.1}  {} games of at most 1000 turns, mean {:.1}\n",
        "random playouts",
        playouts.games_per_second(),
        playouts.games,
        playouts.plies as f64 / playouts.games as f64
    ));
    match measure_search(engine, Limits::time(budget)) {
        Some(reached) => text.push_str(&format!(
            "{:<32} {:>14.0}  depth {} in {:.2} s, best {}\n",
            "alpha-beta nodes",
            reached.nodes as f64 / reached.elapsed.as_secs_f64().max(1e-9),
            reached.depth,
            reached.elapsed.as_secs_f64(),
            reached.pv.first().map_or("-", String::as_str)
        )),
        None => text.push_str("alpha-beta                       the game is over at the start\n"),
    }
    // The same search to a fixed depth, for comparing builds: time to depth 8 (cut at
    // twenty times the budget).
    let to_depth = Limits {
        depth: Some(BENCH_DEPTH),
        time: Some(budget * 20),
        nodes: None,
        whole_time: false,
    };
    if let Some(reached) = measure_search(engine, to_depth) {
        let cut = if reached.depth < BENCH_DEPTH {
            " (cut by time)"
        } else {
            ""
        };
        text.push_str(&format!(
            "{:<32} {:>14.0}  depth {} in {:.2} s{cut}\n",
            format!("alpha-beta to depth {BENCH_DEPTH}"),
            reached.nodes as f64 / reached.elapsed.as_secs_f64().max(1e-9),
            reached.depth,
            reached.elapsed.as_secs_f64(),
        ));
    }
    let eval = RulesEval::new(engine);
    let clock = Instant::now();
    let options = MctsOptions {
        limits: Limits::time(budget),
        ..MctsOptions::default()
    };
    if let Some(found) = mcts(engine, Some(&eval), &start, &options) {
        let spent = clock.elapsed().as_secs_f64();
        text.push_str(&format!(
            "{:<32} {:>14.0}  {} iterations\n",
            "monte carlo iterations",
            found.iterations as f64 / spent.max(1e-9),
            found.iterations
        ));
    }
    text
}

/// The piece values and the search chosen for a game, for people (`zrfc eval`).
pub fn describe_eval<T: Templates>(engine: &Engine<T>) -> String {
    let eval = RulesEval::new(engine);
    let mut text = format!(
        "{}\nsearch: {} ({})\n",
        zrf_runtime::printable(&engine.tables.title),
        Algorithm::for_game(&eval),
        if eval.is_placement_game() {
            "pieces only enter by drops"
        } else {
            "pieces move"
        },
    );
    let learned = engine
        .tables
        .evaluation
        .as_deref()
        .map(zrf_search::learn::Learned::parse);
    if let Some(Ok(learned)) = learned {
        text.push_str(&format!(
            "evaluation: learned from {} self-play games ({} positions); each piece within two \
             steps of an enemy royal piece {:+}\n",
            learned.games, learned.positions, learned.royal_pressure
        ));
    }
    let rollouts = eval.rollouts(engine);
    if rollouts > 0 {
        text.push_str(&format!(
            "rollouts: each position alpha-beta judges also scores {rollouts} random games from it\n"
        ));
    }
    text.push_str(&format!(
        "{:<20} {:>8} {:>9} {:>10}  notes\n",
        "piece", "value", "mobility", "promotes"
    ));
    for (kind, report) in eval.report().iter().enumerate() {
        let mut notes = Vec::new();
        if report.royal {
            notes.push("royal: never captured");
        }
        if report.decisive {
            notes.push("its loss decides the game");
        }
        let line = format!(
            "{:<20} {:>8} {:>9.2} {:>9.0}%  {}",
            report.name,
            eval.value(kind as u16),
            report.mobility,
            100.0 * report.promotes_from,
            notes.join("; ")
        );
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}

const ENGINE_HELP: &str = "\
A game engine compiled from a Zillions of Games rules file by zrfc.

usage: ENGINE [--variant TITLE] COMMAND [OPTIONS]

commands:
  perft DEPTH          count move paths from the start, depth by depth
  moves                list the legal moves at the start, in saved-game notation
  play                 play a game: the computer against itself, or against --human
  selfplay             play a match of computer players and print a results table
  bench                measure perft, random playouts and search speed
  serve                play in a web browser: a page served on this machine, with
                       the board to click on, undo, redo, variants and .zsg download
  info                 what the rules say of the game: description, history,
                       strategy and each piece's help
  uci                  speak the Universal Chess Interface on stdin/stdout (for
                       tournament managers and python-chess; moves as e2e4, e7e8q,
                       P@e4 on boards of squares named a1.., else saved-game notation
                       with `_` for spaces)
  help                 show this text

play options:
  --human PLAYER       a player who moves at the terminal (repeatable)
  --ai LEVEL           strength 1 (instant) to 6 (10 s a move); default 3 (0.5 s)
  --time SECONDS       time per computer move (overrides --ai)
  --depth N            search depth per computer move (overrides --ai)
  --engine ENGINE      alphabeta, mcts or random (default: chosen for the game)
  --seed N             seed of the computer's choices (default 1)
  --threads N          threads the search splits its moves between (default 0: all
                       cores; the same count and --depth give the same game)
  --max-turns N        stop after N turns (default 1000)
  --save FILE          write the game as a Zillions saved game (.zsg)

selfplay options:
  --games N            games to play (default 10), sides alternating
  --time SECONDS       time per move of the first player (default 0.1)
  --vs-time SECONDS    time per move of the second (default: the same)
  --depth N            search N plies a move instead, both players (the same games
                       on any machine)
  --engine ENGINE      the first player's engine; --vs-engine the second's
  --threads N          games played at once (default: all cores)
  --max-turns N        cut games longer than N turns (default 500)
  --save-dir DIR       write every game there as game-001.zsg, ... (default: a new
                       folder selfplay-NAME in the working directory)
  --no-save            keep no games

bench options:
  --time SECONDS       time per measure (default 2)

serve options:
  --port N             the port to listen on (default 8080; 0 picks a free one)
  --address ADDRESS    the address to listen on (default 127.0.0.1: this machine)
";

/// One game of a compiled package of several, as its `main` lists them for
/// [`run_variants`].
#[cfg(feature = "web")]
pub struct Packaged {
    /// The game's title.
    pub title: &'static str,
    /// Its command line: [`run_engine`] with its engine.
    pub run: fn(Vec<String>) -> ExitCode,
    /// Its page for `serve` ([`crate::web::table`] with its engine).
    pub page: fn(&str) -> Box<dyn crate::web::Table>,
    /// Its game loop for `uci` ([`crate::uci::play_variant`] with its engine), so that
    /// `UCI_Variant` can switch between the package's games.
    pub uci: fn(&mut crate::uci::Session<'_>) -> Option<String>,
}

/// The command line of a compiled package of several games: `--variant TITLE`
/// (anywhere, matched ignoring case; the first game by default) chooses the game the
/// command runs on, and `serve` offers them all in the page's menu.
#[cfg(feature = "web")]
pub fn run_variants(games: &[Packaged], rules_file: &str, mut args: Vec<String>) -> ExitCode {
    let variant = match take_variant(&mut args) {
        Ok(variant) => variant,
        Err(usage) => {
            eprintln!("error: {usage}");
            return ExitCode::from(2);
        }
    };
    if args.first().is_some_and(|command| command == "serve") {
        let pages: Vec<crate::web::Variant> = games.iter().map(|g| (g.title, g.page)).collect();
        return serve_variants(&pages, variant.as_deref(), rules_file, args.split_off(1));
    }
    let chosen = match variant.as_deref() {
        None => Some(0),
        Some(title) => games
            .iter()
            .position(|g| g.title.eq_ignore_ascii_case(title)),
    };
    if let (Some(first), Some("uci")) = (chosen, args.first().map(String::as_str)) {
        let variants: Vec<crate::uci::Variant<'_>> = games
            .iter()
            .map(|g| crate::uci::Variant {
                title: g.title.to_string(),
                play: &g.uci,
            })
            .collect();
        return match crate::uci::run_uci_variants(&variants, first) {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => {
                eprintln!("error: uci: {err}");
                ExitCode::from(2)
            }
        };
    }
    match chosen.and_then(|index| games.get(index)) {
        Some(game) => (game.run)(args),
        None => {
            eprintln!(
                "error: no variant {:?}; the variants are:",
                variant.unwrap_or_default()
            );
            for game in games {
                eprintln!("  {}", zrf_runtime::printable(game.title));
            }
            ExitCode::from(2)
        }
    }
}

/// The `serve` command of a compiled package with several games: `variants` are its
/// games for the page's menu, `variant` the one asked for with `--variant` (the first
/// when absent), `args` what follows `serve`. (A package of one game serves it from
/// [`run_engine`].)
#[cfg(feature = "web")]
fn serve_variants(
    variants: &[crate::web::Variant],
    variant: Option<&str>,
    rules_file: &str,
    args: Vec<String>,
) -> ExitCode {
    let mut options = Options { args };
    let first = match variant {
        None => Ok(0),
        Some(title) => variants
            .iter()
            .position(|(t, _)| t.eq_ignore_ascii_case(title))
            .ok_or_else(|| format!("no variant {title:?}")),
    };
    let titles = variants.iter().map(|(t, _)| t.to_string()).collect();
    let open = |index: usize| Ok((variants[index].1)(rules_file));
    let result = first.and_then(|first| serve_command(titles, first, &open, &mut options));
    finish(result, &options)
}

/// Serves the page with these games, `first` open, until the process is stopped.
#[cfg(feature = "web")]
fn serve_command(
    variants: Vec<String>,
    first: usize,
    open: &crate::web::Opener<'_>,
    options: &mut Options,
) -> Result<(), String> {
    use crate::web;
    let port: u16 = options.number("--port", 8080)?;
    let address = options.take("--address");
    let address = address.as_deref().unwrap_or("127.0.0.1");
    let server = web::bind(&format!("{address}:{port}"))?;
    say(&format!(
        "serving {} at {} (Ctrl-C stops)\n",
        variants[first],
        web::page_address(&server)
    ));
    let site = web::Site {
        variants,
        first,
        open,
    };
    web::serve(&server, &site)
}

/// Makes writing to a closed pipe (`engine moves | head`) end the program quietly, as
/// it does Unix tools, instead of panicking in `println!`: Rust starts programs with
/// SIGPIPE ignored, so that the write fails; its default action ends the process
/// there. Not for servers, whose clients may hang up.
pub fn end_quietly_on_a_closed_pipe() {
    #[cfg(unix)]
    sigpipe::reset();
}

/// Parsed options of the engine command line: `--name value` pairs and flags.
struct Options {
    args: Vec<String>,
}

impl Options {
    fn take(&mut self, name: &str) -> Option<String> {
        let at = self.args.iter().position(|a| a == name)?;
        self.args.remove(at);
        (at < self.args.len()).then(|| self.args.remove(at))
    }

    /// Whether the flag `name` (an option without a value) was given.
    fn flag(&mut self, name: &str) -> bool {
        let given = self.args.iter().any(|a| a == name);
        self.args.retain(|a| a != name);
        given
    }

    fn take_all(&mut self, name: &str) -> Vec<String> {
        std::iter::from_fn(|| self.take(name)).collect()
    }

    fn number<N: std::str::FromStr>(&mut self, name: &str, default: N) -> Result<N, String> {
        match self.take(name) {
            None => Ok(default),
            Some(text) => text
                .parse()
                .map_err(|_| format!("{name} takes a number, not {text:?}")),
        }
    }

    fn engine(&mut self, name: &str) -> Result<Option<Algorithm>, String> {
        self.take(name).map(|e| e.parse()).transpose()
    }
}

/// Limits from `--time` / `--depth` / `--ai`.
fn limits(options: &mut Options, default_level: u32) -> Result<Limits, String> {
    let level = options.number("--ai", default_level)?;
    let time: Option<f64> = options
        .take("--time")
        .map(|t| t.parse())
        .transpose()
        .map_err(|_| "--time takes seconds".to_string())?;
    let depth: Option<u32> = options
        .take("--depth")
        .map(|d| d.parse())
        .transpose()
        .map_err(|_| "--depth takes a number".to_string())?;
    Ok(match (time, depth) {
        (None, None) => level_limits(level),
        (time, depth) => Limits {
            time: time.filter(|t| *t > 0.0).map(Duration::from_secs_f64),
            depth,
            nodes: None,
            whole_time: false,
        },
    })
}

/// Takes `--variant TITLE` (anywhere) out of `args`: the title asked for, if any.
fn take_variant(args: &mut Vec<String>) -> Result<Option<String>, String> {
    let Some(at) = args.iter().position(|a| a == "--variant") else {
        return Ok(None);
    };
    if at + 1 == args.len() {
        return Err("--variant needs a title (`help` lists the commands)".to_string());
    }
    args.remove(at);
    Ok(Some(args.remove(at)))
}

/// The command line of a compiled engine: `args` after the program name (a package of
/// several games takes `--variant TITLE` first, see [`run_variants`]), `make_engine`
/// the game's constructor, `rules_file` the name saved games give for it. A
/// `--variant` naming this engine's own game (ignoring case) is accepted, so that the
/// usage line holds for packages of one game too.
pub fn run_engine<T: Templates + 'static>(
    make_engine: fn() -> Engine<T>,
    rules_file: &str,
    mut args: Vec<String>,
) -> ExitCode {
    match take_variant(&mut args) {
        Ok(None) => {}
        Ok(Some(title)) => {
            let own = make_engine().tables.title;
            if !own.eq_ignore_ascii_case(&title) {
                eprintln!(
                    "error: no variant {:?}; this engine plays only {:?}",
                    zrf_runtime::printable(&title),
                    zrf_runtime::printable(&own)
                );
                return ExitCode::from(2);
            }
        }
        Err(usage) => {
            eprintln!("error: {usage}");
            return ExitCode::from(2);
        }
    }
    let mut options = Options { args };
    let command = if options.args.is_empty() {
        None
    } else {
        Some(options.args.remove(0))
    };
    if command.as_deref() != Some("serve") {
        end_quietly_on_a_closed_pipe();
    }
    let result = match command.as_deref() {
        None => {
            eprint!("{ENGINE_HELP}");
            return ExitCode::from(2);
        }
        Some("help" | "--help" | "-h") => {
            say(ENGINE_HELP);
            return ExitCode::SUCCESS;
        }
        Some("perft") => perft_command(&make_engine(), &mut options),
        Some("moves") => {
            let engine = make_engine();
            let start = engine.start();
            let mut out = io::stdout().lock();
            for mv in engine.legal_moves(&start) {
                if writeln!(out, "{}", engine.notation(&start, &mv)).is_err() {
                    break;
                }
            }
            Ok(())
        }
        Some("play") => play_command(&make_engine(), &make_engine, rules_file, &mut options),
        Some("selfplay") => selfplay_command(&make_engine, rules_file, &mut options),
        Some("uci") => crate::uci::run_uci(&make_engine).map_err(|e| format!("uci: {e}")),
        #[cfg(feature = "web")]
        Some("serve") => {
            let title = make_engine().tables.title.clone();
            let open = |_| {
                let session = crate::web::Session::new(make_engine(), rules_file);
                Ok(Box::new(session) as Box<dyn crate::web::Table>)
            };
            serve_command(vec![title], 0, &open, &mut options)
        }
        Some("info") => {
            say(&crate::board::about_text(&make_engine().tables));
            Ok(())
        }
        Some("bench") => options.number("--time", 2.0).map(|seconds| {
            say(&bench(&make_engine(), seconds));
        }),
        Some(other) => Err(format!("unknown command {other:?}")),
    };
    if let Some(report) = runaway_report() {
        eprintln!("error: {report}");
        return ExitCode::from(1);
    }
    finish(result, &options)
}

/// What to say when a move list of this process was cut short by the runtime's work
/// budgets ([`zrf_runtime::move_list_cut_short`]): the rules ran away, and what was
/// printed is incomplete. `None` when none was.
pub fn runaway_report() -> Option<String> {
    zrf_runtime::move_list_cut_short().then(|| {
        format!(
            "the rules ran away: a move list was cut short after {} loop iterations or {} \
             moves, so the moves and counts shown are incomplete",
            zrf_runtime::MAX_LIST_WORK,
            zrf_runtime::MAX_LIST_MOVES
        )
    })
}

/// The exit code for a command's result, warning of arguments it left unread.
fn finish(result: Result<(), String>, options: &Options) -> ExitCode {
    let leftover = options.args.first().cloned();
    match (result, leftover) {
        (Ok(()), None) => ExitCode::SUCCESS,
        (Ok(()), Some(extra)) => {
            eprintln!("warning: ignored argument {extra:?}");
            ExitCode::SUCCESS
        }
        (Err(message), _) => {
            eprintln!("error: {message}\n`help` lists the commands and their options");
            ExitCode::from(2)
        }
    }
}

fn perft_command<T: Templates>(engine: &Engine<T>, options: &mut Options) -> Result<(), String> {
    if options.args.is_empty() {
        return Err("perft needs a depth".to_string());
    }
    let depth: u32 = options
        .args
        .remove(0)
        .parse()
        .map_err(|_| "perft takes a depth, a number".to_string())?;
    let start = engine.start();
    let mut out = io::stdout().lock();
    for d in 1..=depth {
        let clock = Instant::now();
        let count = zrf_search::perft(engine, &start, d);
        let seconds = clock.elapsed().as_secs_f64();
        let line = format!(
            "depth {d}: {count} ({:.0} leaves/s)",
            count as f64 / seconds.max(1e-9)
        );
        if writeln!(out, "{line}").is_err() {
            break;
        }
    }
    Ok(())
}

fn play_command<T: Templates>(
    engine: &Engine<T>,
    make_engine: &fn() -> Engine<T>,
    rules_file: &str,
    options: &mut Options,
) -> Result<(), String> {
    let tables = &engine.tables;
    let mut humans = vec![false; tables.players.len()];
    for name in options.take_all("--human") {
        let player = tables.players.iter().position(|p| p.name == name);
        let player = player.ok_or_else(|| {
            format!(
                "no player {name:?}; the players are {}",
                tables.player_names().join(", ")
            )
        })?;
        humans[player] = true;
    }
    let settings = Settings {
        algorithm: options.engine("--engine")?,
        limits: limits(options, 3)?,
        seed: options.number("--seed", 1)?,
        threads: threads(options.number("--threads", 0)?),
        ..Settings::default()
    };
    let seats = Seats {
        humans,
        settings,
        max_turns: options.number("--max-turns", 1000)?,
        verbose: true,
        rules_file: rules_file.to_string(),
    };
    let save = options.take("--save");
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{}", zrf_runtime::printable(&tables.title));
    let played = play_game(engine, make_engine, &seats, &mut out, ask_at_terminal);
    let _ = writeln!(out, "{}", played.ending);
    if let Some(path) = save {
        let text = zrf_runtime::saved_game(tables, rules_file, &seats.humans, &played.records);
        let saved = crate::save_new_file(Path::new(&path), &text)?;
        let _ = writeln!(
            out,
            "saved {} records to {}",
            played.records.len(),
            saved.display()
        );
    }
    Ok(())
}

fn selfplay_command<T: Templates>(
    make_engine: &fn() -> Engine<T>,
    rules_file: &str,
    options: &mut Options,
) -> Result<(), String> {
    let save_dir = options.take("--save-dir");
    let no_save = options.flag("--no-save");
    let games = options.number("--games", 10)?;
    let time: f64 = options.number("--time", 0.1)?;
    let vs_time: f64 = options.number("--vs-time", time)?;
    let engine_a = options.engine("--engine")?;
    let engine_b = options.engine("--vs-engine")?;
    let threads = options.number("--threads", available_threads())?;
    let max_turns = options.number("--max-turns", 500)?;
    let depth: u32 = options.number("--depth", 0)?;
    let budget = |time| match depth {
        0 => Budget::Seconds(time),
        depth => Budget::Depth(depth),
    };
    let contenders = contenders(engine_a, budget(time), engine_b, budget(vs_time));
    let match_options = MatchOptions {
        games,
        max_turns,
        threads,
        seed: options.number("--seed", 1)?,
        max_seconds: None,
    };
    let tables = &make_engine().tables;
    let report = |game: &crate::MatchGame| {
        eprintln!(
            "game {}: {} after {} turns",
            game.number + 1,
            game.outcome
                .map_or("cut".to_string(), |o| o.describe(tables)),
            game.turns
        );
    };
    let folder = match no_save {
        true => None,
        false => Some(crate::save_folder(
            save_dir.as_deref().map(Path::new),
            rules_file,
        )?),
    };
    let played = play_match(make_engine, &contenders, &match_options, &report);
    let engine = make_engine();
    if let Some(folder) = folder {
        crate::save_games(&folder, &engine.tables, rules_file, &played)?;
        say(&format!(
            "saved {} games in {}\n",
            played.len(),
            folder.display()
        ));
    }
    let tally = Tally::of(&played, engine.tables.players.len());
    say(&tally.table(&contenders, &engine.tables.player_names()));
    Ok(())
}

/// What one side of a match may spend on a move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Seconds a move.
    Seconds(f64),
    /// Plies searched a move, whatever the time: the same games on any machine.
    Depth(u32),
}

impl Budget {
    fn limits(self) -> Limits {
        match self {
            Budget::Seconds(time) => Limits::time(Duration::from_secs_f64(time.max(0.001))),
            Budget::Depth(depth) => Limits::depth(depth),
        }
    }
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Budget::Seconds(time) => write!(f, "{time}s"),
            Budget::Depth(depth) => write!(f, "depth {depth}"),
        }
    }
}

/// The two sides of a match: an engine (or the game's choice) with what it may spend
/// on a move, each.
pub fn contenders(
    first: Option<Algorithm>,
    first_budget: Budget,
    second: Option<Algorithm>,
    second_budget: Budget,
) -> [Contender; 2] {
    let one = |algorithm: Option<Algorithm>, budget: Budget| {
        let name = algorithm.map_or("auto".to_string(), |a| a.to_string());
        Contender {
            label: format!("{name} {budget}"),
            settings: Settings {
                algorithm,
                limits: budget.limits(),
                table_megabytes: 16,
                ..Settings::default()
            },
        }
    };
    let mut pair = [one(first, first_budget), one(second, second_budget)];
    if pair[0].label == pair[1].label {
        pair[0].label.push_str(" (A)");
        pair[1].label.push_str(" (B)");
    }
    pair
}

/// Writes `text` to standard output; a closed pipe (`engine bench | head`) is not an
/// error worth a panic.
fn say(text: &str) {
    let _ = io::stdout().lock().write_all(text.as_bytes());
}

/// Cores to use by default.
pub fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// A thread count as given on a command line: 0 means every core.
pub fn threads(asked: usize) -> usize {
    if asked == 0 {
        available_threads()
    } else {
        asked
    }
}
