//! The `main` of every compiled engine ([`run_engine`], [`run_variants`]): its command
//! line ([`EngineCli`]) dispatched to the same commands `zrfc` runs on the interpreter
//! ([`crate::commands`]), so a compiled game plays exactly as the interpreted one
//! does; and the measures of `bench`.

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;
use zrf_runtime::{Engine, Game, Templates};
use zrf_search::{
    alpha_beta, mcts, Algorithm, AlphaBetaOptions, Iteration, Limits, MctsOptions, RulesEval,
    TranspositionTable,
};

use crate::args::{EngineCli, EngineCommand};
use crate::commands::{self, say, CommandResult, Failure};

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
        let room = eval.room_weight(kind as u16);
        let room_note = format!("{room:+} a square of room (learned)");
        if room != 0 {
            notes.push(&room_note);
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

/// One game of a compiled package of several, as its `main` lists them for
/// [`run_variants`].
#[cfg(feature = "web")]
pub struct Packaged {
    /// The game's title.
    pub title: &'static str,
    /// Its command line: [`run_command`] with its engine.
    pub run: fn(EngineCli) -> ExitCode,
    /// Its page for `serve` ([`crate::web::table`] with its engine).
    pub page: fn(&str) -> Box<dyn crate::web::Table>,
    /// Its game loop for `uci` ([`crate::uci::play_variant`] with its engine), so that
    /// `UCI_Variant` can switch between the package's games.
    pub uci: fn(&mut crate::uci::Session<'_>) -> Option<String>,
}

/// Parses a compiled engine's command line (`args` after the program name); `Err` is
/// the exit code after clap printed the help or the mistake.
pub fn parse_command_line(args: Vec<String>) -> Result<EngineCli, ExitCode> {
    let program = std::env::args()
        .next()
        .and_then(|path| {
            Path::new(&path)
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "engine".to_string());
    EngineCli::try_parse_from(std::iter::once(program).chain(args)).map_err(|err| {
        let _ = err.print();
        ExitCode::from(if err.use_stderr() { 2 } else { 0 })
    })
}

/// The command line of a compiled package of several games: `--variant TITLE`
/// (matched ignoring case; the first game by default) chooses the game the command
/// runs on, and `serve` and `uci` offer them all.
#[cfg(feature = "web")]
pub fn run_variants(games: &[Packaged], rules_file: &str, args: Vec<String>) -> ExitCode {
    let cli = match parse_command_line(args) {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let chosen = match cli.variant.as_deref() {
        None => Some(0),
        Some(title) => games
            .iter()
            .position(|g| g.title.eq_ignore_ascii_case(title)),
    };
    let Some(first) = chosen.filter(|&index| index < games.len()) else {
        eprintln!(
            "error: no variant {:?}; the variants are:",
            cli.variant.unwrap_or_default()
        );
        for game in games {
            eprintln!("  {}", zrf_runtime::printable(game.title));
        }
        return ExitCode::from(2);
    };
    match cli.command {
        EngineCommand::Serve(args) => {
            let titles = games.iter().map(|g| g.title.to_string()).collect();
            let open = |index: usize| Ok((games[index].page)(rules_file));
            finish(commands::serve(titles, first, &open, &args))
        }
        EngineCommand::Uci => {
            end_quietly_on_a_closed_pipe();
            let variants: Vec<crate::uci::Variant<'_>> = games
                .iter()
                .map(|g| crate::uci::Variant {
                    title: g.title.to_string(),
                    play: &g.uci,
                })
                .collect();
            finish(
                crate::uci::run_uci_variants(&variants, first)
                    .map_err(|e| Failure::failed(format!("uci: {e}"))),
            )
        }
        _ => (games[first].run)(cli),
    }
}

/// The command line of a compiled engine: `args` after the program name (see
/// [`EngineCli`]), `make_engine` the game's constructor, `rules_file` the name saved
/// games give for it.
pub fn run_engine<T: Templates + 'static>(
    make_engine: fn() -> Engine<T>,
    rules_file: &str,
    args: Vec<String>,
) -> ExitCode {
    match parse_command_line(args) {
        Ok(cli) => run_command(make_engine, rules_file, cli),
        Err(code) => code,
    }
}

/// Runs a parsed command line on the engine `make_engine` makes. A `--variant` naming
/// this engine's own game (ignoring case) is accepted, so that the usage holds for
/// packages of one game too.
pub fn run_command<T: Templates + 'static>(
    make_engine: fn() -> Engine<T>,
    rules_file: &str,
    cli: EngineCli,
) -> ExitCode {
    if let Some(title) = &cli.variant {
        let own = make_engine().tables.title;
        if !own.eq_ignore_ascii_case(title) {
            eprintln!(
                "error: no variant {:?}; this engine plays only {:?}",
                zrf_runtime::printable(title),
                zrf_runtime::printable(&own)
            );
            return ExitCode::from(2);
        }
    }
    #[cfg(feature = "web")]
    let serving = matches!(cli.command, EngineCommand::Serve(_));
    #[cfg(not(feature = "web"))]
    let serving = false;
    if !serving {
        end_quietly_on_a_closed_pipe();
    }
    let result = match cli.command {
        EngineCommand::Perft(args) => commands::perft(&make_engine, &args),
        EngineCommand::Moves(args) => commands::moves(&make_engine(), &args),
        EngineCommand::Show(args) => commands::show(&make_engine(), &args),
        EngineCommand::Play(args) => {
            commands::play(&make_engine(), &make_engine, &args, rules_file)
        }
        EngineCommand::Selfplay(args) => {
            let tables = make_engine().tables;
            let report = |game: &crate::MatchGame| {
                eprintln!(
                    "game {}: {} after {} turns",
                    game.number + 1,
                    game.outcome
                        .map_or("cut".to_string(), |o| o.describe(&tables)),
                    game.turns
                );
            };
            commands::selfplay(&make_engine, &args, rules_file, &report)
        }
        EngineCommand::Bench(args) => {
            say(&bench(&make_engine(), args.time));
            Ok(())
        }
        #[cfg(feature = "web")]
        EngineCommand::Serve(args) => {
            let title = make_engine().tables.title.clone();
            let open = |_| {
                let session = crate::web::Session::new(make_engine(), rules_file);
                Ok(Box::new(session) as Box<dyn crate::web::Table>)
            };
            commands::serve(vec![title], 0, &open, &args)
        }
        EngineCommand::Info => {
            say(&crate::board::about_text(&make_engine().tables));
            Ok(())
        }
        EngineCommand::Uci => {
            crate::uci::run_uci(&make_engine).map_err(|e| Failure::failed(format!("uci: {e}")))
        }
    };
    if let Some(report) = runaway_report() {
        eprintln!("error: {report}");
        return ExitCode::from(1);
    }
    finish(result)
}

/// Makes writing to a closed pipe (`engine moves | head`) end the program quietly, as
/// it does Unix tools, instead of panicking in `println!`: Rust starts programs with
/// SIGPIPE ignored, so that the write fails; its default action ends the process
/// there. Not for servers, whose clients may hang up.
pub fn end_quietly_on_a_closed_pipe() {
    #[cfg(unix)]
    sigpipe::reset();
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

/// The exit code for a command's result, saying why it failed.
fn finish(result: CommandResult) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("error: {}", failure.message);
            ExitCode::from(failure.code)
        }
    }
}
