//! Positions of a game in play, and moves as change lists applied in Zillions' order.

use std::cell::OnceCell;
use std::rc::Rc;

use smallvec::{smallvec, SmallVec};

use crate::bits::{squares_except, squares_in};
use crate::history::History;
use crate::layout::{KnownSizes, ReadSizes};
use crate::piece::Piece;
use crate::tables::{Tables, NO_POS};
use crate::{Kind, MoveType, PieceSquares, PlayerIx, Pos};

pub(crate) mod changed;
mod make;

use make::stock_hash;
pub use make::Undo;

/// One change a step makes. A step's changes are applied in three passes: movements and
/// placements, then captures, creations, type and owner changes in recording order, then
/// attribute writes on the pieces standing on the named squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Change {
    /// Move the piece on `from` to `to` (whatever stands on `to` is removed).
    Move {
        /// Where the piece stands.
        from: Pos,
        /// Where it goes.
        to: Pos,
    },
    /// Put a new piece down as a movement (a drop, or `add-copy`).
    Place {
        /// Where it is put.
        pos: Pos,
        /// The piece.
        piece: Piece,
    },
    /// Remove the piece there.
    Capture {
        /// The square.
        pos: Pos,
    },
    /// Put a new piece there, replacing what stands there.
    Create {
        /// The square.
        pos: Pos,
        /// The new piece.
        piece: Piece,
    },
    /// Give the piece there another type.
    ChangeType {
        /// The square.
        pos: Pos,
        /// Its new type.
        kind: Kind,
    },
    /// Give the piece there to a player.
    ChangeOwner {
        /// The square.
        pos: Pos,
        /// Its new owner.
        owner: PlayerIx,
    },
    /// Give the piece to the other player (the next one in `players` order).
    Flip {
        /// The square.
        pos: Pos,
    },
    /// Set or clear an attribute of the piece there.
    SetAttribute {
        /// The square.
        pos: Pos,
        /// The attribute, by number.
        attribute: u8,
        /// Its new value.
        value: bool,
    },
    /// Take a piece of this kind from the player's off-board stock (a drop).
    TakeStock {
        /// Whose stock.
        player: PlayerIx,
        /// The type taken.
        kind: Kind,
    },
}

/// Whether the capture at `changes[index]` does nothing: a piece whose type, owner or
/// attributes the step changed before it cannot also be captured in it (Zillions keeps
/// one change per piece). Moves and saved-game records share this rule.
pub fn capture_is_void(changes: &[Change], index: usize) -> bool {
    let Some(&Change::Capture { pos }) = changes.get(index) else {
        return false;
    };
    changes[..index].iter().any(|c| match *c {
        Change::ChangeType { pos: p, .. }
        | Change::ChangeOwner { pos: p, .. }
        | Change::Flip { pos: p }
        | Change::SetAttribute { pos: p, .. } => p == pos,
        _ => false,
    })
}

/// What a step changes in a position, for the debug check of its direct arms
/// ([`State::apply_step`]): the board, its bitsets, the pieces captured and the stocks.
#[cfg(debug_assertions)]
type Placement<'a> = (&'a [Option<Piece>], &'a [u64], &'a [Piece], &'a [u32]);

/// The changes of one step: a few, so kept inline (no allocation per generated move).
pub type Changes = SmallVec<[Change; 2]>;

/// One step of a turn: what one `add` (or `add-partial`) produced.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// Where the moving piece started (none for drops).
    pub from: Option<Pos>,
    /// Where it arrived.
    pub to: Pos,
    /// What the step does, in the order the template recorded it.
    pub changes: Changes,
    /// The move type of the template that produced the step.
    pub move_type: Option<MoveType>,
    /// For `add-partial`: the move type the same piece continues with (`None`: untyped
    /// templates).
    pub continue_with: Option<Option<MoveType>>,
}

impl Clone for Step {
    fn clone(&self) -> Step {
        Step {
            // From a slice: a plain copy, where cloning copies change by change.
            changes: Changes::from_slice(&self.changes),
            ..*self
        }
    }
}

/// A position in play.
#[derive(Debug)]
pub struct State {
    /// Written only through [`State::put`] and the step appliers, which keep `occupied`.
    board: Vec<Option<Piece>>,
    /// Occupancy bitsets of `words` words each: first one per player (a piece of that
    /// player stands on the square), then one per player and type
    /// ([`PieceSquares::pair`]). Move generation visits the mover's pieces, goals count
    /// them, and attack tests and royal lookups take a type's pieces, all without
    /// scanning the board. On the heap even when small: read through one pointer,
    /// without the test of a small vector's every access for where its items are (a
    /// chess position's 14 words fit inline, a xiangqi's 32 do not).
    occupied: Vec<u64>,
    /// The game's players and types, which place the bitsets in `occupied`.
    sizes: PieceSquares,
    /// Per player and type ([`crate::PieceSquares::pair`]): pieces off the board, available for drops. Shared
    /// between copies of a position until one changes it (`Rc::make_mut`): most moves
    /// leave it alone, and most games never touch it.
    pub stock: Rc<[u32]>,
    /// Turns played so far (index into the turn order, cycling after `repeat`).
    pub turn: u32,
    /// Where the last turn started (`last-from?`, en passant).
    pub last_from: Option<Pos>,
    /// Where the last turn ended (`last-to?`).
    pub last_to: Option<Pos>,
    /// Pieces captured by the last move (for `captured` goals).
    pub last_captured: SmallVec<[Piece; 4]>,
    /// For repetition, when this position was reached by [`crate::Engine::play`]: its
    /// hash, and the positions before it.
    hash: Option<u64>,
    previous: Option<History>,
    /// The history of this position's successors (this one after `previous`): made when
    /// a move is first played from it, so that positions never played from (a search's
    /// leaves) make none. While a turn made in place on it stands, the position after
    /// holds it as its `previous`, and gives it back when the turn is taken back.
    entry: OnceCell<History>,
}

impl Clone for State {
    fn clone(&self) -> State {
        State {
            last_captured: SmallVec::from_slice(&self.last_captured),
            hash: self.hash,
            previous: self.previous.clone(),
            entry: self.entry.clone(),
            ..self.position_clone()
        }
    }

    /// Reuses this state's buffers: look-ahead copies one position into a scratch state
    /// many times per generated move list.
    fn clone_from(&mut self, source: &State) {
        self.board.clone_from(&source.board);
        self.occupied.clone_from(&source.occupied);
        self.sizes = source.sizes;
        self.stock.clone_from(&source.stock);
        self.turn = source.turn;
        self.last_from = source.last_from;
        self.last_to = source.last_to;
        self.last_captured.clone_from(&source.last_captured);
        self.hash = source.hash;
        self.previous.clone_from(&source.previous);
        self.entry.clone_from(&source.entry);
    }
}

impl State {
    /// A copy of the position alone: no history, no last captures (look-ahead).
    pub(crate) fn position_clone(&self) -> State {
        State {
            board: self.board.clone(),
            occupied: self.occupied.clone(),
            sizes: self.sizes,
            stock: self.stock.clone(),
            turn: self.turn,
            last_from: self.last_from,
            last_to: self.last_to,
            last_captured: SmallVec::new(),
            hash: None,
            previous: None,
            entry: OnceCell::new(),
        }
    }

    fn forget_history(&mut self) {
        self.hash = None;
        self.previous = None;
        self.entry = OnceCell::new();
    }

    /// The copy of this position a move is played on: its history is this position (whose
    /// hash is `hash`) and the ones before it; the last captures are the move's own.
    pub(crate) fn successor(&self, hash: u64) -> State {
        State {
            previous: Some(self.history_entry(hash).clone()),
            ..self.position_clone()
        }
    }

    /// [`State::successor`], written into `next`, reusing its buffers.
    pub(crate) fn successor_into(&self, hash: u64, next: &mut State) {
        next.copy_position_from(self);
        self.lead_to(hash, next);
    }

    /// Makes this position (whose hash is `hash`) and its history the history of `next`,
    /// a copy of it that a move was played on.
    pub(crate) fn lead_to(&self, hash: u64, next: &mut State) {
        next.previous = Some(self.history_entry(hash).clone());
    }

    /// The history of this position's successors, made on first use.
    fn history_entry(&self, hash: u64) -> &History {
        self.entry
            .get_or_init(|| History::pushed(self.previous.as_ref(), hash))
    }

    /// Sets the hash of a position made by [`State::successor`].
    pub(crate) fn set_hash(&mut self, hash: u64) {
        self.hash = Some(hash);
    }

    /// [`State::position_hash`], known without working it out when the position was
    /// reached by play.
    pub fn hash(&self, tables: &Tables) -> u64 {
        self.hash.unwrap_or_else(|| self.position_hash(tables))
    }

    /// The hash kept along the game, worked out from the position before and the
    /// squares the move changed: `None` unless the position was reached by play.
    pub fn played_hash(&self) -> Option<u64> {
        self.hash
    }

    /// Makes this scratch state a copy of `source`'s position, without its history or
    /// last captures, reusing the buffers (look-ahead, many times per move list).
    pub(crate) fn copy_position_from(&mut self, source: &State) {
        // Positions of one game are of one size: the squares and their bits are copied
        // as they stand, without the resizing `clone_from` allows for.
        if self.board.len() == source.board.len() {
            self.board.copy_from_slice(&source.board);
        } else {
            self.board.clone_from(&source.board);
        }
        if self.occupied.len() == source.occupied.len() {
            self.occupied.copy_from_slice(&source.occupied);
        } else {
            self.occupied.clone_from(&source.occupied);
        }
        // Games of other sizes may lay out as many words otherwise (a spare position
        // outlives the game it was made for).
        self.sizes = source.sizes;
        if !Rc::ptr_eq(&self.stock, &source.stock) {
            self.stock.clone_from(&source.stock);
        }
        self.turn = source.turn;
        self.last_from = source.last_from;
        self.last_to = source.last_to;
        self.last_captured.clear();
        self.forget_history();
    }

    /// `scratch` made a copy of the position in `state` (no history, no last captures),
    /// reusing its buffers if it holds one. Templates read neither.
    pub(crate) fn copy_into<'s>(
        scratch: &'s mut Option<Box<State>>,
        state: &State,
    ) -> &'s mut State {
        match scratch {
            Some(copy) => {
                copy.copy_position_from(state);
                copy
            }
            None => scratch.insert(Box::new(state.position_clone())),
        }
    }
}

impl PartialEq for State {
    fn eq(&self, other: &State) -> bool {
        self.board == other.board && self.stock == other.stock && self.turn == other.turn
    }
}

/// A position as plain data that may cross threads (a [`State`] shares its history
/// between copies, which keeps it on one thread): the board, stocks, turn, last move
/// and captures, and the hashes of the positions before it, so that repetition still
/// counts them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    board: Vec<Option<Piece>>,
    stock: Vec<u32>,
    turn: u32,
    last_from: Option<Pos>,
    last_to: Option<Pos>,
    last_captured: Vec<Piece>,
    hash: Option<u64>,
    /// Oldest first.
    history: Vec<u64>,
}

impl State {
    /// This position as data another thread can rebuild it from
    /// ([`State::from_snapshot`]).
    pub fn snapshot(&self) -> Snapshot {
        let history = self
            .previous
            .as_ref()
            .map_or_else(Vec::new, History::hashes);
        Snapshot {
            board: self.board.clone(),
            stock: self.stock.to_vec(),
            turn: self.turn,
            last_from: self.last_from,
            last_to: self.last_to,
            last_captured: self.last_captured.to_vec(),
            hash: self.hash,
            history,
        }
    }

    /// The position a [`Snapshot`] of the same game was taken of.
    pub fn from_snapshot(tables: &Tables, snapshot: &Snapshot) -> State {
        let mut state = State::start(tables);
        for (pos, piece) in snapshot.board.iter().enumerate().take(state.board.len()) {
            state.put(pos as Pos, *piece);
        }
        if snapshot.stock.len() == state.stock.len() {
            state.stock = snapshot.stock.as_slice().into();
        }
        state.turn = snapshot.turn;
        state.last_from = snapshot.last_from;
        state.last_to = snapshot.last_to;
        state.last_captured = SmallVec::from_slice(&snapshot.last_captured);
        state.hash = snapshot.hash;
        state.previous = snapshot.history.iter().fold(None, |previous, &hash| {
            Some(History::pushed(previous.as_ref(), hash))
        });
        state
    }

    /// The start position from the setup.
    pub fn start(tables: &Tables) -> State {
        let sizes = tables.layout();
        let mut state = State {
            board: vec![None; sizes.positions],
            occupied: vec![0; (sizes.players + sizes.pairs()) * sizes.words()],
            sizes,
            stock: vec![0; sizes.pairs()].into(),
            turn: 0,
            last_from: None,
            last_to: None,
            last_captured: SmallVec::new(),
            hash: None,
            previous: None,
            entry: OnceCell::new(),
        };
        for setup in &tables.setup {
            let piece = Piece {
                kind: setup.kind,
                owner: setup.player,
                attributes: tables.pieces[setup.kind as usize].default_attributes,
            };
            for &pos in &setup.positions {
                state.put(pos, Some(piece));
            }
            Rc::make_mut(&mut state.stock)
                [sizes.pair(setup.player as usize, setup.kind as usize)] += setup.off_board;
        }
        state
    }

    /// Every square, in position order.
    #[inline]
    pub fn board(&self) -> &[Option<Piece>] {
        &self.board
    }

    /// Sets what stands on `pos`.
    pub fn put(&mut self, pos: Pos, piece: Option<Piece>) {
        self.set_square::<ReadSizes>(pos, piece);
    }

    /// [`State::put`], inlined where a turn made in place is taken back.
    #[inline(always)]
    pub(super) fn set_square<S: KnownSizes + ?Sized>(&mut self, pos: Pos, piece: Option<Piece>) {
        let before = std::mem::replace(&mut self.board[pos as usize], piece);
        if let Some(before) = before {
            self.vacate::<S>(before, pos);
        }
        if let Some(piece) = piece {
            self.occupy::<S>(piece, pos);
        }
    }

    /// Takes the piece off `pos`.
    #[inline(always)]
    fn take<S: KnownSizes + ?Sized>(&mut self, pos: Pos) -> Option<Piece> {
        let piece = self.board[pos as usize].take();
        if let Some(piece) = piece {
            self.vacate::<S>(piece, pos);
        }
        piece
    }

    /// The position's sizes, as `S` knows them (see [`KnownSizes`]).
    #[inline(always)]
    fn sizes_in<S: KnownSizes + ?Sized>(&self) -> PieceSquares {
        match S::SIZES {
            Some(known) => {
                debug_assert_eq!(known, self.sizes, "sizes known for another game");
                known
            }
            None => self.sizes,
        }
    }

    /// The first words of the bitsets of `owner` and of its pieces of `kind` in
    /// `occupied`: none for an owner who is not one of the game's players (such a piece
    /// is on the board but no player's) or a type the game does not have.
    #[inline(always)]
    fn bitsets_in<S: KnownSizes + ?Sized>(
        &self,
        owner: PlayerIx,
        kind: Kind,
    ) -> Option<(usize, usize)> {
        let sizes = self.sizes_in::<S>();
        let (owner, kind) = (owner as usize, kind as usize);
        if owner >= sizes.players || kind >= sizes.kinds {
            return None;
        }
        let words = sizes.words();
        Some((
            owner * words,
            (sizes.players + sizes.pair(owner, kind)) * words,
        ))
    }

    #[inline]
    fn occupy<S: KnownSizes + ?Sized>(&mut self, piece: Piece, pos: Pos) {
        if let Some((by_owner, by_kind)) = self.bitsets_in::<S>(piece.owner, piece.kind) {
            let (word, bit) = (pos as usize / 64, 1 << (pos % 64));
            // One look at where the small vector keeps its words, not one per access.
            let occupied = &mut self.occupied[..];
            occupied[by_owner + word] |= bit;
            occupied[by_kind + word] |= bit;
        }
    }

    #[inline]
    fn vacate<S: KnownSizes + ?Sized>(&mut self, piece: Piece, pos: Pos) {
        if let Some((by_owner, by_kind)) = self.bitsets_in::<S>(piece.owner, piece.kind) {
            let (word, bit) = (pos as usize / 64, 1 << (pos % 64));
            let occupied = &mut self.occupied[..];
            occupied[by_owner + word] &= !bit;
            occupied[by_kind + word] &= !bit;
        }
    }

    /// Whether the occupancy bitsets say what the board says (for debug checks: every
    /// write to the board keeps them).
    pub(crate) fn occupancy_matches_board(&self) -> bool {
        let mut expected: SmallVec<[u64; 16]> = smallvec![0; self.occupied.len()];
        for (pos, piece) in self.board.iter().enumerate() {
            let bitsets = |p: Piece| self.bitsets_in::<ReadSizes>(p.owner, p.kind);
            if let Some((by_owner, by_kind)) = piece.and_then(bitsets) {
                let (word, bit) = (pos / 64, 1 << (pos % 64));
                expected[by_owner + word] |= bit;
                expected[by_kind + word] |= bit;
            }
        }
        expected[..] == self.occupied[..]
    }

    /// The squares of `player`'s pieces, in position order.
    #[inline]
    pub fn squares_of(&self, player: PlayerIx) -> impl Iterator<Item = Pos> + '_ {
        squares_in(self.own_words(player).iter().copied())
    }

    /// The squares of `player`'s pieces, in position order, but for those below 256
    /// whose bits are set in `except` (a word per 64 squares), masked off as each word
    /// is read.
    #[inline]
    pub(crate) fn squares_of_except<S: KnownSizes + ?Sized>(
        &self,
        player: PlayerIx,
        except: [u64; 4],
    ) -> impl Iterator<Item = Pos> + '_ {
        squares_except(self.own_words_in::<S>(player).iter().copied(), except)
    }

    /// `player`'s pieces with their squares, in position order.
    #[inline]
    pub fn pieces_of(&self, player: PlayerIx) -> impl Iterator<Item = (Pos, Piece)> + '_ {
        let piece_at = |pos: Pos| Some((pos, self.board.get(pos as usize).copied().flatten()?));
        self.squares_of(player).filter_map(piece_at)
    }

    /// Whether `player` has a piece on the board.
    pub fn has_pieces(&self, player: PlayerIx) -> bool {
        self.own_words(player).iter().any(|&word| word != 0)
    }

    /// How many pieces `player` has on the board.
    pub fn count_of(&self, player: PlayerIx) -> usize {
        let own = self.own_words(player).iter();
        own.map(|word| word.count_ones() as usize).sum()
    }

    /// Whether a piece of `player` stands on `pos`.
    #[inline]
    pub fn is_owned_by(&self, pos: Pos, player: PlayerIx) -> bool {
        let word = pos as usize / 64;
        self.own_words(player)
            .get(word)
            .is_some_and(|w| w >> (pos % 64) & 1 == 1)
    }

    /// The squares of `player`'s pieces as a bitset (bit `pos % 64` of word `pos / 64`).
    #[inline]
    pub fn own_words(&self, player: PlayerIx) -> &[u64] {
        self.own_words_in::<ReadSizes>(player)
    }

    /// [`State::own_words`] in the sizes `S` knows.
    #[inline(always)]
    pub(crate) fn own_words_in<S: KnownSizes + ?Sized>(&self, player: PlayerIx) -> &[u64] {
        let sizes = self.sizes_in::<S>();
        if player as usize >= sizes.players {
            return &[];
        }
        let words = sizes.words();
        let start = player as usize * words;
        self.occupied.get(start..start + words).unwrap_or(&[])
    }

    /// The bitsets of each player's pieces of each type, one after another
    /// ([`State::kinds_words`] of every player), each of as many words as
    /// [`State::own_words`]: where every piece stands and what it is.
    #[inline(always)]
    pub(crate) fn all_kinds_words_in<S: KnownSizes + ?Sized>(&self) -> &[u64] {
        let sizes = self.sizes_in::<S>();
        let start = sizes.players * sizes.words();
        self.occupied.get(start..).unwrap_or(&[])
    }

    /// The words of `occupied` that hold the squares of `player`'s pieces of `kind`, in
    /// the sizes `S` knows.
    #[inline(always)]
    pub(crate) fn kind_words_in<S: KnownSizes + ?Sized>(
        &self,
        player: PlayerIx,
        kind: Kind,
    ) -> &[u64] {
        let Some((_, start)) = self.bitsets_in::<S>(player, kind) else {
            return &[];
        };
        let words = self.sizes_in::<S>().words();
        self.occupied.get(start..start + words).unwrap_or(&[])
    }

    /// The squares of `player`'s pieces, type by type: each type's bitset (bit `pos % 64`
    /// of word `pos / 64`, as many words as the board needs) after the one before.
    #[inline]
    pub fn kinds_words(&self, player: PlayerIx) -> &[u64] {
        self.kinds_words_in::<ReadSizes>(player)
    }

    /// [`State::kinds_words`] in the sizes `S` knows.
    #[inline(always)]
    pub(crate) fn kinds_words_in<S: KnownSizes + ?Sized>(&self, player: PlayerIx) -> &[u64] {
        let Some((_, start)) = self.bitsets_in::<S>(player, 0) else {
            return &[];
        };
        let sizes = self.sizes_in::<S>();
        let len = sizes.kinds * sizes.words();
        self.occupied.get(start..start + len).unwrap_or(&[])
    }

    /// The squares of `player`'s pieces of `kind`, in position order.
    #[inline]
    pub fn squares_of_kind(&self, player: PlayerIx, kind: Kind) -> impl Iterator<Item = Pos> + '_ {
        squares_in(
            self.kind_words_in::<ReadSizes>(player, kind)
                .iter()
                .copied(),
        )
    }

    /// How many pieces of `kind` `player` has on the board.
    pub fn count_of_kind(&self, player: PlayerIx, kind: Kind) -> usize {
        let words = self.kind_words_in::<ReadSizes>(player, kind).iter();
        words.map(|word| word.count_ones() as usize).sum()
    }

    /// The piece on a square, if any.
    #[inline]
    pub fn at(&self, pos: Pos) -> Option<Piece> {
        if pos == NO_POS {
            return None;
        }
        self.board.get(pos as usize).copied().flatten()
    }

    /// How many pieces of `kind` `player` has off the board.
    #[inline]
    pub fn stock(&self, tables: &Tables, player: PlayerIx, kind: Kind) -> u32 {
        self.stock[tables.layout().pair(player as usize, kind as usize)]
    }

    /// How many pieces of each type `player` has off the board, by type (empty for a
    /// player outside the game).
    #[inline]
    pub fn stocks_of(&self, player: PlayerIx) -> &[u32] {
        let kinds = self.sizes.kinds;
        let start = player as usize * kinds;
        self.stock.get(start..start + kinds).unwrap_or(&[])
    }

    /// What repetition compares: placement (with attributes), stocks and the player to
    /// move, as a Zobrist hash with the game's keys.
    pub fn position_hash(&self, tables: &Tables) -> u64 {
        let mut hash = self.stock_hash(tables) ^ self.mover_hash(tables);
        for pos in 0..self.board.len() {
            hash ^= self.square_hash(tables, pos as Pos);
        }
        hash
    }

    /// [`State::position_hash`] of this position, reached from `before` (whose hash is
    /// `before_hash`) by changes to the squares in `changed` (each once) only.
    pub(crate) fn hash_from(
        &self,
        tables: &Tables,
        before: &State,
        before_hash: u64,
        changed: &[Pos],
    ) -> u64 {
        debug_assert_eq!(self.turn, before.turn + 1, "a position after one turn");
        let mut hash = before_hash ^ tables.mover_change_key(before.turn);
        if !Rc::ptr_eq(&self.stock, &before.stock) && self.stock != before.stock {
            hash ^= before.stock_hash(tables) ^ self.stock_hash(tables);
        }
        for &pos in changed {
            hash ^= before.square_hash(tables, pos) ^ self.square_hash(tables, pos);
        }
        hash
    }

    #[inline]
    fn square_hash(&self, tables: &Tables, pos: Pos) -> u64 {
        make::piece_key(tables, pos, self.at(pos))
    }

    fn stock_hash(&self, tables: &Tables) -> u64 {
        stock_hash(tables, &self.stock)
    }

    fn mover_hash(&self, tables: &Tables) -> u64 {
        tables.mover_key(self.turn)
    }

    /// How many times this position occurred, this time included.
    pub fn occurrences(&self, tables: &Tables) -> usize {
        let hash = self.hash(tables);
        1 + self.previous.as_ref().map_or(0, |p| p.occurrences_of(hash))
    }

    /// Whether this position occurred at least `times` times, this time included: the
    /// repetition test of the goals, cheaper than counting.
    pub fn occurs_at_least(&self, tables: &Tables, times: usize) -> bool {
        let before = times.saturating_sub(1);
        before == 0
            || self
                .previous
                .as_ref()
                .is_some_and(|p| p.occurs_at_least(self.hash(tables), before))
    }

    /// Applies one step to the board (not the turn counter).
    // Inlined with the piece moves below, the general path kept out of line: a search
    // applies a step per turn it makes, and the calls were 2.3% of English checkers
    // perft 8's instructions (callgrind).
    #[inline]
    pub fn apply_step(&mut self, tables: &Tables, step: &Step) {
        self.apply_step_in::<ReadSizes>(tables, step);
    }

    /// [`State::apply_step`] in the sizes `S` knows.
    #[inline(always)]
    pub(crate) fn apply_step_in<S: KnownSizes + ?Sized>(&mut self, tables: &Tables, step: &Step) {
        // The invariant of the direct arms of `apply_step_changes`: they leave the board,
        // the bitsets, the pieces captured and the stocks as the general path does.
        // Debug builds apply every step both ways.
        #[cfg(debug_assertions)]
        let mut general = self.clone();
        self.apply_step_changes::<S>(tables, step);
        debug_assert!(
            self.occupancy_matches_board(),
            "occupancy bitsets out of step with the board after {step:?}"
        );
        #[cfg(debug_assertions)]
        {
            general.apply_any_changes(tables, &step.changes);
            debug_assert!(
                self.placement() == general.placement(),
                "{step:?} applied directly differs from the general path"
            );
        }
    }

    /// Its [`Placement`].
    #[cfg(debug_assertions)]
    fn placement(&self) -> Placement<'_> {
        (
            &self.board,
            &self.occupied,
            &self.last_captured,
            &self.stock,
        )
    }

    #[inline(always)]
    fn apply_step_changes<S: KnownSizes + ?Sized>(&mut self, tables: &Tables, step: &Step) {
        self.last_from = step.from;
        self.last_to = Some(step.to);
        // The commonest steps, a piece moving and perhaps capturing one other, need none
        // of the general path's passes.
        match step.changes[..] {
            [Change::Move { from, to }] => self.move_piece::<S>(tables, from, to),
            [Change::Move { from, to }, Change::Capture { pos }] => {
                self.move_piece::<S>(tables, from, to);
                if let Some(taken) = self.take::<S>(pos) {
                    self.removed(tables, taken);
                }
            }
            _ => self.apply_any_changes(tables, &step.changes),
        }
    }

    /// The changes of a step (the general path, taken by those other than a piece moving
    /// and perhaps capturing one): out of line, so that the commonest steps do not pay
    /// for its buffers.
    #[inline(never)]
    fn apply_any_changes(&mut self, tables: &Tables, changes: &[Change]) {
        let mut removed: SmallVec<[Piece; 4]> = SmallVec::new();
        self.apply_changes(tables, changes, &mut removed);
        for piece in removed {
            self.removed(tables, piece);
        }
    }

    #[inline(always)]
    fn move_piece<S: KnownSizes + ?Sized>(&mut self, tables: &Tables, from: Pos, to: Pos) {
        let piece = self.board[from as usize].take();
        if let Some(taken) = self.take::<S>(to) {
            self.removed(tables, taken);
        }
        let Some(piece) = piece else {
            return;
        };
        self.board[to as usize] = Some(piece);
        // The same owner and type on both squares: each of its two bitsets loses one
        // bit and gains another.
        if let Some((by_owner, by_kind)) = self.bitsets_in::<S>(piece.owner, piece.kind) {
            let (from_word, from_bit) = (from as usize / 64, 1u64 << (from % 64));
            let (to_word, to_bit) = (to as usize / 64, 1u64 << (to % 64));
            let occupied = &mut self.occupied[..];
            for start in [by_owner, by_kind] {
                occupied[start + from_word] &= !from_bit;
                occupied[start + to_word] |= to_bit;
            }
        }
    }

    /// Keeps a piece a step took off the board: for `captured` goals, and in its owner's
    /// stock when captures are recycled.
    fn removed(&mut self, tables: &Tables, piece: Piece) {
        if tables.options.recycle_captures {
            let slot = tables
                .layout()
                .pair(piece.owner as usize, piece.kind as usize);
            Rc::make_mut(&mut self.stock)[slot] += 1;
        }
        self.last_captured.push(piece);
    }

    fn apply_changes(
        &mut self,
        tables: &Tables,
        changes: &[Change],
        removed: &mut SmallVec<[Piece; 4]>,
    ) {
        // 1. Movements and placements, read from the board before the step so that a
        //    row pushed with `cascade` moves as one.
        let moving: SmallVec<[(Option<Piece>, Pos); 4]> = changes
            .iter()
            .filter_map(|c| match *c {
                Change::Move { from, to } => Some((self.at(from), to)),
                Change::Place { pos, piece } => Some((Some(piece), pos)),
                _ => None,
            })
            .collect();
        for change in changes {
            if let Change::Move { from, .. } = *change {
                self.take::<ReadSizes>(from);
            }
        }
        for (piece, to) in moving {
            if let Some(occupant) = self.take::<ReadSizes>(to) {
                removed.push(occupant);
            }
            self.put(to, piece);
        }
        // 2. Captures, creations, type and owner changes.
        for (index, change) in changes.iter().enumerate() {
            match *change {
                Change::Capture { pos } => {
                    if !capture_is_void(changes, index) {
                        if let Some(piece) = self.take::<ReadSizes>(pos) {
                            removed.push(piece);
                        }
                    }
                }
                Change::Create { pos, piece } => {
                    if let Some(occupant) = self.take::<ReadSizes>(pos) {
                        removed.push(occupant);
                    }
                    self.put(pos, Some(piece));
                }
                Change::ChangeType { pos, kind } => {
                    if let Some(piece) = self.at(pos) {
                        self.put(pos, Some(Piece { kind, ..piece }));
                    }
                }
                Change::ChangeOwner { pos, owner } => {
                    if let Some(piece) = self.at(pos) {
                        self.put(pos, Some(Piece { owner, ..piece }));
                    }
                }
                Change::Flip { pos } => {
                    if let Some(piece) = self.at(pos) {
                        let owner = tables.flipped_owner(piece.owner);
                        self.put(pos, Some(Piece { owner, ..piece }));
                    }
                }
                Change::TakeStock { player, kind } => {
                    let slot = tables.layout().pair(player as usize, kind as usize);
                    let slot = &mut Rc::make_mut(&mut self.stock)[slot];
                    *slot = slot.saturating_sub(1);
                }
                Change::Move { .. } | Change::Place { .. } | Change::SetAttribute { .. } => {}
            }
        }
        // 3. Attributes, on whatever piece now stands on the square.
        for change in changes {
            if let Change::SetAttribute {
                pos,
                attribute,
                value,
            } = *change
            {
                if let Some(piece) = &mut self.board[pos as usize] {
                    if value {
                        piece.attributes |= 1 << attribute;
                    } else {
                        piece.attributes &= !(1 << attribute);
                    }
                }
            }
        }
    }
}
