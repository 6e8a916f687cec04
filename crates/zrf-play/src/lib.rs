//! Ways to play any engine of the runtime with the algorithms of `zrf-search`: the game
//! loop at the terminal ([`terminal`]), the Universal Chess Interface ([`uci`]), a game
//! page served to a web browser ([`web`], feature `web`), the names of moves and
//! squares ([`names`]), pictures of positions
//! ([`board`]), moves typed as a person writes them ([`move_text`]), self-play matches
//! that save their games ([`play_match`]), and the commands `zrfc` and every compiled
//! engine share: their options ([`args`]), what they do ([`commands`]) and the
//! compiled engines' `main` ([`driver`]).

pub mod args;
pub mod board;
pub mod commands;
pub mod driver;
pub mod move_text;
pub mod names;
mod selfplay;
pub mod terminal;
pub mod uci;
#[cfg(feature = "web")]
pub mod web;

pub use selfplay::{
    contenders, play_match, save_folder, save_games, save_new_file, Budget, Contender, MatchGame,
    MatchOptions, Tally,
};
