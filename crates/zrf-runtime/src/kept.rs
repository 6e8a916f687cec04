//! The bulk targets one count works out, kept for the next: a perft counts the
//! positions after each of a player's turns one after another, and those differ in the
//! few squares the turns change, so most pieces' targets are the ones the count before
//! found (xiangqi perft 4: 91.6% of the pieces counted one by one; corpus chess perft
//! 5: 81%).
//!
//! The invariant: [`BulkTargets::targets`] of a piece reads only the squares of its
//! [`SquareTargets::reads`], through the mover's view of them, so the targets kept for
//! a piece, worked out for the same mover and players, hold while neither those
//! squares nor the piece's own changed (the bitsets of every player and type tell
//! where something changed: on its own square, the same piece still stands). Debug
//! builds check every kept answer against the one worked out again.
//!
//! [`SquareTargets::reads`]: crate::shape::SquareTargets::reads

use std::any::Any;
use std::cell::Cell;

use crate::bulk::Occupancy;
use crate::shape::{BulkTargets, SquareSet};
use crate::state::State;
use crate::tables::Tables;
use crate::{Kind, PlayerIx, Pos};

thread_local! {
    /// This thread's kept targets, of the set width the last count used; a count
    /// nested in another finds none and keeps its own.
    static KEPT: Cell<Option<Box<dyn Any>>> = const { Cell::new(None) };
}

/// What [`BulkTargets::targets`] answers for one piece, with how many squares its
/// targets hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Targets<B> {
    pub(crate) squares: B,
    pub(crate) count: u32,
    /// The loop iterations the templates' code would spend, and the templates whose
    /// code need not run (see [`BulkTargets::targets`]).
    pub(crate) slid: u32,
    pub(crate) not_run: u64,
}

impl<B: SquareSet> Targets<B> {
    /// [`BulkTargets::targets`] of a `kind` of `player`'s on `from` in a position seen
    /// as `occupancy`: `None` where none of its templates is counted.
    fn of(
        bulk: &BulkTargets<B>,
        player: PlayerIx,
        kind: Kind,
        from: Pos,
        occupancy: &Occupancy<B>,
    ) -> Option<Targets<B>> {
        let (squares, slid, not_run) = bulk.targets(player, kind, from, occupancy)?;
        Some(Targets {
            squares,
            count: squares.count(),
            slid,
            not_run,
        })
    }
}

/// The targets worked out by the last count on one thread (see the module
/// documentation).
pub(crate) struct KeptTargets<B> {
    /// What they were worked out for: the bulk targets ([`BulkTargets::id`]), the
    /// mover, the players taking turns, and the bitsets of every piece
    /// ([`State::occupancy_words`]).
    bulk: u64,
    mover: PlayerIx,
    active: [u64; 4],
    board: Vec<u64>,
    /// The squares whose entries hold for `board`, and those the count under way has
    /// set (they hold for the position it counts).
    valid: B,
    set: B,
    /// By square: the squares the targets of the piece there read, that square
    /// included (where it changes, another piece stands there), and its targets.
    entries: Vec<(B, Option<Targets<B>>)>,
}

impl<B: SquareSet> KeptTargets<B> {
    /// This thread's kept targets, for a count of `mover`'s pieces in `state` on
    /// `bulk`, with the squares changed since they were kept (every square, where they
    /// were kept for another game or mover, or none were).
    pub(crate) fn take(
        tables: &Tables,
        bulk: &BulkTargets<B>,
        state: &State,
        mover: PlayerIx,
    ) -> (Box<KeptTargets<B>>, B) {
        let kept = KEPT
            .take()
            .and_then(|kept| kept.downcast::<KeptTargets<B>>().ok());
        let mut kept = kept.unwrap_or_else(|| {
            Box::new(KeptTargets {
                bulk: 0,
                mover: 0,
                active: [0; 4],
                board: Vec::new(),
                valid: B::default(),
                set: B::default(),
                entries: vec![(B::default(), None); B::WIDTH as usize],
            })
        });
        let board = state.occupancy_words();
        let active = tables.active_players();
        let words = state.own_words(mover).len();
        let same = (kept.bulk, kept.mover, kept.active) == (bulk.id, mover, active)
            && kept.board.len() == board.len()
            && words > 0;
        let changed = match same {
            true => {
                // Word `w` of each bitset, in turn: one of `words` words.
                let (mut changed, mut w) = ([0u64; 4], 0);
                for (&now, &before) in board.iter().zip(&kept.board) {
                    changed[w & 3] |= now ^ before;
                    w += 1;
                    if w == words {
                        w = 0;
                    }
                }
                kept.board.copy_from_slice(board);
                B::from_words(&changed[..words.min(4)])
            }
            false => {
                (kept.bulk, kept.mover, kept.active) = (bulk.id, mover, active);
                kept.board.clear();
                kept.board.extend_from_slice(board);
                kept.valid = B::default();
                B::ALL
            }
        };
        kept.set = B::default();
        (kept, changed)
    }

    /// The targets of the mover's piece on `from`, in `state` seen as `occupancy`,
    /// whose squares `changed` since the targets were kept: the kept ones where they
    /// hold (no square they read changed, nor the piece's own), else worked out and
    /// kept.
    #[inline]
    pub(crate) fn targets(
        &mut self,
        bulk: &BulkTargets<B>,
        state: &State,
        changed: B,
        from: Pos,
        occupancy: &Occupancy<B>,
    ) -> Option<Targets<B>> {
        let kind = |state: &State| state.at(from).map(|piece| piece.kind);
        let Some(entry) = self.entries.get_mut(from as usize) else {
            return Targets::of(bulk, self.mover, kind(state)?, from, occupancy);
        };
        if self.valid.has(from) && (entry.0 & changed).is_empty() {
            self.set |= B::bit(from);
            debug_assert_eq!(
                entry.1,
                Targets::of(bulk, self.mover, kind(state)?, from, occupancy),
                "the targets kept for the piece on {from} differ from those worked out again"
            );
            return entry.1;
        }
        let kind = kind(state)?;
        let targets = Targets::of(bulk, self.mover, kind, from, occupancy);
        *entry = (bulk.reads(self.mover, kind, from) | B::bit(from), targets);
        self.set |= B::bit(from);
        targets
    }

    /// Gives the targets back to the thread, for the next count: those this count set
    /// hold for the position it counted.
    pub(crate) fn give_back(mut self: Box<Self>) {
        self.valid = self.set;
        KEPT.set(Some(self));
    }
}
