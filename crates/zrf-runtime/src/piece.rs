//! A piece as the board holds it: a leaf that the tables, the state and the rest share.

use crate::{Kind, PlayerIx};

/// A piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its type.
    pub kind: Kind,
    /// The player it belongs to.
    pub owner: PlayerIx,
    /// Bit `a` set: attribute `a` is true.
    pub attributes: u32,
}
