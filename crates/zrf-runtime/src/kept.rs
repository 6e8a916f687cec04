//! The bulk targets one count works out, kept for the next: a perft counts the
//! positions after each of a player's turns one after another, and those differ in the
//! few squares the turns change, so most pieces' targets are the ones the count before
//! found. (Even taking every square of a slide as read, 91.6% of the pieces counted one
//! by one in xiangqi perft 4 could take them, and 81% in corpus chess perft 5.)
//!
//! The invariant: [`BulkTargets::targets`] of a piece reads only the squares of its
//! [`SquareTargets::reads`] and those of its slides up to the piece that stops each
//! (which it tells), through the mover's view of them, so the targets kept for
//! a piece, worked out for the same mover and players, hold while neither those
//! squares nor the piece's own changed (the bitsets of every player and type tell
//! where something changed: on its own square, the same piece still stands). Debug
//! builds check every kept answer against the one worked out again.
//!
//! [`SquareTargets::reads`]: crate::shape::SquareTargets::reads

use std::cell::RefCell;
use std::thread::LocalKey;

use crate::bulk::Occupancy;
use crate::layout::KnownSizes;
use crate::shape::{BulkTargets, SquareSet, Words};
use crate::state::State;
use crate::{Kind, PlayerIx, Pos};

/// A set width whose targets each thread keeps from one count to the next.
pub(crate) trait KeepsTargets: SquareSet {
    /// This thread's kept targets of this width.
    fn kept() -> &'static LocalKey<RefCell<KeptTargets<Self>>>;
}

thread_local! {
    static ONE_WORD: RefCell<KeptTargets<u64>> = RefCell::new(KeptTargets::new());
    static TWO_WORDS: RefCell<KeptTargets<u128>> = RefCell::new(KeptTargets::new());
    static FOUR_WORDS: RefCell<KeptTargets<Words<4>>> = RefCell::new(KeptTargets::new());
}

impl KeepsTargets for u64 {
    fn kept() -> &'static LocalKey<RefCell<KeptTargets<u64>>> {
        &ONE_WORD
    }
}

impl KeepsTargets for u128 {
    fn kept() -> &'static LocalKey<RefCell<KeptTargets<u128>>> {
        &TWO_WORDS
    }
}

impl KeepsTargets for Words<4> {
    fn kept() -> &'static LocalKey<RefCell<KeptTargets<Words<4>>>> {
        &FOUR_WORDS
    }
}

/// The squares where the bitsets `now` and `kept`, of `words` words each one after
/// another, differ (as a bitset of at most four words); `kept` becomes `now`.
fn changed_words(now: &[u64], kept: &mut [u64], words: usize) -> [u64; 4] {
    let mut changed = [0; 4];
    match words {
        // The boards of one or two words, without a word index to keep.
        1 => {
            for (kept, &now) in kept.iter_mut().zip(now) {
                changed[0] |= *kept ^ now;
                *kept = now;
            }
        }
        2 => {
            for (kept, now) in kept.chunks_exact_mut(2).zip(now.chunks_exact(2)) {
                changed[0] |= kept[0] ^ now[0];
                changed[1] |= kept[1] ^ now[1];
                kept.copy_from_slice(now);
            }
        }
        _ => {
            for (kept, now) in kept.chunks_exact_mut(words).zip(now.chunks_exact(words)) {
                for (changed, (kept, &now)) in changed.iter_mut().zip(kept.iter_mut().zip(now)) {
                    *changed |= *kept ^ now;
                    *kept = now;
                }
            }
        }
    }
    changed
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
    /// as `occupancy`: `None` where none of its templates is counted; with the squares
    /// the answer depends on.
    #[inline]
    pub(crate) fn read(
        bulk: &BulkTargets<B>,
        player: PlayerIx,
        kind: Kind,
        from: Pos,
        occupancy: &Occupancy<B>,
    ) -> (Option<Targets<B>>, B) {
        let reads = bulk.reads(player, kind, from);
        match bulk.targets(player, kind, from, occupancy) {
            Some(answer @ (.., slides)) => (Some(Targets::from(answer)), reads | slides),
            None => (None, reads),
        }
    }

    /// [`Targets::read`] without the squares read.
    #[inline]
    pub(crate) fn of(
        bulk: &BulkTargets<B>,
        player: PlayerIx,
        kind: Kind,
        from: Pos,
        occupancy: &Occupancy<B>,
    ) -> Option<Targets<B>> {
        bulk.targets(player, kind, from, occupancy)
            .map(Targets::from)
    }

    /// The targets of an answer of [`BulkTargets::targets`].
    #[inline]
    fn from((squares, slid, not_run, _): (B, u32, u64, B)) -> Targets<B> {
        Targets {
            squares,
            count: squares.count(),
            slid,
            not_run,
        }
    }
}

/// The targets worked out by the last count on one thread (see the module
/// documentation).
pub(crate) struct KeptTargets<B> {
    /// What they were worked out for: the bulk targets ([`BulkTargets::id`], one
    /// game's), the mover, and the bitsets of every piece
    /// ([`State::all_kinds_words`]).
    bulk: u64,
    mover: PlayerIx,
    board: Vec<u64>,
    /// The number of the count under way: an entry holds for `board` where the count
    /// before set it (its stamp is one less), and the count under way stamps what it
    /// sets with this. A count that starts afresh skips a number, so that no entry
    /// holds. (Sixty-four bits never wrap.)
    count: u64,
    /// By square: what the last count that looked at a piece there worked out.
    entries: Vec<Entry<B>>,
}

/// The targets of the piece on one square, as a count worked out.
#[derive(Clone, Copy)]
struct Entry<B> {
    /// The squares the targets read, the piece's own included (where it changes,
    /// another piece stands there).
    reads: B,
    /// The number of the count that set it ([`KeptTargets::count`]).
    stamp: u64,
    targets: Option<Targets<B>>,
}

impl<B: SquareSet> KeptTargets<B> {
    /// No targets kept.
    pub(crate) fn new() -> KeptTargets<B> {
        // Made square by square, each holding its own square as a set entry does: with
        // one entry copied to all (`vec!`), the count's loop, into which this inlines,
        // allocated its registers otherwise and spent 1.3% more instructions on corpus
        // chess perft 4 (callgrind).
        let unset = |pos| Entry {
            reads: B::bit(pos),
            stamp: 0,
            targets: None,
        };
        KeptTargets {
            bulk: 0,
            mover: 0,
            board: Vec::new(),
            count: 1,
            entries: (0..B::WIDTH).map(unset).collect(),
        }
    }

    /// Starts a count of `mover`'s pieces in `state` on `bulk`: the squares changed
    /// since the targets were kept (every square, where they were kept for another
    /// game or mover, or none were).
    pub(crate) fn start<S: KnownSizes + ?Sized>(
        &mut self,
        bulk: &BulkTargets<B>,
        state: &State,
        mover: PlayerIx,
    ) -> B {
        let board = state.all_kinds_words_in::<S>();
        let words = state.own_words_in::<S>(mover).len();
        let same = (self.bulk, self.mover) == (bulk.id, mover)
            && self.board.len() == board.len()
            && words > 0;
        if same {
            self.count += 1;
            let changed = changed_words(board, &mut self.board, words);
            return B::from_words(&changed[..words.min(4)]);
        }
        self.count += 2;
        (self.bulk, self.mover) = (bulk.id, mover);
        self.board.clear();
        self.board.extend_from_slice(board);
        B::ALL
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
        if entry.stamp + 1 == self.count && (entry.reads & changed).is_empty() {
            entry.stamp = self.count;
            debug_assert_eq!(
                entry.targets,
                Targets::of(bulk, self.mover, kind(state)?, from, occupancy),
                "the targets kept for the piece on {from} differ from those worked out again"
            );
            return entry.targets;
        }
        let (targets, reads) = Targets::read(bulk, self.mover, kind(state)?, from, occupancy);
        *entry = Entry {
            reads: reads | B::bit(from),
            stamp: self.count,
            targets,
        };
        targets
    }
}
