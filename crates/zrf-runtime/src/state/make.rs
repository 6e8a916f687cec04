//! A turn played on a position in place, and taken back: a search walks its tree on one
//! position, and a random playout goes on on one, without copying the board at every
//! move. The steps are applied by [`State::apply_step`], as when a turn is played into
//! another position, and the hash is brought up to date from the squares they change.

use std::cell::OnceCell;
use std::rc::Rc;

use smallvec::SmallVec;

use super::changed::changed_squares_with;
use super::State;
use crate::history::History;
use crate::layout::KnownSizes;
use crate::piece::Piece;
use crate::state::Step;
use crate::tables::Tables;
use crate::Pos;

/// What [`crate::Engine::make`] changed in a position, for [`crate::Engine::unmake`] to put
/// back.
#[derive(Debug)]
pub struct Undo {
    /// Each square the turn changed, with what stood there before it.
    squares: SmallVec<[(Pos, Option<Piece>); 4]>,
    /// The stocks before (shared, not copied: a step that changes them copies them).
    stock: Rc<[u32]>,
    last_from: Option<Pos>,
    last_to: Option<Pos>,
    last_captured: SmallVec<[Piece; 4]>,
    hash: Option<u64>,
    /// The history before the position. The position's own (that of its successors)
    /// is the one after the turn holds, given back to the position when it is taken
    /// back: moved, not copied, so that a search's turns leave the history's holders
    /// alone.
    previous: Option<History>,
}

impl Undo {
    /// Each square the turn changed (once), with what stood there before it: with the
    /// position after the turn, all that the turn did to the board.
    pub fn changed(&self) -> &[(Pos, Option<Piece>)] {
        &self.squares
    }
}

impl State {
    /// Plays the turn of these `steps` (none: a pass) on this position: it becomes the
    /// one [`crate::Engine::play`] makes, history and hash included. What it was is
    /// returned, for [`State::unmake`]. The bitsets are indexed in the sizes `S` knows.
    pub(crate) fn make<S: KnownSizes + ?Sized>(&mut self, tables: &Tables, steps: &[Step]) -> Undo {
        let hash = self.hash(tables);
        let squares = changed_squares_with(
            steps,
            |pos| (pos, self.board[pos as usize]),
            |&(pos, _)| pos,
        );
        let entry =
            (self.entry.take()).unwrap_or_else(|| History::pushed(self.previous.as_ref(), hash));
        let undo = Undo {
            squares,
            stock: Rc::clone(&self.stock),
            last_from: self.last_from,
            last_to: self.last_to,
            last_captured: std::mem::take(&mut self.last_captured),
            hash: self.hash,
            previous: self.previous.replace(entry),
        };
        for step in steps {
            self.apply_step_in::<S>(tables, step);
        }
        if steps.is_empty() {
            self.last_from = None;
            self.last_to = None;
        }
        let mover_change = tables.mover_change_key(self.turn);
        self.turn += 1;
        // Each changed square's key before (kept in `undo`) and after.
        let mut next_hash = hash ^ mover_change;
        for &(pos, before) in &undo.squares {
            next_hash ^= piece_key(tables, pos, before) ^ self.square_hash(tables, pos);
        }
        if !Rc::ptr_eq(&self.stock, &undo.stock) && self.stock != undo.stock {
            next_hash ^= stock_hash(tables, &undo.stock) ^ stock_hash(tables, &self.stock);
        }
        self.hash = Some(next_hash);
        debug_assert_eq!(
            next_hash,
            self.position_hash(tables),
            "the hash kept in place differs from the position's after {steps:?}"
        );
        undo
    }

    /// Takes back the turn [`State::make`] played, which returned `undo`: the position is
    /// again the one it was, history and hash included.
    pub(crate) fn unmake<S: KnownSizes + ?Sized>(&mut self, undo: Undo) {
        for &(pos, piece) in &undo.squares {
            self.set_square::<S>(pos, piece);
        }
        self.stock = undo.stock;
        self.turn -= 1;
        self.last_from = undo.last_from;
        self.last_to = undo.last_to;
        self.last_captured = undo.last_captured;
        self.hash = undo.hash;
        let entry = std::mem::replace(&mut self.previous, undo.previous);
        self.entry = entry.map_or_else(OnceCell::new, OnceCell::from);
        debug_assert!(
            self.occupancy_matches_board(),
            "occupancy bitsets out of step with the board after a turn was taken back"
        );
    }
}

/// The part of [`State::position_hash`] that stands for `piece` on `pos` (none for an
/// empty square).
#[inline]
pub(super) fn piece_key(tables: &Tables, pos: Pos, piece: Option<Piece>) -> u64 {
    piece.map_or(0, |p| {
        let (owner, kind) = (p.owner as usize, p.kind as usize);
        (tables.zobrist).piece(pos as usize, owner, kind, p.attributes)
    })
}

/// The part of [`State::position_hash`] that stands for the stocks.
pub(super) fn stock_hash(tables: &Tables, stock: &[u32]) -> u64 {
    let slots = stock.iter().enumerate();
    slots.fold(0, |hash, (slot, &count)| {
        hash ^ tables.zobrist.stock(slot, count)
    })
}
