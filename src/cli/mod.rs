//! The `zrfc` command line: argument parsing and output only; the work is done by the
//! library stages.
//!
//! Exit codes: 0 success (warnings allowed), 1 diagnostics with errors (or a corpus
//! regression), 2 usage or IO errors.

mod build;
mod corpus;
mod corpus_selfplay;
mod differential;
mod expectations;
mod pipeline;
mod play;
mod replay;
mod tune;

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};
use zrf_play::args;
use zrf_runtime::{printable, printable_lines};

use crate::diag::{self, Diagnostic};
use crate::expand::{ExpandOptions, Expanded, GameKind};
use crate::frontend;
use crate::ir;
use crate::source::SourceMap;
use crate::syntax;

/// Compile Zillions of Games rule files (.zrf) into native game engines.
///
/// Start with `zrfc check FILE.zrf` to see what the toolchain makes of a rules file.
#[derive(Parser, Debug)]
#[command(name = "zrfc", version, max_term_width = 100)]
pub struct Cli {
    /// When to colour diagnostics. `auto` colours only on a terminal and honours NO_COLOR.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto, global = true)]
    color: ColorWhen,

    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Read one rules file and its includes; print a summary, the tree or the text.
    ///
    /// Example: `zrfc parse zrf-samples/tictactoe.zrf --tree`
    Parse {
        /// The .zrf file to read.
        file: PathBuf,
        /// Print every node with its line:column range.
        #[arg(long, conflicts_with = "print")]
        tree: bool,
        /// Print the file back as ZRF text (comments dropped, layout normalised).
        #[arg(long)]
        print: bool,
        #[command(flatten)]
        includes: IncludeArgs,
    },
    /// Check rules files and report every problem found, with its location.
    ///
    /// Runs the whole front end: decoding, syntax, includes, macro expansion, variant
    /// inheritance, and the checks that lower every game and variant to the typed IR.
    ///
    /// Example: `zrfc check games/*.zrf --message-format json`
    Check {
        /// One or more .zrf files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// `human` renders diagnostics for people on stderr; `json` prints one JSON object
        /// per diagnostic on stdout (file, byte and line/column range, code, message).
        #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
        message_format: MessageFormat,
        /// Also print the title of every game and variant (variants indented).
        #[arg(long)]
        list: bool,
        /// Do not report warnings of this code (`--allow W0303`); repeatable.
        #[arg(long, value_name = "CODE")]
        allow: Vec<String>,
        /// Report warnings of this code as errors (exit 1); repeatable.
        #[arg(long, value_name = "CODE")]
        deny: Vec<String>,
        #[command(flatten)]
        front_end: FrontEndArgs,
    },
    /// Lay rules files out again: indentation by depth, one space between words, the
    /// author's line breaks and every comment kept. Only blanks change, so the file
    /// means exactly what it meant; a file whose parentheses do not balance is left as
    /// it is.
    ///
    /// Example: `zrfc fmt --check zrf-samples/*.zrf`
    Fmt {
        /// One or more .zrf (or included) files, rewritten in place.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Change nothing: list the files that would change and exit 1 if any would.
        #[arg(long)]
        check: bool,
    },
    /// Explain a diagnostic code: what it means, how to mend it, and an input that gets
    /// it. Without a code, lists every code.
    ///
    /// Example: `zrfc explain E0301`
    Explain {
        /// The code, as diagnostics show it (`E0301`, `w0401`).
        code: Option<String>,
    },
    /// Serve the Language Server Protocol on stdin and stdout, for editors: diagnostics
    /// as you type (those of `zrfc check`), hover, go to definition, find references,
    /// document symbols, completion and semantic highlighting. Started by the editor,
    /// not by hand; the README shows the set-up for VS Code, Neovim and Helix.
    ///
    /// Example (Helix's languages.toml): `language-servers = ["zrfc"]` with
    /// `[language-server.zrfc] command = "zrfc", args = ["lsp"]`
    Lsp,
    /// Print a file after macro expansion, or one game or variant with what it inherits.
    ///
    /// Example: `zrfc expand zrf-samples/checkers.zrf --variant "English Checkers"`
    Expand {
        /// The .zrf file to expand.
        file: PathBuf,
        /// Print only this game or variant (by title), inherited sections merged in.
        #[arg(long, value_name = "TITLE")]
        variant: Option<String>,
        #[command(flatten)]
        front_end: FrontEndArgs,
    },
    /// Print the typed IR of a game or variant: the board, pieces, templates and rules
    /// exactly as the interpreter and code generator will see them.
    ///
    /// Example: `zrfc ir zrf-samples/checkers.zrf`
    Ir {
        /// The .zrf file.
        file: PathBuf,
        /// The game or variant (by title); the first game when absent.
        #[arg(long, value_name = "TITLE")]
        variant: Option<String>,
        #[command(flatten)]
        front_end: FrontEndArgs,
    },
    /// Count move paths (perft) from the start position with the reference interpreter.
    ///
    /// Counts one leaf per complete turn (a whole chain of partial moves). Prints the count
    /// at every depth up to N and the speed; `--divide` splits the last depth by first move.
    ///
    /// Example: `zrfc perft zrf-samples/checkers.zrf --depth 6`
    Perft {
        /// The .zrf file.
        file: PathBuf,
        /// The game or variant (by title); the first game when absent.
        #[arg(long, value_name = "TITLE")]
        variant: Option<String>,
        #[command(flatten)]
        perft: args::PerftArgs,
        #[command(flatten)]
        front_end: FrontEndArgs,
    },
    /// List the legal moves in saved-game notation, from the start or after some moves.
    ///
    /// Example: `zrfc moves zrf-samples/checkers.zrf --after "Man c3 - d4"`
    Moves {
        /// The .zrf file.
        file: PathBuf,
        /// The game or variant (by title); the first game when absent.
        #[arg(long, value_name = "TITLE")]
        variant: Option<String>,
        #[command(flatten)]
        moves: args::MovesArgs,
        #[command(flatten)]
        front_end: FrontEndArgs,
    },
    /// Draw a position: at the start, or after some moves, as a text board or an SVG.
    ///
    /// Positions are laid out from the rectangles the rules give them (grids, hex and
    /// offset grids, explicit positions); pieces are chess glyphs where the names are
    /// chess pieces', else letters (first player in capitals); pieces off the board are
    /// listed beside it, and hands kept on the grid (positions outside a `board-zone`,
    /// or in a `hand-zone`) are drawn apart from it. Games without drawable positions
    /// list the occupied ones.
    ///
    /// Example: `zrfc show zrf-samples/chess.zrf --after e4 c5 Nf3 --svg board.svg`
    Show {
        /// The .zrf file.
        file: PathBuf,
        /// The game or variant (by title); the first game when absent.
        #[arg(long, value_name = "TITLE")]
        variant: Option<String>,
        #[command(flatten)]
        show: args::ShowArgs,
        #[command(flatten)]
        front_end: FrontEndArgs,
    },
    /// Play a game against the computer (or watch it play itself), and save it as a
    /// Zillions saved game.
    ///
    /// Players named with `--human` choose their moves at the terminal (by number or in
    /// notation); the computer moves the others, with the search chosen for the game
    /// (alpha-beta, or Monte Carlo tree search for placement games) or the one given by
    /// `--engine`. What each search found (depth, score, expected line) goes to stderr.
    /// Every record is printed as played, and the game is written to a .zsg file that
    /// Zillions and `zrfc replay` can open.
    ///
    /// Example: `zrfc play zrf-samples/chess.zrf --human White --time 2`
    Play {
        /// The .zrf file.
        file: PathBuf,
        /// The game or variant (by title); the first game when absent.
        #[arg(long, value_name = "TITLE")]
        variant: Option<String>,
        #[command(flatten)]
        play: args::PlayArgs,
        #[command(flatten)]
        evaluation: EvalArgs,
        #[command(flatten)]
        front_end: FrontEndArgs,
    },
    /// Play a match between two computer players and print a results table.
    ///
    /// The two sides swap colours from game to game; games run in parallel, one per
    /// core. Prints wins, draws and losses per engine and per side, the mean length and
    /// the search speed. Every game is saved as a .zsg file, in a new folder
    /// `selfplay-NAME` of the working directory unless `--save-dir` names one
    /// (`--no-save` keeps none).
    ///
    /// Example: `zrfc selfplay zrf-samples/chess.zrf --games 20 --time 0.1 --vs-time 1`
    Selfplay {
        /// The .zrf file.
        file: PathBuf,
        /// The game or variant (by title); the first game when absent.
        #[arg(long, value_name = "TITLE")]
        variant: Option<String>,
        #[command(flatten)]
        selfplay: args::SelfplayArgs,
        #[command(flatten)]
        evaluation: EvalArgs,
        #[command(flatten)]
        front_end: FrontEndArgs,
    },
    /// Speak the Universal Chess Interface on stdin and stdout, with the interpreter.
    ///
    /// For chess GUIs, tournament managers and python-chess. Supported: uci, isready,
    /// ucinewgame, setoption (Hash, Threads, Engine, Seed, UCI_Chess960), position
    /// startpos|fen FEN [moves ...], go (movetime, depth, nodes, wtime/btime/winc/binc/
    /// movestogo, infinite), stop, quit. Moves on boards of squares named like a1 are
    /// from-square, to-square and a promotion letter (e2e4, e7e8q; drops P@e4;
    /// castling by the king's squares, e1g1, or e1h1 under UCI_Chess960); other games
    /// use the saved-game notation with `_` for spaces. A refused position (an illegal
    /// move, a FEN the game cannot hold) is said in an `info string`, and `go` then
    /// answers `bestmove 0000`. Compiled engines have the same `uci` command.
    ///
    /// Example: `zrfc uci zrf-samples/chess.zrf`
    Uci {
        /// The .zrf file.
        file: PathBuf,
        /// The game or variant (by title); the first game when absent.
        #[arg(long, value_name = "TITLE")]
        variant: Option<String>,
        #[command(flatten)]
        evaluation: EvalArgs,
        #[command(flatten)]
        front_end: FrontEndArgs,
    },
    /// Play in a web browser: serves a page on this machine with the board to click on,
    /// the computer's replies, undo and redo, the variants, what the rules say of the
    /// game, the move list and a download of the game as a Zillions saved game.
    ///
    /// Click a piece, then where it goes (for a chain of partial moves, click on
    /// through each step; a drop: click the square). Nothing is fetched from elsewhere;
    /// the server answers only this machine unless `--address` says otherwise.
    ///
    /// Example: `zrfc serve zrf-samples/chess.zrf`, then open http://127.0.0.1:8080/
    Serve {
        /// The .zrf file.
        file: PathBuf,
        /// The game or variant the page opens with (by title); the first game when absent.
        #[arg(long, value_name = "TITLE")]
        variant: Option<String>,
        #[command(flatten)]
        serve: args::ServeArgs,
        #[command(flatten)]
        front_end: FrontEndArgs,
    },
    /// Print what the rules say of a game for players: title, players, description,
    /// history, strategy and each piece's help, as Zillions' "About this game" did.
    ///
    /// Example: `zrfc info zrf-samples/chess.zrf`
    Info {
        /// The .zrf file.
        file: PathBuf,
        /// The game or variant (by title); the first game when absent.
        #[arg(long, value_name = "TITLE")]
        variant: Option<String>,
        #[command(flatten)]
        front_end: FrontEndArgs,
    },
    /// Show how the computer judges a game: each piece type's value (worked out from its
    /// mobility on the empty board and its promotions) and the search chosen.
    ///
    /// Example: `zrfc eval zrf-samples/chess.zrf`
    Eval {
        /// The .zrf file.
        file: PathBuf,
        /// The game or variant (by title); the first game when absent.
        #[arg(long, value_name = "TITLE")]
        variant: Option<String>,
        #[command(flatten)]
        evaluation: EvalArgs,
        #[command(flatten)]
        front_end: FrontEndArgs,
    },
    /// Measure the interpreter on one game: perft, random playouts per second,
    /// alpha-beta nodes per second and depth reached, Monte Carlo iterations per second.
    ///
    /// Compiled engines have the same `bench` command (`zrfc build`, then `ENGINE bench`).
    ///
    /// Example: `zrfc bench zrf-samples/checkers.zrf --time 1`
    Bench {
        /// The .zrf file.
        file: PathBuf,
        /// The game or variant (by title); the first game when absent.
        #[arg(long, value_name = "TITLE")]
        variant: Option<String>,
        #[command(flatten)]
        bench: args::BenchArgs,
        #[command(flatten)]
        front_end: FrontEndArgs,
    },
    /// Run the pipeline over every .zrf under a folder and compare with expectations.
    ///
    /// Prints one status line per file and a closing `N passed, N failed` line. With
    /// `--expect`, a file passes when its status matches the recorded one (or became
    /// `ok`); any other change fails the run. `--bless` rewrites the expectations.
    ///
    /// Example: `zrfc corpus ../shared/corpus --expect tests/corpus/expected.tsv`
    #[command(hide = true)]
    Corpus(corpus::CorpusArgs),
    /// Replay a saved game (.zsg) recorded by Zillions, checking every record against the
    /// engine's legal moves.
    ///
    /// Each move record must be reproduced by one of the legal moves (or continuations of
    /// a partial move) of the side to move: same pieces, owners and attributes on every
    /// square afterwards, same "partial move continues" status. At the first record that
    /// no move reproduces, prints the position, the engine's moves and the nearest one's
    /// differences, and exits 1.
    ///
    /// Example: `zrfc replay games/Dobutsu.zsg --rules games/DoubutsuShogi.zrf`
    Replay(replay::ReplayArgs),
    /// Replay every saved game listed in an oracles folder's `zsg-index.tsv`.
    ///
    /// Files with scope `replay` or `setup-only` are replayed (against `recorded_zrf` when
    /// the index names it, else `corpus_zrf`); `format-only` files are only read. Prints
    /// `replayed/total` per file and `N passed, N failed`; with `--expect`, fewer records
    /// replayed than recorded is a regression.
    ///
    /// Example: `zrfc corpus-replay ../shared/oracles --expect tests/oracles/expected.tsv`
    #[command(hide = true)]
    CorpusReplay(replay::CorpusReplayArgs),
    /// Compile rules files into native engines: Rust code on the zrf runtime.
    ///
    /// By default writes a Cargo package: the game as a library, and a `main` with the
    /// commands `perft DEPTH`, `moves`, `play` (against the computer), `selfplay`,
    /// `bench`, `uci`, `serve` (the web page) and `info`; `help` in the package lists
    /// their options. `cargo run --release -- perft 5` in the package then runs the
    /// compiled engine. `--emit rs` writes the module alone.
    ///
    /// Example: `zrfc build zrf-samples/chess.zrf -o chess-engine`
    Build(build::BuildArgs),
    /// Learn a game's evaluation from self-play games: piece values, square tables
    /// (shared between the sides by the board's symmetry), the safety of royal pieces
    /// and each type's room, fitted by logistic regression to the games' results (and,
    /// with `--result-weight` below 1, to the self-play searches' scores).
    ///
    /// Plays `--games` games (in parallel; each seeded by its number, at `--nodes` a
    /// move), keeps their positions and scores in `FILE.eval.jsonl` (a run that finds
    /// it plays only the games missing), fits, and writes `FILE.eval` for `--eval` (play, uci,
    /// selfplay, eval) and `zrfc build --eval`. `--shard K/N` plays a share of the games
    /// for another machine; `--from` learns from the shares' files.
    ///
    /// Example: `zrfc tune zrf-samples/chess.zrf --games 400 -o chess.eval`
    Tune(tune::TuneArgs),
    /// Compile corpus games and check the compiled engines against the interpreter.
    ///
    /// Generates the games into Cargo packages (generated code must compile without
    /// warnings), builds them in release and compares, game by game, perft counts up to
    /// a node budget and seeded random playouts with the interpreter's. `--choose N`
    /// writes a sample of N games covering every construct the corpus uses.
    ///
    /// Example: `zrfc differential ../shared/corpus --sample tests/codegen/sample.txt
    /// --expect tests/codegen/expected.tsv`
    #[command(hide = true)]
    Differential(differential::DifferentialArgs),
    /// Let the computer play a few short games of each corpus game: search and
    /// evaluation must run on every kind of rules without a panic.
    ///
    /// Plays `--games` games per corpus game (default: every game that lowers; `--sample`
    /// names some) at `--time` seconds a move, cutting games at `--max-turns`, and
    /// prints the results; with `--expect`, a game that played and no longer does fails
    /// the run.
    ///
    /// Example: `zrfc corpus-selfplay ../shared/corpus --sample tests/codegen/sample.txt
    /// --expect tests/search/expected.tsv`
    #[command(hide = true)]
    CorpusSelfplay(corpus_selfplay::CorpusSelfplayArgs),
}

/// Include search paths.
#[derive(Args, Debug, Clone, Default)]
struct IncludeArgs {
    /// A folder searched for `(include "...")` files after the including file's own
    /// folder; repeatable, searched in order.
    #[arg(short = 'I', long = "include-dir", value_name = "DIR")]
    include_dirs: Vec<PathBuf>,
    /// Read `(include "...")` files wherever they are: by absolute paths, and outside
    /// the rules file's folder and the `-I` folders (refused by default).
    #[arg(long)]
    include_anywhere: bool,
}

impl IncludeArgs {
    fn options(&self) -> syntax::LoadOptions {
        syntax::LoadOptions {
            include_dirs: self.include_dirs.clone(),
            include_anywhere: self.include_anywhere,
        }
    }
}

/// `--macro-depth-limit`: a number from 1 to [`crate::expand::CALL_DEPTH_CEILING`].
fn parse_macro_depth_limit(text: &str) -> Result<usize, String> {
    let ceiling = crate::expand::CALL_DEPTH_CEILING;
    match text.parse::<usize>() {
        Ok(n) if (1..=ceiling).contains(&n) => Ok(n),
        _ => Err(format!("expected a number from 1 to {ceiling}")),
    }
}

/// Include paths and the limits that keep macro expansion bounded.
#[derive(Args, Debug, Clone)]
struct FrontEndArgs {
    #[command(flatten)]
    includes: IncludeArgs,
    /// Deepest nesting of macro calls before expansion stops with an error (recursive
    /// macros never finish; real files nest 12 deep at most). At most 1000.
    #[arg(
        long,
        value_name = "N",
        default_value_t = ExpandOptions::default().max_call_depth,
        value_parser = parse_macro_depth_limit
    )]
    macro_depth_limit: usize,
    /// Most nodes macro expansion may create in one file (the largest real files need
    /// 2.8 million; exponential macros need more).
    #[arg(long, value_name = "N", default_value_t = ExpandOptions::default().max_nodes)]
    max_expanded_nodes: usize,
    /// Most bytes of names and strings macro expansion may make by pasting parameters
    /// into them, in one file.
    #[arg(long, value_name = "BYTES", default_value_t = ExpandOptions::default().max_pasted_bytes)]
    max_pasted_bytes: usize,
}

impl FrontEndArgs {
    fn options(&self) -> frontend::FrontEndOptions {
        frontend::FrontEndOptions {
            load: self.includes.options(),
            expand: ExpandOptions {
                max_call_depth: self.macro_depth_limit,
                max_nodes: self.max_expanded_nodes,
                max_pasted_bytes: self.max_pasted_bytes,
                ..ExpandOptions::default()
            },
        }
    }
}

/// A learned evaluation to play with.
#[derive(Args, Debug)]
struct EvalArgs {
    /// Judge positions with this learned evaluation (`zrfc tune` writes it) instead of
    /// the one worked out from the rules.
    #[arg(long = "eval", value_name = "FILE.eval")]
    eval: Option<PathBuf>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ColorWhen {
    Auto,
    Always,
    Never,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum MessageFormat {
    Human,
    Json,
}

/// How many diagnostics of one file are shown before the rest are counted.
const SHOWN_PER_FILE: usize = 50;

/// Runs `zrfc` with the process arguments.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let _ = err.print();
            return ExitCode::from(if err.use_stderr() { 2 } else { 0 });
        }
    };
    if !matches!(cli.command, Command::Serve { .. }) {
        zrf_play::driver::end_quietly_on_a_closed_pipe();
    }
    let color = color_choice(cli.color);
    // The corpus runs report runaway rules per game; the rest, for their one game.
    let one_game = !matches!(
        cli.command,
        Command::Corpus(_)
            | Command::CorpusReplay(_)
            | Command::Differential(_)
            | Command::CorpusSelfplay(_)
    );
    let code = match cli.command {
        Command::Parse {
            file,
            tree,
            print,
            includes,
        } => parse_command(&file, tree, print, &includes.options(), color),
        Command::Check {
            files,
            message_format,
            list,
            allow,
            deny,
            front_end,
        } => match warning_levels(&allow, &deny) {
            Ok(levels) => check_command(
                &files,
                message_format,
                list,
                &levels,
                &front_end.options(),
                color,
            ),
            Err(message) => {
                eprintln!("error: {message}");
                2
            }
        },
        Command::Explain { code } => explain_command(code.as_deref()),
        Command::Lsp => match crate::lsp::run_stdio() {
            Ok(()) => 0,
            Err(err) => {
                eprintln!("error: the language server stopped: {err}");
                1
            }
        },
        Command::Fmt { files, check } => fmt_command(&files, check),
        Command::Expand {
            file,
            variant,
            front_end,
        } => expand_command(&file, variant.as_deref(), &front_end.options(), color),
        Command::Ir {
            file,
            variant,
            front_end,
        } => ir_command(&file, variant.as_deref(), &front_end.options(), color),
        Command::Perft {
            file,
            variant,
            perft,
            front_end,
        } => play::perft(
            &file,
            variant.as_deref(),
            &perft,
            &front_end.options(),
            color,
        ),
        Command::Moves {
            file,
            variant,
            moves,
            front_end,
        } => play::moves(
            &file,
            variant.as_deref(),
            &moves,
            &front_end.options(),
            color,
        ),
        Command::Play {
            file,
            variant,
            play,
            evaluation,
            front_end,
        } => play::play(
            &file,
            variant.as_deref(),
            &play,
            &front_end.options(),
            evaluation.eval.as_deref(),
            color,
        ),
        Command::Show {
            file,
            variant,
            show,
            front_end,
        } => play::show(
            &file,
            variant.as_deref(),
            &show,
            &front_end.options(),
            color,
        ),
        Command::Selfplay {
            file,
            variant,
            selfplay,
            evaluation,
            front_end,
        } => play::selfplay(
            &file,
            variant.as_deref(),
            &selfplay,
            &front_end.options(),
            evaluation.eval.as_deref(),
            color,
        ),
        Command::Eval {
            file,
            variant,
            evaluation,
            front_end,
        } => play::eval(
            &file,
            variant.as_deref(),
            &front_end.options(),
            evaluation.eval.as_deref(),
            color,
        ),
        Command::Info {
            file,
            variant,
            front_end,
        } => play::info(&file, variant.as_deref(), &front_end.options(), color),
        Command::Serve {
            file,
            variant,
            serve,
            front_end,
        } => play::serve(
            &file,
            variant.as_deref(),
            &serve,
            &front_end.options(),
            color,
        ),
        Command::Uci {
            file,
            variant,
            evaluation,
            front_end,
        } => play::uci(
            &file,
            variant.as_deref(),
            &front_end.options(),
            evaluation.eval.as_deref(),
            color,
        ),
        Command::Bench {
            file,
            variant,
            bench,
            front_end,
        } => play::bench(
            &file,
            variant.as_deref(),
            bench.time,
            &front_end.options(),
            color,
        ),
        Command::Corpus(args) => corpus::run(&args),
        Command::Replay(args) => replay::replay(&args, color),
        Command::CorpusReplay(args) => replay::corpus_replay(&args),
        Command::Build(args) => build::build(&args),
        Command::Tune(args) => tune::tune(&args, color),
        Command::Differential(args) => differential::differential(&args),
        Command::CorpusSelfplay(args) => corpus_selfplay::run(&args),
    };
    if let Some(report) = zrf_play::driver::runaway_report().filter(|_| one_game) {
        eprintln!("error: {report}");
        return ExitCode::from(code.max(1));
    }
    ExitCode::from(code)
}

/// A progress bar on stderr when it is a terminal (hidden otherwise, and for `len` 0).
fn progress_bar(len: u64) -> indicatif::ProgressBar {
    if len == 0 || !io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed} {wide_msg}")
    {
        bar.set_style(style);
    }
    bar
}

fn color_choice(when: ColorWhen) -> ColorChoice {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    match when {
        ColorWhen::Always => ColorChoice::Always,
        ColorWhen::Never => ColorChoice::Never,
        ColorWhen::Auto if no_color || !io::stderr().is_terminal() => ColorChoice::Never,
        ColorWhen::Auto => ColorChoice::Auto,
    }
}

/// Renders diagnostics on stderr, at most [`SHOWN_PER_FILE`] of them.
fn report_human(sources: &SourceMap, diagnostics: &[Diagnostic], color: ColorChoice) {
    let mut stderr = StandardStream::stderr(color);
    let shown = &diagnostics[..diagnostics.len().min(SHOWN_PER_FILE)];
    let _ = diag::emit(sources, shown, &mut stderr);
    if diagnostics.len() > shown.len() {
        let _ = writeln!(
            stderr,
            "... and {} more diagnostics not shown",
            diagnostics.len() - shown.len()
        );
    }
}

fn report_json(sources: &SourceMap, diagnostics: &[Diagnostic]) {
    let mut stdout = io::stdout().lock();
    for diagnostic in diagnostics {
        let _ = writeln!(stdout, "{}", diag::to_json(sources, diagnostic));
    }
}

fn parse_command(
    file: &Path,
    tree: bool,
    print: bool,
    options: &syntax::LoadOptions,
    color: ColorChoice,
) -> u8 {
    let mut sources = SourceMap::new();
    let loaded = match syntax::load(file, &syntax::FsLoader, options, &mut sources) {
        Ok(loaded) => loaded,
        Err(err) => {
            eprintln!("error: {err}");
            return 2;
        }
    };
    let diagnostics: Vec<Diagnostic> = loaded.errors.iter().map(|e| e.to_diagnostic()).collect();
    let mut stdout = io::stdout().lock();
    for parsed in &loaded.files {
        let source = sources.file(parsed.file);
        let _ = if tree {
            let dump = syntax::to_tree_dump(&sources, &parsed.forms);
            writeln!(stdout, "; {}", printable(source.name()))
                .and_then(|()| write!(stdout, "{}", printable_lines(&dump)))
        } else if print {
            let text = syntax::to_zrf(&parsed.forms);
            writeln!(stdout, "; {}", printable(source.name()))
                .and_then(|()| write!(stdout, "{}", printable_lines(&text)))
        } else {
            let nodes: usize = parsed.forms.iter().map(syntax::Node::count).sum();
            let heads = pipeline::form_heads(&parsed.forms);
            writeln!(
                stdout,
                "{}: {} bytes ({}), {} lines, {} top-level forms ({}), {} nodes",
                source.name(),
                source.bytes().len(),
                source.encoding(),
                source.line_count(),
                parsed.forms.len(),
                heads,
                nodes,
            )
        };
    }
    drop(stdout);
    report_human(&sources, &diagnostics, color);
    exit_code(&diagnostics)
}

/// What `--allow` and `--deny` ask of warnings, by code.
struct WarningLevels {
    allowed: Vec<&'static str>,
    denied: Vec<&'static str>,
}

/// The codes given to `--allow` and `--deny`, each a known warning code.
fn warning_levels(allow: &[String], deny: &[String]) -> Result<WarningLevels, String> {
    let codes = |given: &[String]| -> Result<Vec<&'static str>, String> {
        given
            .iter()
            .map(|code| match diag::codes::lookup(code.trim()) {
                Some(entry) if entry.code.starts_with('W') => Ok(entry.code),
                Some(entry) => Err(format!("{} is an error, not a warning", entry.code)),
                None => Err(format!(
                    "no diagnostic code `{}`; `zrfc explain` lists them",
                    diag::capped(code)
                )),
            })
            .collect()
    };
    Ok(WarningLevels {
        allowed: codes(allow)?,
        denied: codes(deny)?,
    })
}

impl WarningLevels {
    /// `diagnostics` without the allowed warnings, the denied ones made errors.
    fn apply(&self, diagnostics: &[Diagnostic]) -> Vec<Diagnostic> {
        diagnostics
            .iter()
            .filter(|d| d.is_error() || !self.allowed.contains(&d.code))
            .map(|d| {
                let mut d = d.clone();
                if self.denied.contains(&d.code) {
                    d.severity = diag::Severity::Error;
                }
                d
            })
            .collect()
    }
}

fn check_command(
    files: &[PathBuf],
    format: MessageFormat,
    list: bool,
    levels: &WarningLevels,
    options: &frontend::FrontEndOptions,
    color: ColorChoice,
) -> u8 {
    let mut worst = 0;
    for file in files {
        let mut sources = SourceMap::new();
        let front_end = match frontend::run(file, &syntax::FsLoader, options, &mut sources) {
            Ok(front_end) => front_end,
            Err(err) => {
                eprintln!("error: {err}");
                worst = 2;
                continue;
            }
        };
        if list {
            if let Some(expanded) = &front_end.expanded {
                print_titles(expanded);
            }
        }
        let mut found = front_end.diagnostics.clone();
        if let Some(expanded) = &front_end.expanded {
            found.extend(crate::lint::all(&front_end, expanded));
        }
        let diagnostics = &levels.apply(&found);
        match format {
            MessageFormat::Human => {
                report_human(&sources, diagnostics, color);
                let errors = diagnostics.iter().filter(|d| d.is_error()).count();
                let warnings = diagnostics.len() - errors;
                if !diagnostics.is_empty() {
                    eprintln!(
                        "{}: {errors} error{}, {warnings} warning{}",
                        file.display(),
                        if errors == 1 { "" } else { "s" },
                        if warnings == 1 { "" } else { "s" },
                    );
                } else if let Some(expanded) = &front_end.expanded {
                    let count = |kind| expanded.games.iter().filter(|g| g.kind == kind).count();
                    let (games, variants) = (count(GameKind::Game), count(GameKind::Variant));
                    println!(
                        "ok: {}: {games} game{}, {variants} variant{}",
                        file.display(),
                        if games == 1 { "" } else { "s" },
                        if variants == 1 { "" } else { "s" },
                    );
                }
            }
            MessageFormat::Json => report_json(&sources, diagnostics),
        }
        worst = worst.max(exit_code(diagnostics));
    }
    worst
}

fn print_titles(expanded: &Expanded) {
    let mut stdout = io::stdout().lock();
    for game in &expanded.games {
        let title = game.title.map_or("(untitled)", |t| expanded.name(t));
        let indent = if game.kind == GameKind::Variant {
            "  "
        } else {
            ""
        };
        let default = if game.default { "  (default)" } else { "" };
        let title = printable(title);
        let _ = writeln!(stdout, "{indent}{title}{default}");
    }
}

/// Runs the front end on one file and reports its diagnostics (only the errors when
/// `errors_only`); `Err` is the exit code.
fn run_front_end(
    file: &Path,
    options: &frontend::FrontEndOptions,
    color: ColorChoice,
    errors_only: bool,
) -> Result<frontend::FrontEnd, u8> {
    let mut sources = SourceMap::new();
    let front_end =
        frontend::run(file, &syntax::FsLoader, options, &mut sources).map_err(|err| {
            eprintln!("error: {err}");
            2u8
        })?;
    let shown: Vec<Diagnostic> = front_end
        .diagnostics
        .iter()
        .filter(|d| !errors_only || d.is_error())
        .cloned()
        .collect();
    report_human(&sources, &shown, color);
    Ok(front_end)
}

fn no_such_game(file: &Path, title: &str) {
    eprintln!(
        "error: no game or variant titled {title:?} in {}",
        file.display()
    );
    eprintln!(
        "help: `zrfc check --list {}` lists the titles",
        file.display()
    );
}

/// The game or variant titled `title` (exactly, else ignoring case), or the first game;
/// `Err` is the exit code after saying why there is none.
fn choose_game(
    file: &Path,
    front_end: frontend::FrontEnd,
    title: Option<&str>,
) -> Result<frontend::GameResult, u8> {
    let games = front_end.games;
    // A file without games has said why in its diagnostics, already shown.
    if games.is_empty() && front_end.diagnostics.iter().any(Diagnostic::is_error) {
        return Err(1);
    }
    let index = match title {
        None => Some(0),
        Some(title) => games.iter().position(|g| g.title == title).or_else(|| {
            games
                .iter()
                .position(|g| g.title.eq_ignore_ascii_case(title))
        }),
    };
    if title.is_none() && games.len() > 1 {
        let others: Vec<String> = games[1..]
            .iter()
            .map(|g| format!("{:?}", g.title))
            .collect();
        eprintln!(
            "note: {} has {} games and variants; this is the first, {:?} (--variant chooses \
             another: {})",
            file.display(),
            games.len(),
            games[0].title,
            others.join(", ")
        );
    }
    match index.and_then(|i| games.into_iter().nth(i)) {
        Some(game) => Ok(game),
        None => {
            no_such_game(file, title.unwrap_or(""));
            Err(if front_end.expanded.is_some() { 2 } else { 1 })
        }
    }
}

fn expand_command(
    file: &Path,
    variant: Option<&str>,
    options: &frontend::FrontEndOptions,
    color: ColorChoice,
) -> u8 {
    let front_end = match run_front_end(file, options, color, false) {
        Ok(front_end) => front_end,
        Err(code) => return code,
    };
    let Some(expanded) = &front_end.expanded else {
        return 1;
    };
    let text = match variant {
        None => syntax::to_zrf(
            &expanded
                .forms
                .iter()
                .map(|form| form.to_node(&expanded.interner))
                .collect::<Vec<_>>(),
        ),
        Some(title) => match expanded.find_game(title) {
            Some(game) => syntax::to_zrf(&[expanded.game_as_node(game)]),
            None => {
                no_such_game(file, title);
                return 2;
            }
        },
    };
    // Control characters of the rules' strings are shown escaped, not sent on to the
    // terminal.
    let _ = io::stdout()
        .lock()
        .write_all(printable_lines(&text).as_bytes());
    exit_code(&front_end.diagnostics)
}

fn ir_command(
    file: &Path,
    variant: Option<&str>,
    options: &frontend::FrontEndOptions,
    color: ColorChoice,
) -> u8 {
    let chosen =
        run_front_end(file, options, color, false).and_then(|f| choose_game(file, f, variant));
    match chosen.map(|g| g.game) {
        Ok(Some(game)) => {
            let _ = io::stdout()
                .lock()
                .write_all(printable_lines(&ir::dump(&game)).as_bytes());
            0
        }
        Ok(None) => 1,
        Err(code) => code,
    }
}

fn exit_code(diagnostics: &[Diagnostic]) -> u8 {
    u8::from(diagnostics.iter().any(Diagnostic::is_error))
}

/// `zrfc explain [CODE]`.
fn explain_command(code: Option<&str>) -> u8 {
    use diag::codes::{lookup, CODES};
    let Some(code) = code else {
        for entry in CODES {
            println!("{}  {}", entry.code, entry.title);
        }
        return 0;
    };
    let Some(entry) = lookup(code.trim()) else {
        eprintln!(
            "error: no diagnostic code `{}`; `zrfc explain` lists them",
            diag::capped(code)
        );
        return 1;
    };
    println!("{}: {}\n", entry.code, entry.title);
    println!("{}", textwrap_lines(entry.explanation, 80));
    if let Some(example) = entry.example {
        println!("\nFor example:\n");
        for line in example.lines() {
            println!("    {line}");
        }
    }
    0
}

/// `text` folded at spaces into lines of at most `width` characters.
fn textwrap_lines(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line_length = 0;
    for word in text.split_whitespace() {
        if line_length > 0 && line_length + 1 + word.len() > width {
            out.push('\n');
            line_length = 0;
        } else if line_length > 0 {
            out.push(' ');
            line_length += 1;
        }
        out.push_str(word);
        line_length += word.len();
    }
    out
}

/// `zrfc fmt [--check] FILE...`: 0 when every file is (or now is) formatted.
fn fmt_command(files: &[PathBuf], check: bool) -> u8 {
    let mut code = 0;
    for file in files {
        let shown = file.display();
        let source = match crate::source::read_limited(file, crate::source::MAX_FILE_BYTES) {
            Ok(bytes) => bytes,
            Err(e) => {
                eprintln!("error: {shown}: {e}");
                code = 1;
                continue;
            }
        };
        let formatted = match syntax::format::format(&source) {
            Ok(formatted) => formatted,
            Err(e) => {
                eprintln!("error: {shown}: not formatted: {e} (`zrfc check` shows where)");
                code = 1;
                continue;
            }
        };
        if formatted == source {
            continue;
        }
        if check {
            println!("{shown}: would be reformatted");
            code = 1;
        } else if let Err(e) = replace_file(file, &formatted) {
            eprintln!("error: {shown}: {e}");
            code = 1;
        } else {
            println!("{shown}: reformatted");
        }
    }
    code
}

/// Writes `bytes` beside `path` and renames it over `path`, keeping its permissions: an
/// interrupted run leaves the old file or the new one, never half of one.
fn replace_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".zrfc-fmt");
    let temporary = PathBuf::from(temporary);
    std::fs::write(&temporary, bytes)?;
    let renamed = std::fs::metadata(path)
        .and_then(|meta| std::fs::set_permissions(&temporary, meta.permissions()))
        .and_then(|()| std::fs::rename(&temporary, path));
    if renamed.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    renamed
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::Cli;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    /// Every option of a compiled engine's command is one of `zrfc`'s same command,
    /// so that what works on a package works on `zrfc` (which adds the rules file,
    /// the front end's options and a learned evaluation).
    #[test]
    fn compiled_engines_take_the_options_of_zrfcs_commands() {
        let zrfc = Cli::command();
        let engine = zrf_play::args::EngineCli::command();
        let mut compared = Vec::new();
        for command in engine.get_subcommands() {
            let name = command.get_name();
            let ours = zrfc
                .find_subcommand(name)
                .unwrap_or_else(|| panic!("zrfc has no `{name}` command"));
            let options = |c: &clap::Command| -> Vec<String> {
                c.get_arguments()
                    .filter_map(|a| a.get_long().map(str::to_string))
                    .collect()
            };
            let theirs = options(command);
            let ours = options(ours);
            for option in &theirs {
                assert!(
                    ours.contains(option),
                    "`{name} --{option}` of compiled engines is not zrfc's"
                );
            }
            compared.push(format!("{name}: {}", theirs.len()));
        }
        assert_eq!(
            compared,
            [
                "perft: 4",
                "moves: 1",
                "show: 4",
                "play: 10",
                "selfplay: 12",
                "bench: 1",
                "serve: 2",
                "info: 0",
                "uci: 0"
            ]
        );
    }
}
