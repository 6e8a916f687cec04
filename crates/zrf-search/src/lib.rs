//! Search over any game of the runtime's [`Game`](zrf_runtime::Game) trait, so the
//! interpreter and every compiled engine share it: perft, seeded random playouts,
//! alpha-beta ([`alpha_beta`]) and Monte Carlo tree search ([`mcts`]) with an
//! evaluation worked out from the rules ([`RulesEval`]), a computer player that picks
//! between them ([`Ai`]), self-play matches ([`play_match`]), and the game loop and
//! command line every compiled engine shares ([`driver`]), with pictures of positions
//! ([`board`]).

mod ai;
mod alphabeta;
pub mod board;
pub mod driver;
mod eval;
mod hands;
pub mod learn;
mod mcts;
pub mod move_text;
pub mod parallel;
mod perft;
mod playout;
mod selfplay;
pub mod terminal;
mod tt;
pub mod uci;
#[cfg(feature = "web")]
pub mod web;

pub use ai::{level_limits, Ai, Algorithm, Choice, Settings};
pub use alphabeta::{alpha_beta, AlphaBetaOptions, Found, Iteration, Limits, WIN, WIN_BOUND};
pub use eval::{Evaluator, Even, KindReport, MoveGain, RulesEval};
pub use mcts::{mcts, MctsFound, MctsOptions};
pub use perft::{divide, fingerprint, perft};
pub use playout::{playout, playout_with, random_game, random_game_from, Playout};
pub use selfplay::{
    play_match, save_folder, save_games, save_new_file, Contender, MatchGame, MatchOptions, Tally,
};
pub use tt::TranspositionTable;
pub use zrf_runtime::SplitMix64;

#[cfg(test)]
mod tests;
