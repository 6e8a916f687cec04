//! The bulk targets one count works out, kept for the next: a perft counts the
//! positions after each of a player's turns one after another, and those differ in the
//! few squares the turns change, so most pieces' targets are the ones the count before
//! found (xiangqi perft 4: 91.6% of the pieces counted one by one; corpus chess perft
//! 5: 81%).
//!
//! The invariant: [`BulkTargets::targets`] of a piece reads only the squares of its
//! [`SquareTargets::reads`], through the mover's view of them, so the targets kept for
//! a piece of the same type on the same square, worked out for the same mover and
//! players, hold while none of those squares changed. Debug builds check every kept
//! answer against the one worked out again.
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

/// What [`BulkTargets::targets`] answered for one piece.
type Answer<B> = Option<(B, u32, u64)>;

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
    /// By square: the type of the piece, the squares its targets read, the answer.
    entries: Vec<(Kind, B, Answer<B>)>,
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
                entries: vec![(0, B::default(), None); B::WIDTH as usize],
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

    /// [`BulkTargets::targets`] of a `kind` piece of the mover's on `from`, in the
    /// position seen as `occupancy`, whose squares `changed` since the targets were
    /// kept: the kept answer where it holds, else worked out and kept.
    #[inline]
    pub(crate) fn targets(
        &mut self,
        bulk: &BulkTargets<B>,
        changed: B,
        kind: Kind,
        from: Pos,
        occupancy: &Occupancy<B>,
    ) -> Answer<B> {
        let Some(entry) = self.entries.get_mut(from as usize) else {
            return bulk.targets(self.mover, kind, from, occupancy);
        };
        self.set |= B::bit(from);
        if self.valid.has(from) && entry.0 == kind && (entry.1 & changed).is_empty() {
            debug_assert_eq!(
                entry.2,
                bulk.targets(self.mover, kind, from, occupancy),
                "the targets kept for {kind} on {from} differ from those worked out again"
            );
            return entry.2;
        }
        let answer = bulk.targets(self.mover, kind, from, occupancy);
        *entry = (kind, bulk.reads(self.mover, kind, from), answer);
        answer
    }

    /// Gives the targets back to the thread, for the next count: those this count set
    /// hold for the position it counted.
    pub(crate) fn give_back(mut self: Box<Self>) {
        self.valid = self.set;
        KEPT.set(Some(self));
    }
}
