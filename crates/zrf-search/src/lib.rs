//! Search over any game of the runtime's [`Game`](zrf_runtime::Game) trait, so the
//! interpreter and every compiled engine share it: perft, seeded random playouts,
//! alpha-beta ([`alpha_beta`]) and Monte Carlo tree search ([`mcts`]) with an
//! evaluation worked out from the rules ([`RulesEval`]) or learned from self-play
//! ([`learn`]), and a computer player that picks between them ([`Ai`]). The ways to
//! play (terminal, UCI, web page, the command line of compiled engines) are the
//! `zrf-play` crate's.

mod ai;
mod alphabeta;
mod eval;
pub mod hands;
pub mod learn;
mod mcts;
pub mod parallel;
mod perft;
mod playout;
pub mod room;
mod tt;
pub mod tune;

pub use ai::{level_limits, Ai, Algorithm, Choice, Settings};
pub use alphabeta::{alpha_beta, AlphaBetaOptions, Found, Iteration, Limits, WIN, WIN_BOUND};
pub use eval::{BoardSums, Evaluator, Even, KindReport, MoveGain, RulesEval};
pub use mcts::{mcts, MctsFound, MctsOptions};
pub use perft::{divide, fingerprint, perft};
pub use playout::{playout, playout_with, random_game, random_game_from, Playout};
pub use tt::TranspositionTable;
pub use zrf_runtime::SplitMix64;

#[cfg(test)]
mod tests;
