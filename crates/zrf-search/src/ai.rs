//! A computer player: the search chosen for the game, its evaluation and its table,
//! kept from move to move.
//!
//! The choice of search, when not given ([`Algorithm::for_game`]): Monte Carlo tree
//! search for games whose pieces only ever enter by drops and never move (placement
//! and connection games: hex, gomoku, Othello-like games, where material says little),
//! alpha-beta otherwise. Players whose names start with `?` move at random whatever
//! is chosen, as in Zillions.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use zrf_runtime::{mix, Engine, Game, SplitMix64, State, Templates};

use crate::alphabeta::{alpha_beta, AlphaBetaOptions, Found, Iteration, Limits, WIN, WIN_BOUND};
use crate::eval::{Evaluator, RulesEval};
use crate::mcts::{mcts, MctsOptions};
use crate::parallel::{alpha_beta_split, MakeEngine};
use crate::tt::TranspositionTable;

/// How a computer player chooses its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    AlphaBeta,
    Mcts,
    /// Uniformly at random among the legal moves.
    Random,
}

impl Algorithm {
    /// The documented default for a game: [`Algorithm::Mcts`] for placement games
    /// ([`RulesEval::is_placement_game`]), else [`Algorithm::AlphaBeta`].
    pub fn for_game(eval: &RulesEval) -> Algorithm {
        if eval.is_placement_game() {
            Algorithm::Mcts
        } else {
            Algorithm::AlphaBeta
        }
    }
}

impl FromStr for Algorithm {
    type Err = String;

    fn from_str(s: &str) -> Result<Algorithm, String> {
        match s.to_ascii_lowercase().as_str() {
            "alphabeta" | "alpha-beta" | "ab" => Ok(Algorithm::AlphaBeta),
            "mcts" | "uct" => Ok(Algorithm::Mcts),
            "random" => Ok(Algorithm::Random),
            _ => Err(format!(
                "unknown engine {s:?}: expected alphabeta, mcts or random"
            )),
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Mcts => "mcts",
            Algorithm::Random => "random",
        })
    }
}

/// Playing strength presets, 1 (instant) to 6 (ten seconds a move), for `--ai N`.
pub fn level_limits(level: u32) -> Limits {
    match level {
        0 | 1 => Limits::depth(1),
        2 => Limits::time(Duration::from_millis(100)),
        3 => Limits::time(Duration::from_millis(500)),
        4 => Limits::time(Duration::from_secs(2)),
        5 => Limits::time(Duration::from_secs(5)),
        _ => Limits::time(Duration::from_secs(10)),
    }
}

/// What a computer player is told.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// `None`: [`Algorithm::for_game`].
    pub algorithm: Option<Algorithm>,
    pub limits: Limits,
    /// The same seed gives the same games (with limits in nodes or depth).
    pub seed: u64,
    /// Size of the transposition table.
    pub table_megabytes: usize,
    /// Threads an alpha-beta search splits its root moves between (a player made by
    /// [`Ai::for_engine_on_threads`]); one by default.
    pub threads: usize,
    /// Choose a move even where the rules have decided the game but moves remain (for
    /// UCI, whose GUI adjudicates); the alpha-beta search then searches past the result.
    pub past_result: bool,
    /// Judge positions by the evaluation worked out from the rules even where the game
    /// carries a learned one (to measure what learning gained).
    pub rules_eval_only: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            algorithm: None,
            limits: Limits::time(Duration::from_secs(1)),
            seed: 1,
            table_megabytes: 32,
            threads: 1,
            past_result: false,
            rules_eval_only: false,
        }
    }
}

/// A chosen move and what the search says of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// Its index in the position's legal move list.
    pub index: usize,
    /// Alpha-beta's score for the player to move (hundredths of a pawn, or a win in
    /// so many plies); `None` from the other algorithms.
    pub score: Option<i32>,
    /// Depth reached (alpha-beta), 0 otherwise.
    pub depth: u32,
    /// Nodes (alpha-beta) or iterations (Monte Carlo) searched.
    pub nodes: u64,
    /// The expected line, in notation (alpha-beta).
    pub pv: Vec<String>,
}

impl Choice {
    /// The score in words: `+1.25`, `win in 3`, `loss in 2`, or the Monte Carlo
    /// estimate.
    pub fn describe_score(&self) -> String {
        match self.score {
            Some(s) if s > WIN_BOUND => format!("win in {}", WIN - s),
            Some(s) if s < -WIN_BOUND => format!("loss in {}", WIN + s),
            Some(s) => format!("{:+.2}", f64::from(s) / 100.0),
            None => String::new(),
        }
    }
}

/// An alpha-beta search on several threads, for one game's positions, with a table per
/// thread.
type SplitSearch<'g, S> =
    Box<dyn Fn(&S, &AlphaBetaOptions<'_>, &[TranspositionTable]) -> Option<Found> + 'g>;

/// A computer player for one game.
pub struct Ai<'g, G: Game, E> {
    game: &'g G,
    eval: E,
    table: TranspositionTable,
    algorithm: Algorithm,
    settings: Settings,
    rng: SplitMix64,
    searches: u64,
    split: Option<SplitSearch<'g, G::State>>,
    /// With `split`, each thread's table, kept from search to search as `table` is.
    split_tables: Vec<TranspositionTable>,
}

impl<'g, T: Templates> Ai<'g, Engine<T>, RulesEval> {
    /// A player for `engine` with the evaluation worked out from its rules.
    pub fn for_engine(engine: &'g Engine<T>, settings: Settings) -> Self {
        let eval = if settings.rules_eval_only {
            RulesEval::from_rules(engine)
        } else {
            RulesEval::new(engine)
        };
        let algorithm = settings
            .algorithm
            .unwrap_or_else(|| Algorithm::for_game(&eval));
        Ai::new(engine, eval, algorithm, settings)
    }

    /// [`Ai::for_engine`], its alpha-beta searches split between `settings.threads`
    /// threads, each with an engine made by `make_engine`.
    pub fn for_engine_on_threads(
        engine: &'g Engine<T>,
        make_engine: MakeEngine<'g, T>,
        settings: Settings,
    ) -> Self {
        let mut ai = Ai::for_engine(engine, settings);
        if settings.threads > 1 {
            let eval = ai.eval.clone();
            ai.split = Some(Box::new(
                move |state: &State, options: &AlphaBetaOptions<'_>, tables: &[_]| {
                    alpha_beta_split(make_engine, &eval, state, options, tables)
                },
            ));
            // Made once, not at every search: a table is written over when made, and
            // what one search stored helps the next.
            let megabytes = settings.table_megabytes / settings.threads;
            ai.split_tables = (0..settings.threads)
                .map(|_| TranspositionTable::with_megabytes(megabytes))
                .collect();
            // The one-thread search's table goes unused.
            ai.table = TranspositionTable::with_megabytes(1);
        }
        ai
    }
}

impl<'g, G: Game, E: Evaluator<G>> Ai<'g, G, E> {
    pub fn new(game: &'g G, eval: E, algorithm: Algorithm, settings: Settings) -> Self {
        Ai {
            game,
            eval,
            table: TranspositionTable::with_megabytes(settings.table_megabytes),
            algorithm,
            settings,
            // As `zrfc play` always drew its random moves: the same seed, the same game.
            rng: SplitMix64::new(settings.seed),
            searches: 0,
            split: None,
            split_tables: Vec::new(),
        }
    }

    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Changes the limits of the searches to come.
    pub fn set_limits(&mut self, limits: Limits) {
        self.settings.limits = limits;
    }

    pub fn eval(&self) -> &E {
        &self.eval
    }

    /// Forgets what earlier searches stored (a new game).
    pub fn new_game(&mut self) {
        self.table.clear();
        for table in &self.split_tables {
            table.clear();
        }
    }

    /// Whether the rules have decided the game in `state`.
    fn decided(&self, state: &G::State) -> bool {
        let moves = self.game.legal_moves(state);
        self.game.outcome(state, &moves).is_some()
    }

    /// Chooses a move in `state`, `None` when the game is over there. `on_iteration`
    /// sees each completed alpha-beta iteration; `stop`, set from another thread, ends
    /// the search early.
    pub fn choose(
        &mut self,
        state: &G::State,
        stop: Option<&AtomicBool>,
        on_iteration: impl FnMut(&Iteration),
    ) -> Option<Choice> {
        self.searches += 1;
        let seed = mix(self.settings.seed ^ self.searches.wrapping_mul(0x9E37_79B9));
        let mover = self.game.to_move(state);
        if self.algorithm == Algorithm::Random || self.game.plays_at_random(mover) {
            let moves = self.game.legal_moves(state);
            let decided = !self.settings.past_result && self.game.outcome(state, &moves).is_some();
            if moves.is_empty() || decided {
                return None;
            }
            return Some(Choice {
                index: self.rng.below(moves.len()),
                score: None,
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
            });
        }
        let algorithm = match self.algorithm {
            // Monte Carlo tree search stops at the rules' result; alpha-beta searches on.
            Algorithm::Mcts if self.settings.past_result && self.decided(state) => {
                Algorithm::AlphaBeta
            }
            algorithm => algorithm,
        };
        match algorithm {
            Algorithm::Mcts => {
                let options = MctsOptions {
                    limits: self.settings.limits,
                    seed,
                    stop,
                    ..MctsOptions::default()
                };
                let found = mcts(self.game, Some(&self.eval), state, &options)?;
                Some(Choice {
                    index: found.index,
                    score: None,
                    depth: 0,
                    nodes: found.iterations,
                    pv: Vec::new(),
                })
            }
            _ => {
                let options = AlphaBetaOptions {
                    limits: self.settings.limits,
                    seed,
                    noise: 3,
                    stop,
                    root_moves: None,
                    past_result: self.settings.past_result,
                };
                let found = match &self.split {
                    Some(split) => {
                        let found = split(state, &options, &self.split_tables)?;
                        let mut on_iteration = on_iteration;
                        on_iteration(&found.iteration);
                        found
                    }
                    None => alpha_beta(
                        self.game,
                        &self.eval,
                        &self.table,
                        state,
                        &options,
                        on_iteration,
                    )?,
                };
                Some(Choice {
                    index: found.index,
                    score: Some(found.iteration.score),
                    depth: found.iteration.depth,
                    nodes: found.iteration.nodes,
                    pv: found.iteration.pv,
                })
            }
        }
    }
}
