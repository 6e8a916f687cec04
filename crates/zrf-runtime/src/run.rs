//! One run of one move or drop template, with Zillions' semantics.
//!
//! The board is never modified while a template runs: predicates read the position as it
//! was before the move (the moving piece still on its square, captured pieces still
//! there), and every effect is recorded as a pending [`Change`]. `add` turns the pending
//! changes into a [`Step`] and clears them, so effects recorded before an `add` are not
//! part of moves added later in the same run. Flags and position flags belong to the run
//! (they start false for every run, so for every partial move); there is one mark.

use std::cell::Cell;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, Ordering};

use smallvec::SmallVec;

use crate::piece::Piece;
use crate::shape::SquareSet;
use crate::state::{Change, Changes, State, Step};
use crate::tables::{Tables, Turn, NO_POS};
use crate::turn::{Move, Routes};
use crate::{Dir, Kind, MoveType, PlayerIx, Pos};

/// The template failed (a `verify`, a step off the board, `back` with no mark, ...):
/// the rest of the run is skipped; moves already added are kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fail;

/// What a navigation or an effect returns: `Err` fails the template run.
pub type StepResult = Result<(), Fail>;

/// Whether a step [`RunCore::add`] makes moves the piece or leaves a copy of it behind
/// (`add-copy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// The piece leaves its square.
    Move,
    /// The piece stays, and a copy goes.
    Copy,
}

/// Whether a step [`RunCore::add`] makes ends the turn or is partial (`add-partial`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Continuation {
    /// The step completes the turn.
    Complete,
    /// The same piece may continue with moves of this type (`None`: its untyped
    /// templates).
    Partial(Option<MoveType>),
}

impl Continuation {
    /// As [`Step::continue_with`] keeps it.
    pub fn continue_with(self) -> Option<Option<MoveType>> {
        match self {
            Continuation::Complete => None,
            Continuation::Partial(move_type) => Some(move_type),
        }
    }
}

/// Where a predicate looks or an effect applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loc {
    /// The current position.
    Here,
    /// A named position.
    Pos(Pos),
    /// The position one step from the current one in a direction.
    Dir(Dir),
    /// `(opposite dir)`.
    Opposite(Dir),
}

/// Where runs put the steps they add: every step, or (for the attack test) only those
/// that could remove a piece from one of a few squares. Each step is kept as a turn of
/// its own, so that a move list is made without copying the steps again.
#[derive(Clone, Debug)]
pub struct Steps {
    moves: Vec<Move>,
    /// Loop iterations spent by the runs into these steps (see [`MAX_LIST_WORK`]).
    work: u32,
    /// Where the first partial step is in `moves`: the turns from there on wait for
    /// their chains to be followed.
    first_partial: Option<usize>,
    keep: Keep,
    /// The routes of `moves`, to tell that no two turns of the list do the same.
    routes: Routes,
    /// Whether runs note the squares they look at in `footprint`.
    noting: bool,
    footprint: Cell<Footprint>,
    purpose: Purpose,
}

/// What one caller wants of the steps besides which are kept ([`Keep`]): each choice
/// serves one caller, and excludes the others.
#[derive(Clone, Copy, Debug)]
enum Purpose {
    /// Every step kept is a turn of the list.
    List,
    /// Steps that only move a piece onto an empty square, completing the turn, are
    /// dropped as they come (a quiescence search's list, see [`Steps::keep_loud_only`]).
    LoudOnly,
    /// The turns of one plain movement that would be kept and need no test are counted
    /// instead (a perft's last ply, see [`Steps::count_plain`]).
    Count(Counted),
    /// The first steps are counted without being kept (a random draw, see
    /// [`Steps::start_skipping`]).
    Skip(Skipped),
}

/// What [`Steps::start_skipping`] counted without keeping.
#[derive(Clone, Copy, Debug)]
struct Skipped {
    /// How many of the next steps to count.
    left: usize,
    /// How many were counted, whether one was partial, whether one started elsewhere
    /// than on `anchor`.
    count: usize,
    partial: bool,
    elsewhere: bool,
    anchor: Pos,
}

/// What [`Steps::count_plain`] counted instead of keeping.
#[derive(Clone, Copy, Debug)]
struct Counted {
    turns: u32,
    /// Their move type, and whether they had several (which `move-priorities` may rank
    /// apart).
    move_type: Option<Option<MoveType>>,
    types_differ: bool,
    /// Their routes. Only a turn of one step, one movement and no continuation can do
    /// what a counted one does, and such a turn is counted whenever one of the same
    /// route is (whether it is kept, and whether the screen decides it, depends on its
    /// route, and on its move type only under priorities, which keep all of a type or
    /// none): counted turns are told apart from every other when these routes all
    /// differ.
    routes: Routes,
    /// How many of the turns were partial steps counted as whole turns, their chains
    /// ending where they land ([`Steps::count_ended_chain`]): the budget of chain steps
    /// the list would have spent on them.
    ended_chains: u32,
}

impl Counted {
    const NONE: Counted = Counted {
        turns: 0,
        move_type: None,
        types_differ: false,
        routes: Routes::STARTING,
        ended_chains: 0,
    };

    /// Counts a turn from `from` to `to` of `move_type` instead of keeping it.
    #[inline]
    fn note(&mut self, from: Pos, to: Pos, move_type: Option<MoveType>) {
        self.turns += 1;
        self.routes.note(Some(from), to);
        self.note_type(move_type);
    }

    #[inline]
    fn note_type(&mut self, move_type: Option<MoveType>) {
        match self.move_type {
            None => self.move_type = Some(move_type),
            Some(counted) => self.types_differ |= counted != move_type,
        }
    }
}

/// Which steps [`Steps`] keeps: one choice, so that the usual one costs one test per step.
#[derive(Clone, Debug, Default)]
// An explicit tag: the test for the usual choice is then one comparison.
#[repr(u8)]
enum Keep {
    #[default]
    Every,
    /// Only the steps that may remove a piece from one of these squares, and partial ones
    /// (their continuations might). Asking whether a king is attacked then builds no
    /// list of the enemy's quiet moves.
    Hitting(SmallVec<[Pos; 4]>),
    /// Under `move-priorities` with no legality filter after them: the first type they
    /// list, and whether a step of it was kept. Once one is, only steps of that type are
    /// kept (priorities are to drop the others), and those kept before it are dropped.
    Narrowing(MoveType, bool),
    /// Every step, noting which the `checkmated` filter must test one by one.
    Screening(Screen),
}

/// Plain turns of pieces on the squares of a [`SquareSet`] counted in bulk over a
/// position, apart from [`Steps`] until [`Steps::take_bulk_count`] (see
/// [`crate::bulk`]): each piece's turns are those [`Steps::count_plain`] would count one
/// by one as they came (kept, decided by the screen, needing no test).
#[derive(Clone, Copy, Debug)]
pub(crate) struct BulkCount<B> {
    /// The squares of the set the screen does not decide (none without a screen).
    danger: B,
    /// The move type of the turns counted.
    move_type: Option<MoveType>,
    /// Turns counted, and the loop iterations their templates' code would spend.
    turns: u32,
    work: u32,
    /// The squares with turns counted, the last of them counted alone and where its
    /// turns go ([`NO_POS`] after pieces counted together,
    /// [`BulkCount::count_together`]).
    origins: B,
    last: (Pos, B),
    /// The work, and the turns, that [`Steps`] could take when it last took the count
    /// before a bound of its list is reached.
    work_room: u32,
    turns_room: usize,
}

impl<B: SquareSet> BulkCount<B> {
    /// Counts the turns of the piece on `from` to each of `targets` (`all` squares),
    /// whose templates' code would spend `slid` loop iterations, where the screen
    /// decides them, and answers those it does not decide, to be added one by one;
    /// `None`, counting nothing, where the list might reach a bound on the way (the
    /// code then runs).
    #[inline]
    pub(crate) fn count(&mut self, from: Pos, targets: B, all: u32, slid: u32) -> Option<B> {
        let work = self.work.saturating_add(slid);
        if work > self.work_room || self.turns as usize + B::WIDTH as usize >= self.turns_room {
            return None;
        }
        let undecided = match self.danger.has(from) {
            false => targets & self.danger,
            true => targets,
        };
        self.work = work;
        let decided = match undecided.is_empty() {
            true => (targets, all),
            false => {
                let decided = targets & !undecided;
                (decided, decided.count())
            }
        };
        if decided.1 != 0 {
            self.turns += decided.1;
            self.origins |= B::bit(from);
            self.last = (from, decided.0);
        }
        Some(undecided)
    }

    /// The squares the screen does not decide (see [`BulkCount::count`]).
    pub(crate) fn danger(&self) -> B {
        self.danger
    }

    /// Counts `turns` of the pieces on `origins` counted together, none counted before
    /// in this tally; whether they fit in the list's room (else nothing is counted, and
    /// the pieces are to be counted one by one).
    #[inline]
    pub(crate) fn count_together(&mut self, turns: u32, origins: B) -> bool {
        let room = self.turns as usize + turns as usize + B::WIDTH as usize;
        if !self.origins.is_empty() || room >= self.turns_room {
            return false;
        }
        self.turns += turns;
        self.origins = origins;
        self.last = (NO_POS, B::default());
        true
    }

    /// Empties the tally, for `steps` as they now are.
    #[inline]
    fn restart(&mut self, steps: &Steps) {
        self.turns = 0;
        self.work = 0;
        self.origins = B::default();
        self.last = (NO_POS, B::default());
        self.work_room = MAX_LIST_WORK.saturating_sub(steps.work);
        self.turns_room = MAX_LIST_MOVES.saturating_sub(steps.listed());
    }
}

/// Under the `checkmated` filter: the squares the attack test on the position before
/// depended on, and the turns kept so far whose legality that test may not decide. A
/// turn that only moves the mover's piece, and perhaps captures, away from those
/// squares is legal exactly when the position before was safe; telling so as the step
/// is kept costs a few tests, where looking again at each turn afterwards costs a pass.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Screen {
    danger: Footprint,
    /// Bit `i`: the turn at index `i` is undecided. Turns from index 64 on are never
    /// decided (a bit set keeps [`Steps`] as small as before).
    undecided: u64,
}

impl Screen {
    /// Whether the turn at `index` must be tested one by one.
    pub(crate) fn is_undecided(undecided: u64, index: usize) -> bool {
        index >= 64 || undecided >> index & 1 == 1
    }

    #[inline]
    fn mark(&mut self, index: usize) {
        if index < 64 {
            self.undecided |= 1 << index;
        }
    }

    /// Notes the turn about to be kept at `index`, of one step with these `changes`,
    /// taking a movement for the moving piece's (as in [`RunCore::add`]'s common case;
    /// [`Steps::screen_since`] looks again at the others).
    #[inline]
    fn note_changes(&mut self, index: usize, changes: &[Change], partial: bool) -> bool {
        let untouched = |pos: Pos| !self.danger.contains(pos);
        let decided = !partial
            && match *changes {
                [Change::Move { from, to }] => untouched(from) && untouched(to),
                [Change::Move { from, to }, Change::Capture { pos }] => {
                    untouched(from) && untouched(to) && untouched(pos)
                }
                _ => false,
            };
        if !decided {
            self.mark(index);
        }
        decided
    }

    /// Notes again the turns of `moves` from index `first` on. Out of line: only steps
    /// with more than a movement come here.
    #[inline(never)]
    fn note_kept(&mut self, first: usize, moves: &[Move]) {
        for (index, mv) in moves.iter().enumerate().skip(first) {
            // The moving piece is the one the run took up: the mover's, never the
            // attacker's (screening is only for turns whose attacker is another player).
            let decided = match &mv.steps[..] {
                [step] => match step.changes[..] {
                    [Change::Move { from, .. }]
                    | [Change::Move { from, .. }, Change::Capture { .. }] => {
                        step.from == Some(from)
                    }
                    _ => false,
                },
                _ => false,
            };
            if !decided {
                self.mark(index);
            }
        }
    }
}

/// The squares some template runs looked at, folded onto 128 bits (square `p` stands for
/// every square congruent to it modulo 128): enough to tell that a move changed none of
/// them, and so that the runs would add the same steps after it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Footprint([u64; 2]);

impl Footprint {
    /// Runs that looked at something other than squares (the last move, the whole
    /// board): no change is known to leave them alone.
    pub const EVERYTHING: Footprint = Footprint([u64::MAX; 2]);

    /// Adds a square.
    #[inline]
    pub fn note(&mut self, pos: Pos) {
        self.0[(pos as usize >> 6) & 1] |= 1 << (pos & 63);
    }

    /// Whether a square is in the footprint (squares are kept modulo 128: a larger board only makes it answer yes more often).
    #[inline]
    pub fn contains(&self, pos: Pos) -> bool {
        self.0[(pos as usize >> 6) & 1] >> (pos & 63) & 1 == 1
    }

    /// The squares of a [`SquareSet`] the footprint [`Footprint::contains`]: on a set
    /// wider than 128 squares, those folded onto the same bit are all in.
    #[inline]
    pub(crate) fn squares<B: SquareSet>(&self) -> B {
        let [low, high] = self.0;
        B::from_words(&[low, high, low, high])
    }

    /// The squares of both.
    pub fn union(self, other: Footprint) -> Footprint {
        Footprint([self.0[0] | other.0[0], self.0[1] | other.0[1]])
    }
}

impl Default for Steps {
    fn default() -> Steps {
        Steps::new()
    }
}

impl Steps {
    /// Keeps every step.
    pub fn new() -> Steps {
        Steps::of(Vec::new(), Keep::Every)
    }

    /// Steps kept as `keep` says, after the turns in `moves`.
    /// Every field is written here, not taken from a default: a default built apart
    /// and then copied over stalls the copy's loads behind its narrower stores, once
    /// every random move.
    fn of(moves: Vec<Move>, keep: Keep) -> Steps {
        // The turns already there are not among the routes followed.
        let clash = !moves.is_empty();
        Steps {
            moves,
            work: 0,
            first_partial: None,
            keep,
            routes: Routes::starting(clash),
            noting: false,
            footprint: Cell::new(Footprint::default()),
            purpose: Purpose::List,
        }
    }

    /// Makes these steps drop as they come those that only move a piece onto an empty
    /// square and complete the turn: turns that neither remove a piece nor promote,
    /// which a search that wants only those ([`crate::Game::legal_loud_moves_into`])
    /// need not build or test. Steps with other changes are all kept, for the caller to
    /// sort out. For first steps only: a chain's last step may be quiet when the turn
    /// is not.
    pub(crate) fn keep_loud_only(&mut self) {
        self.purpose = Purpose::LoudOnly;
    }

    /// Whether most quiet first steps are left out ([`Steps::keep_loud_only`]).
    #[inline]
    pub(crate) fn is_loud_only(&self) -> bool {
        matches!(self.purpose, Purpose::LoudOnly)
    }

    /// Keeps only the steps that may remove a piece from one of `targets`, and partial
    /// steps.
    pub fn hitting(targets: &[Pos]) -> Steps {
        Steps::of(Vec::new(), Keep::Hitting(SmallVec::from_slice(targets)))
    }

    /// Makes runs into these steps note the squares they look at, in [`Steps::footprint`].
    pub fn noting_reads(mut self) -> Steps {
        self.noting = true;
        self
    }

    /// What the runs into these steps looked at (with [`Steps::noting_reads`]).
    pub fn footprint(&self) -> Footprint {
        self.footprint.get()
    }

    #[inline]
    fn note_read(&self, pos: Pos) {
        if self.noting && pos != NO_POS {
            let mut footprint = self.footprint.get();
            footprint.note(pos);
            self.footprint.set(footprint);
        }
    }

    #[inline]
    fn note_everything(&self) {
        if self.noting {
            self.footprint.set(Footprint::EVERYTHING);
        }
    }

    /// Whether a step with these changes, partial or not, of `move_type`, is to be kept.
    /// `plain_movement`: the step is the one movement in `changes`, from its `from` to its
    /// `to`, with nothing to add (no promotion), so that [`Steps::count_plain`] may
    /// count it instead.
    #[inline]
    fn wants(
        &mut self,
        changes: &[Change],
        partial: bool,
        move_type: Option<MoveType>,
        plain_movement: bool,
    ) -> bool {
        // Whether a kept step needs nothing more (complete, and decided by the screen).
        let mut settled = !partial;
        let kept = match self.keep {
            Keep::Every => true,
            Keep::Hitting(_) if partial => {
                // Its continuations run on positions the footprint knows nothing of.
                self.note_everything();
                true
            }
            Keep::Hitting(ref targets) => hits_any(changes, targets),
            Keep::Narrowing(..) => self.narrowing_keeps(move_type),
            Keep::Screening(ref mut screen) => {
                settled = screen.note_changes(self.moves.len(), changes, partial);
                true
            }
        };
        match (&mut self.purpose, changes) {
            (Purpose::Count(counted), &[Change::Move { from, to }])
                if plain_movement && kept && settled =>
            {
                counted.note(from, to, move_type);
                false
            }
            _ => kept,
        }
    }

    /// Keeps every step, after the turns already in `moves`.
    pub fn appending_to(moves: Vec<Move>) -> Steps {
        Steps::of(moves, Keep::Every)
    }

    /// Keeps every step until one of `move_type` comes, then only those (see
    /// [`Keep::Narrowing`]), in `moves` (emptied first).
    pub(crate) fn narrowing_to(move_type: MoveType, mut moves: Vec<Move>) -> Steps {
        moves.clear();
        Steps::of(moves, Keep::Narrowing(move_type, false))
    }

    /// Keeps every step, in `moves` (emptied first), noting which turns the attack test
    /// that looked at the `danger` squares does not decide (see [`Screen`]).
    pub(crate) fn screening(danger: Footprint, mut moves: Vec<Move>) -> Steps {
        moves.clear();
        let keep = Keep::Screening(Screen {
            danger,
            undecided: 0,
        });
        Steps::of(moves, keep)
    }

    /// Makes these steps count instead of keeping the turns of one step that only move a
    /// piece (made in the common way: no pending change, no promotion), would be kept,
    /// complete the turn and need no test: with [`Steps::screening`], those the screen
    /// decides ([`Steps::counted`]). A perft's last ply wants only how many legal turns
    /// there are. Partial steps whose chains end where they land are counted too, where
    /// every step is kept or steps narrow to a type ([`Steps::count_ended_chain`]).
    pub(crate) fn count_plain(&mut self) {
        // An attack test's steps are never counted: it asks which they are.
        if !matches!(self.keep, Keep::Hitting(_)) {
            self.purpose = Purpose::Count(Counted::NONE);
        }
    }

    /// What [`Steps::count_plain`] counted, if it counts.
    fn counted_so_far(&self) -> Option<&Counted> {
        match &self.purpose {
            Purpose::Count(counted) => Some(counted),
            _ => None,
        }
    }

    /// Whether these steps count plain turns ([`Steps::count_plain`]), keep every step
    /// (or every step until one of the narrowed type comes: the caller stops counting
    /// in bulk once one has) or screen them, and note nothing: then turns may be
    /// counted in bulk into them ([`Steps::bulk_count`]).
    #[inline]
    pub(crate) fn counts_in_bulk(&self) -> bool {
        matches!(
            self.keep,
            Keep::Every | Keep::Narrowing(_, false) | Keep::Screening(_)
        ) && matches!(self.purpose, Purpose::Count(_))
            && !self.noting
    }

    /// A tally for counting plain turns of `move_type` in bulk into these steps
    /// ([`BulkCount`]), where [`Steps::counts_in_bulk`].
    #[inline]
    pub(crate) fn bulk_count<B: SquareSet>(&self, move_type: Option<MoveType>) -> BulkCount<B> {
        debug_assert!(self.counts_in_bulk());
        let danger = match &self.keep {
            Keep::Screening(screen) => screen.danger.squares(),
            _ => B::default(),
        };
        let mut count = BulkCount {
            danger,
            move_type,
            turns: 0,
            work: 0,
            origins: B::default(),
            last: (NO_POS, B::default()),
            work_room: 0,
            turns_room: 0,
        };
        count.restart(self);
        count
    }

    /// Adds the turns `count` counted to those counted here, as [`RunCore::add`] would
    /// have one by one, and empties it.
    #[inline]
    pub(crate) fn take_bulk_count<B: SquareSet>(&mut self, count: &mut BulkCount<B>) {
        self.work += count.work;
        if let (Purpose::Count(counted), true) = (&mut self.purpose, count.turns != 0) {
            counted.turns += count.turns;
            let (last, destinations) = count.last;
            (counted.routes).note_origins(count.origins.words(), last, destinations.words());
            counted.note_type(count.move_type);
        }
        count.restart(self);
    }

    /// How many turns [`Steps::count_plain`] counted without keeping them, and their
    /// move type where they all have one (`Some(None)`: untyped).
    pub(crate) fn counted(&self) -> (usize, Option<Option<MoveType>>) {
        let counted = self.counted_so_far().unwrap_or(&Counted::NONE);
        let one_type = (counted.move_type).filter(|_| !counted.types_differ);
        (counted.turns as usize, one_type)
    }

    /// Whether a partial step, kept as a turn, would be counted instead where its chain
    /// ends where it lands ([`Steps::count_ended_chain`]): under [`Steps::count_plain`],
    /// where every step is kept or steps narrow to a type, and nothing is noted.
    #[inline]
    pub(crate) fn counts_ended_chains(&self) -> bool {
        matches!(self.keep, Keep::Every | Keep::Narrowing(..))
            && matches!(self.purpose, Purpose::Count(_))
            && !self.noting
    }

    /// Counts a partial step from `from` to `to` of `move_type`, which [`Steps::wants`]
    /// kept, instead of keeping it: a turn of its own, since nothing continues its
    /// chain (the caller asked [`crate::Tables::ends_chain`]). Move listing would keep
    /// it as that turn, spending a step of its budget on it ([`Steps::counted`] tells
    /// how many were counted so). The invariant: only a turn of the same one step does
    /// what it does, and such a step is counted too (whether a chain ends is told from
    /// the step and the position alone), so the routes counted tell repeats apart as
    /// for plain turns.
    #[inline]
    pub(crate) fn count_ended_chain(&mut self, from: Pos, to: Pos, move_type: Option<MoveType>) {
        if let Purpose::Count(counted) = &mut self.purpose {
            counted.note(from, to, move_type);
            counted.ended_chains += 1;
        }
    }

    /// Under [`Keep::Narrowing`], whether a step of `move_type` is kept.
    #[inline]
    fn narrowing_keeps(&mut self, move_type: Option<MoveType>) -> bool {
        match self.keep {
            // Only the first step of the narrowed type changes what is kept: the rest are
            // told apart inline.
            Keep::Narrowing(narrowed, found) if found || move_type != Some(narrowed) => {
                found == (move_type == Some(narrowed))
            }
            Keep::Narrowing(narrowed, _) => self.start_narrowing(narrowed),
            _ => true,
        }
    }

    /// Counts, where [`Steps::counts_ended_chains`], the partial step of `move_type`
    /// from `from` to `to` that moves a piece and captures another, whose chain ends
    /// where it lands, as [`Steps::count_ended_chain`] counts it once
    /// [`Steps::wants`] keeps it (the first of the narrowed type drops those before).
    #[inline]
    pub(crate) fn count_jump(&mut self, from: Pos, to: Pos, move_type: Option<MoveType>) {
        debug_assert!(self.counts_ended_chains(), "a jump counted where none is");
        if self.narrowing_keeps(move_type) {
            self.count_ended_chain(from, to, move_type);
        }
    }

    /// How many partial steps [`Steps::count_ended_chain`] counted.
    pub(crate) fn ended_chains_counted(&self) -> usize {
        self.counted_so_far().map_or(0, |c| c.ended_chains as usize)
    }

    /// Whether a turn [`Steps::count_plain`] counted may do what another turn does
    /// (see [`Counted::routes`]): then only the whole list tells how many turns
    /// differ.
    pub(crate) fn counted_may_repeat(&self) -> bool {
        self.counted_so_far()
            .is_some_and(|counted| !counted.routes.all_differ())
    }

    /// With [`Steps::screening`] and no partial step kept: which turns the attack test
    /// before does not decide (see [`Screen::is_undecided`]).
    pub(crate) fn undecided(&self) -> Option<u64> {
        match self.keep {
            Keep::Screening(screen) if self.first_partial.is_none() => Some(screen.undecided),
            _ => None,
        }
    }

    /// The move type these steps narrow to, if they do.
    pub(crate) fn narrowing_type(&self) -> Option<MoveType> {
        match self.keep {
            Keep::Narrowing(move_type, _) => Some(move_type),
            _ => None,
        }
    }

    /// Whether a step of the type these steps narrow to was kept.
    pub(crate) fn found_narrowed_type(&self) -> bool {
        matches!(self.keep, Keep::Narrowing(_, true))
    }

    /// Under [`Keep::Narrowing`] to `narrowed`, the first step of that type is kept and
    /// drops those kept before.
    #[inline(never)]
    fn start_narrowing(&mut self, narrowed: MoveType) -> bool {
        self.moves.clear();
        if let Purpose::Count(counted) = &mut self.purpose {
            *counted = Counted::NONE;
        }
        self.routes = Routes::starting(false);
        self.first_partial = None;
        self.keep = Keep::Narrowing(narrowed, true);
        true
    }

    /// The steps kept, each a turn of one step.
    pub fn into_moves(self) -> Vec<Move> {
        self.moves
    }

    /// Whether no two turns kept can do the same, as far as their routes tell (see
    /// [`Routes`]).
    pub(crate) fn routes_differ(&self) -> bool {
        self.routes.all_differ()
    }

    /// Where the first partial step kept is in [`Steps::into_moves`], if any.
    pub fn first_partial(&self) -> Option<usize> {
        self.first_partial
    }

    /// The steps kept, in the order they were added.
    pub fn iter(&self) -> impl Iterator<Item = &Step> {
        self.moves.iter().flat_map(|m| &m.steps)
    }

    /// Whether no step was kept.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Drops the steps kept, and what was noted of them, to keep others in the same
    /// buffer; then counts the next `steps` steps without keeping them (a random draw
    /// wants the step at one index only), noting whether one is partial or starts
    /// elsewhere than on `anchor`, as the kept ones are told apart by
    /// [`Steps::first_partial`] and their `from`. Their routes are followed as if kept.
    pub(crate) fn start_skipping(&mut self, steps: usize, anchor: Pos) {
        debug_assert!(
            matches!(self.keep, Keep::Every),
            "steps skipped where not every step is kept"
        );
        self.moves.clear();
        self.work = 0;
        self.first_partial = None;
        self.routes = Routes::starting(false);
        self.purpose = Purpose::Skip(Skipped {
            left: steps,
            count: 0,
            partial: false,
            elsewhere: false,
            anchor,
        });
    }

    /// Counts the step from `from` to `to` instead of keeping it, if it is among the
    /// first ones [`Steps::start_skipping`] counts: whether it was. Asked before the step
    /// is built: a step before the one a random draw wants is counted unbuilt. The
    /// invariant: steps are skipped only where every step is kept ([`Keep::Every`],
    /// checked in debug builds), where [`Steps::wants`] would keep it, noting nothing
    /// (it counts plain turns only under another purpose).
    #[inline]
    pub(crate) fn skipped(&mut self, from: Option<Pos>, to: Pos, partial: bool) -> bool {
        let Purpose::Skip(skipped) = &mut self.purpose else {
            return false;
        };
        if skipped.left == 0 {
            return false;
        }
        skipped.left -= 1;
        skipped.count += 1;
        skipped.partial |= partial;
        skipped.elsewhere |= from != Some(skipped.anchor);
        self.routes.note(from, to);
        true
    }

    /// The steps kept, and those counted instead ([`Steps::count_plain`]): the
    /// length of the list the general path would make.
    #[inline]
    fn listed(&self) -> usize {
        self.moves.len() + self.counted_so_far().map_or(0, |c| c.turns as usize)
    }

    /// The steps kept and counted since [`Steps::start_skipping`].
    #[inline]
    pub(crate) fn count(&self) -> usize {
        let skipped = match &self.purpose {
            Purpose::Skip(skipped) => skipped.count,
            _ => 0,
        };
        skipped + self.moves.len()
    }

    /// Whether a step counted without being kept was partial, or started elsewhere than
    /// on the anchor.
    pub(crate) fn skipped_partial_or_elsewhere(&self) -> (bool, bool) {
        match &self.purpose {
            Purpose::Skip(skipped) => (skipped.partial, skipped.elsewhere),
            _ => (false, false),
        }
    }

    /// The steps kept, each a turn of one step.
    pub(crate) fn kept_mut(&mut self) -> &mut Vec<Move> {
        &mut self.moves
    }

    /// Takes the steps kept out, leaving none.
    pub(crate) fn take(&mut self) -> impl Iterator<Item = Step> + '_ {
        self.first_partial = None;
        self.moves.drain(..).filter_map(Move::into_single_step)
    }

    /// Notes again, when screening, the turns kept from index `first` on, now that their
    /// steps are known whole: [`Steps::wants`] saw only the changes before promotion,
    /// and took any movement for the moving piece's.
    #[inline]
    fn screen_since(&mut self, first: usize) {
        if let Keep::Screening(screen) = &mut self.keep {
            screen.note_kept(first, &self.moves);
        }
    }

    #[inline]
    fn push(&mut self, step: Step) {
        if step.continue_with.is_some() && self.first_partial.is_none() {
            self.first_partial = Some(self.moves.len());
        }
        self.routes.note(step.from, step.to);
        self.moves.push(Move::of_step(step));
    }
}

/// Whether these changes may remove a piece from one of `targets`: a capture, a creation
/// or a placement there, or a movement onto it.
#[inline]
pub(crate) fn hits_any(changes: &[Change], targets: &[Pos]) -> bool {
    changes
        .iter()
        .any(|c| hit_square(c).is_some_and(|pos| targets.contains(&pos)))
}

/// The square a change may remove a piece from, if any.
#[inline]
pub(crate) fn hit_square(change: &Change) -> Option<Pos> {
    match *change {
        Change::Capture { pos } | Change::Create { pos, .. } | Change::Place { pos, .. } => {
            Some(pos)
        }
        Change::Move { from, to } => (from != to).then_some(to),
        _ => None,
    }
}

/// The square a change of a step made in `before` removes a piece from, if any: a
/// [`hit_square`] holding a piece. The reach table is about these; a piece landing on a
/// square its template found empty removes none and is not in its reach.
#[inline]
pub(crate) fn removal_square(before: &State, change: &Change) -> Option<Pos> {
    hit_square(change).filter(|&pos| before.at(pos).is_some())
}

/// Whether the runs of a game may be asked to note the squares they look at
/// ([`Steps::noting_reads`]). Only the `checkmated` filter asks, so an engine of a game
/// without it says [`NeverNote`], and its compiled templates test nothing at each look.
pub trait NoteReads {
    /// Whether runs may have to note what they look at.
    const MAY_NOTE: bool;
}

/// Runs that note the squares they look at when their output asks: the interpreter's, and
/// those of games with the `checkmated` filter.
#[derive(Debug)]
pub enum MayNote {}

impl NoteReads for MayNote {
    const MAY_NOTE: bool = true;
}

/// Runs that never note squares one by one. Asked to all the same, a run notes the whole
/// board at its start: the footprint then spares no test, but is never wrong.
#[derive(Debug)]
pub enum NeverNote {}

impl NoteReads for NeverNote {
    const MAY_NOTE: bool = false;
}

/// The piece a template moves, and the square it was taken from (none for drops).
type Held = Option<(Piece, Option<Pos>)>;

/// Iterations a `while` may run before the run is abandoned as a runaway loop.
pub const MAX_LOOP: u32 = 10_000;

/// Loop iterations all the runs of one move list may spend together: nested loops
/// multiply [`MAX_LOOP`], and every piece runs its templates. Past it the runs fail and
/// the list is cut short (see [`move_list_cut_short`]).
pub const MAX_LIST_WORK: u32 = 5_000_000;

/// Steps one move list may hold when loops add them (real games list a few thousand at
/// most); past it the looping run fails and the list is cut short (see
/// [`move_list_cut_short`]).
pub const MAX_LIST_MOVES: usize = 200_000;

/// Set when a budget cut a move list short, in any engine of the process.
static LIST_CUT_SHORT: AtomicBool = AtomicBool::new(false);

/// Whether a move list was ever cut short in this process by [`MAX_LIST_WORK`] or
/// [`MAX_LIST_MOVES`]: the rules ran away (nested loops, millions of moves) and the
/// moves listed were incomplete, which a program should report as an error. One flag
/// for the process, so that the engines of a parallel search report too.
pub fn move_list_cut_short() -> bool {
    LIST_CUT_SHORT.load(Ordering::Relaxed)
}

/// One run of templates: a [`RunCore`], whose predicates on the board know from `N`
/// whether they may have to note what they look at.
pub struct Run<'a, N: NoteReads = MayNote> {
    core: RunCore<'a>,
    notes: PhantomData<N>,
}

impl<'a, N: NoteReads> Deref for Run<'a, N> {
    type Target = RunCore<'a>;

    #[inline]
    fn deref(&self) -> &RunCore<'a> {
        &self.core
    }
}

impl<'a, N: NoteReads> DerefMut for Run<'a, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut RunCore<'a> {
        &mut self.core
    }
}

/// All of a run but its choice of noting: navigation, effects and `add` do not depend on
/// it, so every game compiles them alike.
pub struct RunCore<'a> {
    /// The static description of the game.
    pub tables: &'a Tables,
    /// The moving player's view of each direction (`symmetry`).
    symmetry: &'a [Dir],
    /// The board as the moving player goes on it: links with `symmetry` applied, and
    /// its zones (see [`crate::PlayerView`]).
    links: &'a [Pos],
    directions: usize,
    zones: &'a [u64],
    zone_words: usize,
    /// The players that take turns (see [`Tables::active_players`]).
    active: [u64; 4],
    /// Read through the predicates, which note what the run looks at.
    pub(crate) state: &'a State,
    /// The squares of `state`, held here: every look reads them.
    board: &'a [Option<Piece>],
    /// The turn being generated: who moves, as whom, with which move type.
    pub turn: Turn,
    /// The current position: always a square of the board while a template runs
    /// (steps off the board fail instead of moving there).
    pub(crate) pos: Pos,
    from: Option<Pos>,
    to: Option<Pos>,
    /// The piece the template moves, and the square it is taken from (none for drops).
    held: Held,
    /// Position, `from` and held piece at the start, for [`Run::restart`].
    start: (Pos, Option<Pos>, Held),
    mark: Option<Pos>,
    /// Template flags as bits (files use a handful; more than 64 spill into `more_flags`).
    flags: u64,
    more_flags: Vec<bool>,
    /// Position flags, allocated on first use: most runs set none.
    position_flags: Vec<Vec<bool>>,
    pending: Changes,
    /// Whether anything but the position may differ from the start (the moving piece,
    /// `from`, `to`, the mark, flags, pending changes): one test on a restart, where most
    /// templates only step and look.
    leftovers: bool,
    move_type: Option<MoveType>,
    /// Which of the piece's move templates run, by number (see
    /// [`RunCore::start_template`]): all of them, but for an attack test, which runs only
    /// those that could reach the royal squares.
    templates: u64,
    /// No more templates start once a step added in the common way brings the output
    /// to this many (a random draw wants one piece's steps up to the one it names).
    enough: usize,
    out: &'a mut Steps,
    /// Whether `out` notes the squares looked at: kept here, next to the position, as
    /// every look asks.
    noting: bool,
}

impl<'a, N: NoteReads> Run<'a, N> {
    /// A run of a move template of the piece on `pos`.
    pub fn for_move(
        tables: &'a Tables,
        state: &'a State,
        turn: Turn,
        pos: Pos,
        move_type: Option<MoveType>,
        out: &'a mut Steps,
    ) -> Self {
        out.note_read(pos);
        let held = state.at(pos).map(|piece| (piece, Some(pos)));
        Self::new(tables, state, turn, pos, Some(pos), held, move_type, out)
    }

    /// A run for the move templates of several pieces, each taken up in turn with
    /// [`Run::take_piece`] (one run per position instead of one per piece).
    pub fn for_pieces(
        tables: &'a Tables,
        state: &'a State,
        turn: Turn,
        out: &'a mut Steps,
    ) -> Self {
        Self::new(tables, state, turn, NO_POS, None, None, None, out)
    }

    /// A run of a drop template of piece type `kind` at `pos`.
    pub fn for_drop(
        tables: &'a Tables,
        state: &'a State,
        turn: Turn,
        pos: Pos,
        kind: Kind,
        move_type: Option<MoveType>,
        out: &'a mut Steps,
    ) -> Self {
        let piece = Piece {
            kind,
            owner: turn.move_as,
            attributes: tables.pieces[kind as usize].default_attributes,
        };
        Self::new(
            tables,
            state,
            turn,
            pos,
            None,
            Some((piece, None)),
            move_type,
            out,
        )
    }

    #[allow(
        clippy::too_many_arguments,
        reason = "private constructor behind two public ones"
    )]
    fn new(
        tables: &'a Tables,
        state: &'a State,
        turn: Turn,
        pos: Pos,
        from: Option<Pos>,
        held: Held,
        move_type: Option<MoveType>,
        out: &'a mut Steps,
    ) -> Self {
        if out.noting && !N::MAY_NOTE {
            out.note_everything();
        }
        let view = tables.player_view(turn.move_as);
        let core = RunCore {
            tables,
            symmetry: tables
                .symmetry
                .get(turn.move_as as usize)
                .map_or(&[], Vec::as_slice),
            links: &view.links,
            directions: tables.directions.len(),
            zones: &view.zones,
            zone_words: view.words,
            active: tables.active_players(),
            state,
            board: state.board(),
            turn,
            pos,
            from,
            to: None,
            held,
            start: (pos, from, held),
            mark: None,
            flags: 0,
            more_flags: Vec::new(),
            position_flags: Vec::new(),
            pending: Changes::new(),
            leftovers: false,
            move_type,
            templates: u64::MAX,
            enough: usize::MAX,
            noting: out.noting && N::MAY_NOTE,
            out,
        };
        Run {
            core,
            notes: PhantomData,
        }
    }

    /// Moves the run to `piece`, standing on `pos`: the templates run next move it.
    #[inline]
    pub fn take_piece(&mut self, pos: Pos, piece: Piece) {
        self.note(pos);
        let held = Some((piece, Some(pos)));
        self.start = (pos, Some(pos), held);
        self.pos = pos;
        self.from = Some(pos);
        self.held = held;
        if self.leftovers {
            self.clear_leftovers();
        }
    }

    /// [`RunCore::note_read`], without the test at all when `N` says the run never notes.
    #[inline]
    fn note(&self, pos: Pos) {
        if N::MAY_NOTE {
            self.core.note_read(pos);
        }
    }

    /// The piece on `pos` before the move, noted as looked at.
    #[inline]
    fn look(&self, pos: Pos) -> Option<Piece> {
        self.note(pos);
        self.core.piece_at(pos)
    }

    // Setting a value the run itself computes: Run's own methods, not [`RunCore`]'s, so
    // that `run.set_flag(f, run.flag(g))` borrows `run` mutably only once the value is
    // worked out (two-phase borrows do not reach through `DerefMut`).

    /// Sets an attribute of the piece standing on the current square once the move is
    /// made (not of the moving piece: to mark it, set the attribute at its destination).
    #[inline]
    pub fn set_attribute(&mut self, attribute: u8, value: bool) {
        let pos = self.pos;
        self.record(Change::SetAttribute {
            pos,
            attribute,
            value,
        });
    }

    /// Flags change at once and are visible to the rest of the run.
    #[inline]
    pub fn set_flag(&mut self, flag: usize, value: bool) {
        self.leftovers = true;
        if flag < 64 {
            self.flags = self.flags & !(1 << flag) | u64::from(value) << flag;
        } else {
            let index = flag - 64;
            if self.more_flags.len() <= index {
                self.more_flags.resize(index + 1, false);
            }
            self.more_flags[index] = value;
        }
    }

    /// Off the board this does nothing, and the move goes on (bolotoudou.zsg record 63:
    /// a Zillions move whose template sets a flag one step off the edge).
    #[inline]
    pub fn set_position_flag(&mut self, flag: usize, value: bool, loc: Loc) -> StepResult {
        let core = &mut self.core;
        let pos = core.resolve(loc);
        if pos == NO_POS {
            return Ok(());
        }
        core.leftovers = true;
        if core.position_flags.len() <= flag {
            core.position_flags.resize(flag + 1, Vec::new());
        }
        let flags = &mut core.position_flags[flag];
        if flags.is_empty() {
            flags.resize(core.tables.positions.len(), false);
        }
        flags[pos as usize] = value;
        Ok(())
    }

    // Predicates on the pieces: the board as it was before the move.

    /// `empty?`: the square is on the board and holds no piece.
    #[inline]
    pub fn empty(&self, loc: Loc) -> bool {
        let pos = self.resolve(loc);
        pos != NO_POS && self.look(pos).is_none()
    }

    /// `not-empty?`: the square is on the board and holds a piece. Not the negation of
    /// [`Self::empty`]: off the board both are false (docs/semantics.md, from
    /// `shafran.zsg` and facts of another implementation).
    #[inline]
    pub fn occupied(&self, loc: Loc) -> bool {
        self.look(self.resolve(loc)).is_some()
    }

    /// `friend?`: a piece of the mover's.
    #[inline]
    pub fn friend(&self, loc: Loc) -> bool {
        self.look(self.resolve(loc))
            .is_some_and(|p| p.owner == self.mover())
    }

    /// `enemy?`: a piece of another player who takes turns.
    #[inline]
    pub fn enemy(&self, loc: Loc) -> bool {
        self.look(self.resolve(loc))
            .is_some_and(|p| self.is_enemy(p))
    }

    /// `neutral?`: a piece of a player who takes no turns.
    #[inline]
    pub fn neutral(&self, loc: Loc) -> bool {
        self.look(self.resolve(loc))
            .is_some_and(|p| !self.is_active(p.owner))
    }

    /// `(piece? TYPE)`: a piece of that type, whoever owns it.
    #[inline]
    pub fn piece(&self, kind: Kind, loc: Loc) -> bool {
        self.look(self.resolve(loc)).is_some_and(|p| p.kind == kind)
    }

    /// `ATTRIBUTE`: the piece there has that attribute set.
    #[inline]
    pub fn attribute(&self, attribute: u8, loc: Loc) -> bool {
        self.look(self.resolve(loc))
            .is_some_and(|p| p.attributes >> attribute & 1 == 1)
    }
}

impl<'a> RunCore<'a> {
    /// [`Steps::found_narrowed_type`] of the steps this run adds to.
    pub(crate) fn found_narrowed_type(&self) -> bool {
        self.out.found_narrowed_type()
    }

    /// Restarts the run ([`RunCore::restart`]) for the piece's move template number
    /// `template` (counted from 0 in the order the piece lists them), of `move_type`, and
    /// tells whether it is to run: not when the run is limited to other templates (an
    /// attack test runs only those that could reach the royal squares, see
    /// [`crate::Reach::templates_hitting`]). Template `n` is bit `n` of the limit; the
    /// 64th and later share bit 63.
    #[inline]
    pub fn start_template(&mut self, template: u32, move_type: Option<MoveType>) -> bool {
        if self.templates >> template.min(63) & 1 == 0 {
            return false;
        }
        self.restart(move_type);
        true
    }

    /// `add` of the held piece moved from its square to `to`, as the code of a shaped
    /// template of `move_type` adds it (see [`crate::bulk`]).
    #[inline]
    pub(crate) fn add_moving_to(&mut self, to: Pos, move_type: Option<MoveType>) {
        self.pos = to;
        self.move_type = move_type;
        self.add(&[], Placement::Move, Continuation::Complete);
    }

    /// Where this run keeps the steps it adds.
    pub(crate) fn output(&mut self) -> &mut Steps {
        self.out
    }

    /// Runs every template of the pieces taken up from now on, but no more once a step
    /// brings the output to `steps` steps.
    pub(crate) fn enough_after(&mut self, steps: usize) {
        self.templates = u64::MAX;
        self.enough = steps;
    }

    /// [`RunCore::only_templates`], for a count's piece whose other templates are
    /// counted or skipped by their guards, its jumps among `templates` counted first
    /// where the output counts them ([`crate::Tables::count_jumps`]) and left out:
    /// whether a template of the piece is left to run.
    #[inline]
    pub(crate) fn only_templates_counting_jumps(&mut self, templates: u64) -> bool {
        if self.out.counts_ended_chains() {
            return self.only_templates_but_jumps(templates);
        }
        self.templates = templates;
        true
    }

    /// [`RunCore::only_templates_counting_jumps`] where the output counts jumps. Out of
    /// line: asked in the count's loop over the pieces, that costs every game's count
    /// (corpus chess.zrf perft 5: 0.7% more instructions).
    #[inline(never)]
    fn only_templates_but_jumps(&mut self, templates: u64) -> bool {
        let not_run = match self.held {
            Some((piece, Some(from))) => {
                let (state, mover) = (self.state, self.turn.move_as);
                (self.tables).count_jumps(state, mover, (piece.kind, from), !templates, self.out)
            }
            _ => !templates,
        };
        self.templates = !not_run;
        not_run != u64::MAX
    }

    /// Limits the move templates run to those whose bits are set in `templates` (see
    /// [`crate::Reach::templates_hitting`]).
    pub(crate) fn only_templates(&mut self, templates: u64) {
        self.templates = templates;
    }

    /// Starts another template from the beginning (the same piece, square and
    /// candidate), reusing this run: cheaper than a new run per template. Steps added so
    /// far stay in the output.
    #[inline]
    pub fn restart(&mut self, move_type: Option<MoveType>) {
        self.pos = self.start.0;
        self.move_type = move_type;
        if self.leftovers {
            self.clear_leftovers();
        }
    }

    /// Out of line: a dispatcher restarts runs at thousands of places in a large game,
    /// and leftovers (a template that marked, set flags, picked up or set down pieces or
    /// recorded effects) are the less common case.
    #[cold]
    #[inline(never)]
    fn clear_leftovers(&mut self) {
        self.leftovers = false;
        self.from = self.start.1;
        self.held = self.start.2;
        self.to = None;
        self.mark = None;
        self.flags = 0;
        self.more_flags.clear();
        self.position_flags.clear();
        self.pending.clear();
    }

    /// Moves a drop run to another candidate square and restarts it there.
    #[inline]
    pub fn restart_drop_at(&mut self, pos: Pos, move_type: Option<MoveType>) {
        self.start.0 = pos;
        self.restart(move_type);
    }

    /// Notes that the run looked at `pos`, if its output notes reads.
    #[inline]
    fn note_read(&self, pos: Pos) {
        if self.noting {
            self.out.note_read(pos);
        }
    }

    /// The piece on `pos` in the position before the move (noted in the footprint).
    #[inline]
    fn look(&self, pos: Pos) -> Option<Piece> {
        self.note_read(pos);
        self.piece_at(pos)
    }

    /// The piece on `pos` in the position before the move, not noted.
    #[inline]
    fn piece_at(&self, pos: Pos) -> Option<Piece> {
        self.board.get(pos as usize).copied().flatten()
    }

    /// The position, for what the last move did (noted as looking at everything).
    #[inline]
    fn last_move(&self) -> &State {
        self.out.note_everything();
        self.state
    }

    /// Notes that the run looks at the whole position (`attacked?`, say).
    pub(crate) fn note_everything(&self) {
        self.out.note_everything();
    }

    #[inline]
    fn mover(&self) -> PlayerIx {
        self.turn.move_as
    }

    /// The direction the moving player actually goes in.
    #[inline]
    fn direction(&self, dir: Dir) -> Dir {
        self.symmetry.get(dir as usize).copied().unwrap_or(dir)
    }

    #[inline]
    fn opposite(&self, dir: Dir) -> Option<Dir> {
        self.tables
            .opposite
            .get(self.direction(dir) as usize)
            .copied()
            .flatten()
    }

    /// The square one step from the current one in the mover's direction `dir`, or
    /// [`NO_POS`].
    #[inline]
    fn link(&self, dir: Dir) -> Pos {
        let at = self.pos as usize * self.directions + dir as usize;
        self.links.get(at).copied().unwrap_or(NO_POS)
    }

    #[inline]
    fn is_active(&self, player: PlayerIx) -> bool {
        crate::tables::is_active_in(&self.active, player)
    }

    /// Whether `piece` belongs to another player who takes turns.
    #[inline]
    fn is_enemy(&self, piece: Piece) -> bool {
        piece.owner != self.mover() && self.is_active(piece.owner)
    }

    /// The square a location names, or [`NO_POS`].
    #[inline]
    pub fn resolve(&self, loc: Loc) -> Pos {
        match loc {
            Loc::Here => self.pos,
            Loc::Pos(p) => p,
            Loc::Dir(d) => self.link(d),
            Loc::Opposite(d) => self
                .opposite(d)
                .map_or(NO_POS, |o| self.tables.link(self.pos, o)),
        }
    }

    #[inline]
    fn must(&self, loc: Loc) -> Result<Pos, Fail> {
        match self.resolve(loc) {
            NO_POS => Err(Fail),
            pos => Ok(pos),
        }
    }

    // Navigation.

    /// A direction: moves the current position one step that way (in the mover's view of directions); fails off the board.
    #[inline]
    pub fn step(&mut self, dir: Dir) -> StepResult {
        self.pos = self.must(Loc::Dir(dir))?;
        Ok(())
    }

    /// `(opposite DIR)`: one step the other way; fails off the board.
    #[inline]
    pub fn step_opposite(&mut self, dir: Dir) -> StepResult {
        self.pos = self.must(Loc::Opposite(dir))?;
        Ok(())
    }

    /// A position name: the current position becomes that square.
    #[inline]
    pub fn jump(&mut self, pos: Pos) {
        self.pos = pos;
    }

    /// `mark`: remembers the current position.
    #[inline]
    pub fn mark(&mut self) {
        self.leftovers = true;
        self.mark = Some(self.pos);
    }

    /// `(mark pos|dir)`: remembers that square; fails off the board.
    pub fn mark_at(&mut self, loc: Loc) -> StepResult {
        self.leftovers = true;
        self.mark = Some(self.must(loc)?);
        Ok(())
    }

    /// `back`: returns to the marked position; fails when none is marked.
    #[inline]
    pub fn back(&mut self) -> StepResult {
        self.pos = self.mark.ok_or(Fail)?;
        Ok(())
    }

    /// `(go from)`: to where the moving piece was taken from.
    #[inline]
    pub fn go_from(&mut self) -> StepResult {
        self.pos = self.from.ok_or(Fail)?;
        Ok(())
    }

    /// `(go to)`: to where `to` last set the destination; before any `to`, it stays.
    #[inline]
    pub fn go_to(&mut self) {
        self.pos = self.to.unwrap_or(self.pos);
    }

    /// `(go mark)`: to the marked position.
    #[inline]
    pub fn go_mark(&mut self) -> StepResult {
        self.back()
    }

    /// `(go last-from)`: to where the last move started.
    #[inline]
    pub fn go_last_from(&mut self) -> StepResult {
        self.pos = self.last_move().last_from.ok_or(Fail)?;
        Ok(())
    }

    /// `(go last-to)`: to where the last move ended.
    #[inline]
    pub fn go_last_to(&mut self) -> StepResult {
        self.pos = self.last_move().last_to.ok_or(Fail)?;
        Ok(())
    }

    // Predicates: the board as it was before the move (those on its pieces are [`Run`]'s).

    /// `(in-zone? ZONE)`: the square is in the zone as the mover's side defines it.
    #[inline]
    pub fn in_zone(&self, zone: u16, loc: Loc) -> bool {
        let pos = self.resolve(loc);
        let at = zone as usize * self.zone_words + pos as usize / 64;
        pos != NO_POS && self.zones.get(at).is_some_and(|w| w >> (pos % 64) & 1 == 1)
    }

    /// `(on-board? DIR)`: the square exists.
    #[inline]
    pub fn on_board(&self, loc: Loc) -> bool {
        self.resolve(loc) != NO_POS
    }

    /// `(flag? NAME)`: the template flag is set in this run.
    #[inline]
    pub fn flag(&self, flag: usize) -> bool {
        match flag {
            0..64 => self.flags >> flag & 1 == 1,
            _ => self.more_flags.get(flag - 64).copied().unwrap_or(false),
        }
    }

    /// `(position-flag? NAME)`: the flag is set on that square in this run.
    #[inline]
    pub fn position_flag(&self, flag: usize, loc: Loc) -> bool {
        let pos = self.resolve(loc);
        pos != NO_POS
            && self
                .position_flags
                .get(flag)
                .and_then(|f| f.get(pos as usize))
                .copied()
                .unwrap_or(false)
    }

    /// `last-from?`: the square is where the last move started.
    #[inline]
    pub fn last_from(&self, loc: Loc) -> bool {
        let pos = self.resolve(loc);
        pos != NO_POS && self.last_move().last_from == Some(pos)
    }

    /// `last-to?`: the square is where the last move ended.
    #[inline]
    pub fn last_to(&self, loc: Loc) -> bool {
        let pos = self.resolve(loc);
        pos != NO_POS && self.last_move().last_to == Some(pos)
    }

    #[inline]
    /// `(position? POS [pos|dir])`: the square at `loc` (here, usually) is `pos`.
    pub fn at_position(&self, pos: Pos, loc: Loc) -> bool {
        self.resolve(loc) == pos
    }

    /// `marked?`: the square is the marked one.
    #[inline]
    pub fn marked(&self, loc: Loc) -> bool {
        let pos = self.resolve(loc);
        pos != NO_POS && self.mark == Some(pos)
    }

    /// `adjacent-to-enemy?`: an enemy piece stands one step away in some direction.
    #[inline]
    pub fn adjacent_to_enemy(&self, loc: Loc) -> bool {
        let pos = self.resolve(loc);
        pos != NO_POS
            && (0..self.tables.directions.len() as Dir).any(|d| {
                self.look(self.tables.link(pos, d))
                    .is_some_and(|p| self.is_enemy(p))
            })
    }

    /// `goal-position?`: the square is named by one of the mover's `absolute-config` goals.
    #[inline]
    pub fn goal_position(&self, loc: Loc) -> bool {
        let pos = self.resolve(loc);
        pos != NO_POS && self.tables.is_goal_position(pos)
    }

    // Effects: recorded, applied when the move is made.

    /// The square an effect acts on. One aimed off the board (a direction with no link
    /// there) does nothing and the template goes on, as in Zillions: Ragnarok's
    /// `Bifrost.zsg` record 23 fires `(capture s)` past the edge and was made.
    #[inline]
    fn effect_square(&self, loc: Loc) -> Option<Pos> {
        Some(self.resolve(loc)).filter(|&pos| pos != NO_POS)
    }

    /// Inline, though templates call the effects at thousands of places: out of line, the
    /// change went through memory as narrow stores read back as one wide load, which the
    /// processor cannot forward (a stall of its own at every effect).
    #[inline]
    fn record(&mut self, change: Change) {
        self.leftovers = true;
        self.pending.push(change);
    }

    /// `capture`: removes the piece there when the move is made (nothing off the board).
    #[inline]
    pub fn capture(&mut self, loc: Loc) -> StepResult {
        if let Some(pos) = self.effect_square(loc) {
            self.record(Change::Capture { pos });
        }
        Ok(())
    }

    /// `create`: a piece of `kind` (the moving piece's type when absent) owned by `owner`
    /// (the mover when absent).
    #[inline]
    pub fn create(&mut self, owner: Option<PlayerIx>, kind: Option<Kind>, loc: Loc) -> StepResult {
        let Some(pos) = self.effect_square(loc) else {
            return Ok(());
        };
        let kind = kind.or(self.held.map(|(p, _)| p.kind)).ok_or(Fail)?;
        let piece = Piece {
            kind,
            owner: owner.unwrap_or(self.mover()),
            attributes: self.tables.pieces[kind as usize].default_attributes,
        };
        self.record(Change::Create { pos, piece });
        Ok(())
    }

    /// `(change-type TYPE)`: the piece there becomes that type when the move is made.
    #[inline]
    pub fn change_type(&mut self, kind: Kind, loc: Loc) -> StepResult {
        if let Some(pos) = self.effect_square(loc) {
            self.record(Change::ChangeType { pos, kind });
        }
        Ok(())
    }

    /// `change-owner`: the piece there becomes the mover's when the move is made.
    #[inline]
    pub fn change_owner(&mut self, loc: Loc) -> StepResult {
        if let Some(pos) = self.effect_square(loc) {
            let owner = self.mover();
            self.record(Change::ChangeOwner { pos, owner });
        }
        Ok(())
    }

    /// `flip`: the piece there goes to the next player who takes turns.
    #[inline]
    pub fn flip(&mut self, loc: Loc) -> StepResult {
        if let Some(pos) = self.effect_square(loc) {
            self.record(Change::Flip { pos });
        }
        Ok(())
    }

    // The moving piece.

    /// `to`: the current square becomes where the moving piece goes, replacing any
    /// earlier `to`; the piece is set down there by `add` or `cascade`. (Held-back facts
    /// of another implementation, docs/semantics.md: `(e e to n (go to) w to add)` moves
    /// to the second `to`.)
    #[inline]
    pub fn to(&mut self) {
        self.leftovers = true;
        self.to = Some(self.pos);
    }

    /// `from`: the current square becomes where the moving piece comes from, and the
    /// piece on it (none on an empty square: `add` then makes no move) the moving piece.
    #[inline]
    pub fn from(&mut self) {
        self.leftovers = true;
        self.held = self.look(self.pos).map(|piece| (piece, Some(self.pos)));
        self.from = Some(self.pos);
    }

    /// `cascade`: the moving piece is set down where `to` said (else here), and the
    /// piece here becomes the moving piece, from here, with no `to` yet: one move
    /// displaces several pieces (castling, pushing a row).
    #[inline]
    pub fn cascade(&mut self) {
        if let Some((piece, from)) = self.held {
            let dest = self.to.take().unwrap_or(self.pos);
            self.record(self.movement(piece, from, dest));
        }
        self.to = None;
        self.from();
    }

    #[inline]
    fn movement(&self, piece: Piece, from: Option<Pos>, to: Pos) -> Change {
        match from {
            Some(from) => Change::Move { from, to },
            None => Change::Place { pos: to, piece },
        }
    }

    /// `add` and its family: one step per promotion choice (or one, with `promote`
    /// empty), moving the piece or leaving a copy of it ([`Placement`]), ending the turn
    /// or partial ([`Continuation`]).
    #[inline]
    pub fn add(&mut self, promote: &[Kind], placement: Placement, continuation: Continuation) {
        let continue_with = continuation.continue_with();
        if let (true, [], Placement::Move, Some((_, Some(from)))) =
            (self.pending.is_empty(), promote, placement, self.held)
        {
            // Most steps move one piece and do nothing else: no pending change to order
            // the movement among.
            let to = self.to.unwrap_or(self.pos);
            if self.out.is_loud_only() && continue_with.is_none() && self.piece_at(to).is_none() {
                return;
            }
            if (self.out).skipped(Some(from), to, continue_with.is_some()) {
                return;
            }
            let movement = Change::Move { from, to };
            if self.out.wants(
                std::slice::from_ref(&movement),
                continue_with.is_some(),
                self.move_type,
                true,
            ) {
                let mut changes = Changes::new();
                changes.push(movement);
                self.out.push(Step {
                    from: Some(from),
                    to,
                    changes,
                    move_type: self.move_type,
                    continue_with,
                });
                self.stop_once_enough();
            }
            return;
        }
        self.add_with_changes(promote, placement, continue_with);
    }

    /// Once the output holds the steps asked for ([`RunCore::enough_after`]): no other
    /// template starts, and this one stops at its next step (off the board), instead of
    /// adding steps no one asked for.
    #[inline]
    fn stop_once_enough(&mut self) {
        if self.out.count() >= self.enough {
            self.templates = 0;
            self.pos = NO_POS;
        }
    }

    /// [`RunCore::add`] of any other step (pending changes, promotions, copies, drops): out
    /// of line, so that the common case inlined into every template stays small.
    #[inline(never)]
    fn add_with_changes(
        &mut self,
        promote: &[Kind],
        placement: Placement,
        continue_with: Option<Option<MoveType>>,
    ) {
        // The held piece goes where `to` said, else to the current square. With none
        // (`from` on an empty square) there is no move.
        let Some((piece, origin)) = self.held else {
            self.pending.clear();
            return;
        };
        let dest = self.to.unwrap_or(self.pos);
        let partial = continue_with.is_some();
        // Promotion choices are several steps, skipped one by one when emitted; a step
        // that is one is skipped before its changes are built.
        if promote.len() <= 1 && self.out.skipped(origin, dest, partial) {
            self.pending.clear();
            return;
        }
        let movement = match placement {
            Placement::Copy => Change::Place { pos: dest, piece },
            Placement::Move => self.movement(piece, origin, dest),
        };
        // Copied change by change, not moved as a whole: the pending changes were just
        // written one by one, and a wide read across them would wait for the writes.
        let mut changes = Changes::from_slice(&self.pending);
        self.pending.clear();
        // After the movements already made with `to` and `cascade`.
        let at = changes
            .iter()
            .rposition(|c| matches!(c, Change::Move { .. } | Change::Place { .. }))
            .map_or(0, |i| i + 1);
        changes.insert(at, movement);
        if origin.is_none() {
            changes.push(Change::TakeStock {
                player: piece.owner,
                kind: piece.kind,
            });
        }
        // Promotion only changes a type, so it never makes a step hit or miss a square.
        if !self.out.wants(&changes, partial, self.move_type, false) {
            return;
        }
        let first_kept = self.out.moves.len();
        let mut emit = |changes: Changes| {
            if self.out.skipped(origin, dest, partial) {
                return;
            }
            let step = Step {
                from: origin,
                to: dest,
                changes,
                move_type: self.move_type,
                continue_with,
            };
            // A perft's last ply counts a jump that no further jump continues, as the
            // list would keep it as a turn (see `Gen::ends_unplayed`).
            if let (true, Some(from)) = (partial && self.out.counts_ended_chains(), origin) {
                if self.tables.ends_chain(self.state, self.turn.move_as, &step) {
                    self.out.count_ended_chain(from, dest, self.move_type);
                    return;
                }
            }
            self.out.push(step)
        };
        match promote {
            [] => emit(changes),
            kinds => {
                for &kind in kinds {
                    let mut promoted = changes.clone();
                    promoted.push(Change::ChangeType { pos: dest, kind });
                    emit(promoted);
                }
            }
        }
        self.out.screen_since(first_kept);
        self.stop_once_enough();
    }
}

impl RunCore<'_> {
    /// Guards a `while` loop: call once per iteration. Fails past [`MAX_LOOP`]
    /// iterations of this loop, or [`MAX_LIST_WORK`] of the whole move list, or once
    /// the list holds [`MAX_LIST_MOVES`] (the list is then marked cut short).
    #[inline]
    pub fn loop_guard(&mut self, iteration: &mut u32) -> StepResult {
        *iteration += 1;
        if *iteration > MAX_LOOP {
            return Err(Fail);
        }
        // Only loops add without bound (a run without them adds once per `add` it
        // holds), so the moves are counted here, not at each add.
        self.out.work += 1;
        if self.out.work > MAX_LIST_WORK || self.out.listed() >= MAX_LIST_MOVES {
            LIST_CUT_SHORT.store(true, Ordering::Relaxed);
            return Err(Fail);
        }
        Ok(())
    }
}
