//! The runtime of zrf game engines: everything a game compiled from a Zillions rules file
//! needs at play time, and the one implementation of every rule primitive.
//!
//! A game is [`Tables`] (board topology, players, turn order, piece types, goals, options)
//! plus [`Templates`]: the code that runs each piece's move and drop templates. The
//! interpreter walks the IR to implement [`Templates`]; generated code implements it with
//! straight-line Rust. Both drive the same [`Run`], the object that executes one template
//! with Zillions' semantics (deferred effects, effects after an `add` dropped for later
//! adds, a single mark, flags reset per partial move), and both share [`Engine`], which
//! turns template results into complete turns (partial-move chains, move priorities,
//! `checkmated` legality, passes) and decides game results. The legality test asks
//! whether the other side could take a royal piece; it runs only the pieces whose
//! [`Reach`] (worked out from the rules by the compiler) includes a royal square, and
//! keeps only the steps that hit one ([`Steps::hitting`]). The squares it looks at are
//! found once per position and carried over to each candidate move, which changes only
//! the squares its changes name. The test is also run once on the position itself, noting
//! the squares its runs look at (a [`Footprint`]); a candidate that only moves and
//! captures away from those squares and the royal ones gets that answer without being
//! played. [`Engine::royal_guard_violation`] checks both shortcuts against a fresh scan.
//!
//! A turn is played into another position ([`Engine::play_into`]) or on the position
//! itself, from which an undo record takes it back ([`Engine::make`], [`Engine::unmake`]):
//! perft walks its tree on one position, and a random playout goes on on one.
//!
//! This crate does not depend on the compiler.

#![deny(missing_docs)]

mod attacked;
mod bits;
mod bulk;
mod chains;
mod consistency;
mod draw;
mod engine;
mod game;
mod gen;
mod goals;
mod guard;
mod history;
mod inconsistency;
mod kept;
mod layout;
mod notation;
mod piece;
mod random;
mod reach;
mod run;
mod shape;
mod state;
mod strikes;
mod tables;
mod templates;
#[cfg(test)]
mod tests;
mod turn;
mod watched;

pub use attacked::{AttackGuard, Attackers};
pub use engine::Engine;
pub use game::Game;
pub use gen::Gen;
pub use goals::Outcome;
pub use inconsistency::Inconsistency;
pub use layout::{KnownSizes, PieceSquares, ReadSizes};
pub use notation::{
    misleads_on_screen, notation, printable, printable_lines, saved_game, step_notation,
    turn_records,
};
pub use piece::Piece;
pub use random::{mix, Fnv1a, SplitMix64, Zobrist, ZobristData};
pub use reach::{Reach, ReachData};
pub use run::{
    move_list_cut_short, Continuation, Fail, Footprint, Loc, MayNote, NeverNote, NoteReads,
    Placement, Run, RunCore, StepResult, Steps, MAX_LIST_MOVES, MAX_LIST_WORK, MAX_LOOP,
};
pub use shape::{LeapStep, Shape, Test};
pub use state::{Change, Changes, Snapshot, State, Step, Undo};
pub use tables::{
    Derived, Filter, Goal, GoalCond, GoalKind, Options, PassTurn, PieceInfo, PieceRef, Place,
    Player, Setup, Tables, Turn, NO_POS,
};
pub use templates::Templates;
pub use turn::{Move, MoveTraits, TurnSteps};

/// A board position: an index into [`Tables::positions`].
pub type Pos = u32;
/// A direction: an index into [`Tables::directions`].
pub type Dir = u16;
/// A piece type: an index into [`Tables::pieces`].
pub type Kind = u16;
/// A player: an index into [`Tables::players`].
pub type PlayerIx = u8;
/// A move type: an index into [`Tables::move_types`].
pub type MoveType = u16;

/// Includes the module that `zrf::build` wrote into `OUT_DIR` for one rules file, named
/// by the file's stem as a Rust identifier (`games/Chess-960.zrf` gives `"chess_960"`),
/// in the manner of prost's `include_proto!`:
///
/// ```ignore
/// mod chess {
///     zrf_runtime::include_game!("chess");
/// }
/// // chess::engine() is the game; chess::TITLE its title.
/// ```
///
/// A file of one game gives a module with `engine()`, `TITLE` and name modules (`pos`,
/// `kind`, `player`, ...). A file of several games (`Config::select` or the default of
/// compiling every variant) gives a module per game, named after its title in the same
/// way, and `GAMES`, the titles with their module names.
#[macro_export]
macro_rules! include_game {
    ($module:literal) => {
        include!(concat!(env!("OUT_DIR"), "/", $module, ".rs"));
    };
}

/// What generated code names, imported whole by every generated module
/// (`use zrf_runtime::prelude::*;`): the runtime's items a compiled game's tables and
/// templates are written with.
pub mod prelude {
    pub use crate::{
        AttackGuard, Attackers, Continuation, Derived, Dir, Engine, Fail, Filter, Goal, GoalCond,
        GoalKind, Kind, KnownSizes, LeapStep, Loc, MayNote, MoveType, NeverNote, Options, PassTurn,
        PieceInfo, PieceRef, PieceSquares, Place, Placement, Player, PlayerIx, Pos, Reach,
        ReachData, Run, Setup, Shape, StepResult, Tables, Templates, Test, Turn, Zobrist,
        ZobristData, NO_POS,
    };
}

/// How large a game the runtime plays: the compiler refuses larger ones with a
/// diagnostic naming the limit, so that no index is ever narrowed into another and no
/// table outgrows memory.
pub mod limits {
    /// Players: numbered by [`PlayerIx`](crate::PlayerIx).
    pub const MAX_PLAYERS: usize = crate::PlayerIx::MAX as usize + 1;
    /// Piece types, directions, zones and move types: numbered by `u16`.
    pub const MAX_NAMES_U16: usize = u16::MAX as usize + 1;
    /// Attributes: bits of a `u32` per piece.
    pub const MAX_ATTRIBUTES: usize = 32;
    /// Board positions (the largest real boards have a few thousand).
    pub const MAX_POSITIONS: usize = 1 << 18;
    /// Position hash keys: positions x players x piece types (8 bytes each).
    pub const MAX_HASH_KEYS: usize = 1 << 24;
    /// Board links: positions x directions (4 bytes each).
    pub const MAX_LINKS: usize = 1 << 26;
}
