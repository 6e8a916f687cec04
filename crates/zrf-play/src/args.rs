//! The command-line options of the play commands, defined once with clap: `zrfc`
//! flattens each group into its own command beside the rules file and the front end's
//! options, and every compiled engine parses [`EngineCli`] as its whole command line,
//! so that the same option means the same thing in both.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use zrf_search::{level_limits, Algorithm, Limits, Settings};

use crate::{contenders, Budget};
use crate::{Contender, MatchOptions};

/// The command line of a compiled engine.
#[derive(Parser, Debug)]
#[command(
    about = "A game engine compiled from a Zillions of Games rules file by zrfc.",
    long_about = None,
    disable_version_flag = true,
    after_help = "Examples:\n  ENGINE perft 5\n  ENGINE play --human White --ai 4\n  \
                  ENGINE selfplay --games 20 --time 0.1 --vs-time 0.5\n  ENGINE uci"
)]
pub struct EngineCli {
    /// The game (by title, ignoring case) in a package of several; the first when
    /// absent.
    #[arg(long, global = true, value_name = "TITLE")]
    pub variant: Option<String>,
    #[command(subcommand)]
    pub command: EngineCommand,
}

/// What a compiled engine is asked to do.
#[derive(Subcommand, Debug)]
pub enum EngineCommand {
    /// Count move paths (perft) from the start, depth by depth.
    Perft(PerftArgs),
    /// List the legal moves in saved-game notation, at the start or after some moves.
    Moves(MovesArgs),
    /// Draw a position, at the start or after some moves, as text or an SVG file.
    Show(ShowArgs),
    /// Play a game: the computer against itself, or against players named by --human.
    Play(PlayArgs),
    /// Play a match between two computer players and print a results table.
    Selfplay(SelfplayArgs),
    /// Measure perft, random playouts and search speed.
    Bench(BenchArgs),
    /// Play in a web browser: a page served on this machine with the board to click on,
    /// undo, redo, the variants and a .zsg download.
    #[cfg(feature = "web")]
    Serve(ServeArgs),
    /// What the rules say of the game: description, history, strategy, each piece's help.
    Info,
    /// Speak the Universal Chess Interface on stdin and stdout (for tournament managers
    /// and python-chess): moves as e2e4, e7e8q, P@e4 on boards of squares named a1..,
    /// else saved-game notation with `_` for spaces.
    Uci,
}

/// `perft`: how deep to count, and what to compare with.
#[derive(Args, Debug, Clone)]
pub struct PerftArgs {
    /// Depth to count to (the same as --depth).
    #[arg(value_name = "DEPTH", conflicts_with = "depth")]
    pub depth_given: Option<u32>,
    /// Depth to count to [default: 3].
    #[arg(long, short = 'd', value_name = "N")]
    pub depth: Option<u32>,
    /// Show the count below each first move.
    #[arg(long)]
    pub divide: bool,
    /// Threads the first moves are shared between (0: every core).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// Published counts as `depth:count` pairs, comma-separated (`1:20,2:400`); any
    /// difference exits 1.
    #[arg(long, value_name = "D:N,...", value_delimiter = ',', value_parser = parse_expectation)]
    pub expect: Vec<(u32, u64)>,
}

impl PerftArgs {
    /// The depth asked for, either way it was given.
    pub fn depth(&self) -> u32 {
        self.depth_given.or(self.depth).unwrap_or(3)
    }
}

fn parse_expectation(text: &str) -> Result<(u32, u64), String> {
    let (depth, count) = text
        .split_once(':')
        .ok_or_else(|| format!("expected DEPTH:COUNT, found {text:?}"))?;
    let depth = depth
        .trim()
        .parse()
        .map_err(|e| format!("depth {depth:?}: {e}"))?;
    let count = count
        .trim()
        .parse()
        .map_err(|e| format!("count {count:?}: {e}"))?;
    Ok((depth, count))
}

/// `moves`: where to list them.
#[derive(Args, Debug, Clone)]
pub struct MovesArgs {
    /// Moves to play first: the notation this command prints (`Pawn e2 - e4`),
    /// squares (`e2e4`, `e2 e4`, the destination alone) or, where pieces have
    /// letters, short algebraic notation (`Nf3`, `O-O`).
    #[arg(long, value_name = "MOVE", num_args = 1..)]
    pub after: Vec<String>,
}

/// `show`: which position, drawn how.
#[derive(Args, Debug, Clone)]
pub struct ShowArgs {
    /// Moves to play first, written as `moves --after` takes them (`Pawn e2 - e4`,
    /// `e2e4`, `Nf3`).
    #[arg(long, value_name = "MOVE", num_args = 1..)]
    pub after: Vec<String>,
    /// Write an SVG drawing to this file instead of printing a text board.
    #[arg(long, value_name = "FILE.svg")]
    pub svg: Option<PathBuf>,
    /// Show the rules' zones as dashed outlines in the SVG drawing (they are in the
    /// file, hidden, either way).
    #[arg(long, requires = "svg")]
    pub zones: bool,
    /// Print a text board (the default).
    #[arg(long, conflicts_with = "svg")]
    pub text: bool,
}

/// How the computer plays a game.
#[derive(Args, Debug, Clone)]
pub struct ComputerArgs {
    /// `alphabeta`, `mcts` or `random`; by default alpha-beta, or Monte Carlo tree search
    /// for games whose pieces only enter by drops.
    #[arg(long, value_parser = parse_algorithm)]
    pub engine: Option<Algorithm>,
    /// Strength from 1 (one ply) to 6 (10 s a move): 2 is 0.1 s, 3 is 0.5 s, 4 is 2 s,
    /// 5 is 5 s.
    #[arg(long, value_name = "LEVEL", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=6))]
    pub ai: u32,
    /// Seconds per computer move (instead of --ai).
    #[arg(long, value_name = "S")]
    pub time: Option<f64>,
    /// Search this deep instead of by time (instead of --ai).
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,
    /// Seed of the computer's choices: the same seed with `--depth` plays the same game.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads an alpha-beta search splits the moves between (0: every core). The same
    /// count with `--depth` plays the same game.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
}

impl ComputerArgs {
    /// The search settings these options ask for.
    pub fn settings(&self) -> Settings {
        let limits = match (self.time, self.depth) {
            (None, None) => level_limits(self.ai),
            (time, depth) => Limits {
                time: time.filter(|t| *t > 0.0).map(Duration::from_secs_f64),
                depth,
                nodes: None,
                whole_time: false,
            },
        };
        Settings {
            algorithm: self.engine,
            limits,
            seed: self.seed,
            threads: threads(self.threads),
            ..Settings::default()
        }
    }
}

/// `parse` for `--engine`.
pub fn parse_algorithm(text: &str) -> Result<Algorithm, String> {
    text.parse()
}

/// `play`: who moves by hand, how the computer plays, and where the game is saved.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// A player who moves by hand; repeatable.
    #[arg(long, value_name = "PLAYER")]
    pub human: Vec<String>,
    #[command(flatten)]
    pub computer: ComputerArgs,
    /// Stop after this many turns if the game has not ended.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max_turns: usize,
    /// Write the game as a Zillions saved game to this file (`-2`, `-3`, ... added
    /// rather than overwriting one that exists). Without it nothing is saved.
    #[arg(long, value_name = "FILE", conflicts_with = "no_save")]
    pub save: Option<PathBuf>,
    /// Save nothing (the default; for symmetry with `selfplay`).
    #[arg(long)]
    pub no_save: bool,
}

/// `selfplay`: the two players, the number of games and where they are kept.
#[derive(Args, Debug, Clone)]
pub struct SelfplayArgs {
    /// Games to play.
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// The first player's engine (default: the one chosen for the game).
    #[arg(long, value_parser = parse_algorithm)]
    pub engine: Option<Algorithm>,
    /// Seconds per move of the first player.
    #[arg(long, value_name = "S", default_value_t = 0.1)]
    pub time: f64,
    /// The second player's engine (default: as the first).
    #[arg(long, value_parser = parse_algorithm)]
    pub vs_engine: Option<Algorithm>,
    /// Seconds per move of the second player (default: as the first).
    #[arg(long, value_name = "S")]
    pub vs_time: Option<f64>,
    /// Search this many plies a move instead of a time, both players: the same games
    /// on any machine, however loaded.
    #[arg(long, value_name = "N", conflicts_with_all = ["time", "vs_time"])]
    pub depth: Option<u32>,
    /// Games played at once (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Games longer than this are cut and not scored.
    #[arg(long, value_name = "N", default_value_t = 500)]
    pub max_turns: usize,
    /// Seed of the players' searches.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The folder to write every game into (`game-001.zsg`, ...); default a new
    /// folder `selfplay-NAME` in the working directory.
    #[arg(long, value_name = "DIR", conflicts_with = "no_save")]
    pub save_dir: Option<PathBuf>,
    /// Keep no games.
    #[arg(long)]
    pub no_save: bool,
    /// The second player judges by the evaluation worked out from the rules, the first
    /// by the learned one (`--eval`, or the one built into a compiled engine): what
    /// learning gained.
    #[arg(long)]
    pub vs_rules_eval: bool,
}

impl SelfplayArgs {
    /// The two sides, labelled for the results table.
    pub fn contenders(&self) -> [Contender; 2] {
        let budget = |time| match self.depth {
            Some(depth) => Budget::Depth(depth),
            None => Budget::Seconds(time),
        };
        let mut pair = contenders(
            self.engine,
            budget(self.time),
            self.vs_engine.or(self.engine),
            budget(self.vs_time.unwrap_or(self.time)),
        );
        if self.vs_rules_eval {
            pair[0].label.push_str(" learned");
            pair[1].label.push_str(" rules");
            pair[1].settings.rules_eval_only = true;
        }
        pair
    }

    /// How the match is run.
    pub fn match_options(&self) -> MatchOptions {
        MatchOptions {
            games: self.games,
            max_turns: self.max_turns,
            threads: self.threads.unwrap_or_else(available_threads),
            seed: self.seed,
            max_seconds: None,
        }
    }
}

/// `bench`: how long each measure runs.
#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// Seconds per measure.
    #[arg(long, value_name = "S", default_value_t = 2.0)]
    pub time: f64,
}

/// `serve`: where the page is served.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// The port to listen on (0 picks a free one; the address is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on (127.0.0.1: this machine only).
    #[arg(long, default_value = "127.0.0.1")]
    pub address: String,
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_engine_command_line_is_well_formed() {
        EngineCli::command().debug_assert();
    }

    #[test]
    fn perft_takes_its_depth_either_way() {
        let depth = |args: &[&str]| match EngineCli::try_parse_from(args) {
            Ok(EngineCli {
                command: EngineCommand::Perft(perft),
                ..
            }) => Ok(perft.depth()),
            Ok(other) => panic!("not perft: {other:?}"),
            Err(err) => Err(err.kind()),
        };
        assert_eq!(depth(&["engine", "perft", "5"]), Ok(5));
        assert_eq!(depth(&["engine", "perft", "--depth", "4"]), Ok(4));
        assert_eq!(depth(&["engine", "perft"]), Ok(3));
        assert_eq!(
            depth(&["engine", "perft", "5", "--depth", "4"]),
            Err(clap::error::ErrorKind::ArgumentConflict)
        );
    }

    #[test]
    fn the_variant_may_come_before_or_after_the_command() {
        for args in [
            &["engine", "--variant", "Second", "info"][..],
            &["engine", "info", "--variant", "Second"],
        ] {
            let cli = EngineCli::try_parse_from(args).expect("parses");
            assert_eq!(cli.variant.as_deref(), Some("Second"));
        }
    }
}
