//! Move listing: a player's turns in a position, partial-move chains followed, before
//! the legality filters.

use std::cell::Cell;

use smallvec::SmallVec;

use crate::bulk::Occupancy;
use crate::kept::{KeepsTargets, KeptTargets, Targets};
use crate::run::{Footprint, Run, Steps};
use crate::shape::{Bulk, BulkTargets, SquareSet};
use crate::state::{State, Step};
use crate::tables::{Filter, Tables, Turn};
use crate::templates::Templates;
use crate::turn::Move;
use crate::watched::{removes_protected, threats_toward, ThreatMask};
use crate::{Kind, MoveType, Pos};

/// Longest chain of partial moves followed in one turn; longer chains are cut there.
pub const MAX_CHAIN: usize = 128;

/// Most partial-move steps explored for one position. Rules whose continuations branch
/// without end (a piece that may keep stepping back and forth) would otherwise enumerate
/// exponentially many chains; past this budget no further chains are extended.
pub const MAX_CHAIN_STEPS: usize = 20_000;

thread_local! {
    /// A spare move list, for the turns generated while the chains of partial ones are
    /// followed, kept between move generations (a nested generation, from an attack
    /// test, finds it taken and makes its own).
    static AFTER_PARTIAL: Cell<Vec<Move>> = const { Cell::new(Vec::new()) };
    /// A spare position, to play partial steps on: kept between move generations, so
    /// that following chains copies a position without allocating one.
    pub(crate) static SPARE_POSITION: Cell<Option<Box<State>>> = const { Cell::new(None) };
}

/// The steps of a turn being completed (partial moves rarely chain more than a few).
type Chain = SmallVec<[Step; 4]>;

/// What [`Gen::turns_into`] tells of the turns it listed, where they are known: without
/// partial steps, the list is the steps the templates added.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Listed {
    /// With [`Steps::screening`]: [`Steps::undecided`].
    pub(crate) undecided: Option<u64>,
    /// [`Steps::routes_differ`].
    pub(crate) routes_differ: Option<bool>,
    /// [`Steps::counted`]: turns counted, not listed (with [`Steps::count_plain`]),
    /// and their move type where they have one.
    pub(crate) counted: (usize, Option<Option<MoveType>>),
    /// Whether only the whole list tells how many turns there are: a counted turn may
    /// do what another does ([`Steps::counted_may_repeat`]), or the budget of chain
    /// steps ran out with partial steps counted unplayed, which the list would have
    /// spent it on in another order ([`Steps::count_ended_chain`]).
    pub(crate) count_needs_list: bool,
}

/// Move generation over borrowed tables and templates, so that a template asking
/// `attacked?` can generate the other side's moves.
pub struct Gen<'a, T: ?Sized> {
    /// The static description of the game.
    pub tables: &'a Tables,
    /// The code of its templates.
    pub templates: &'a T,
}

impl<T: Templates + ?Sized> Gen<'_, T> {
    /// Turns before legality, priorities and passes.
    pub fn pseudo_legal(&self, state: &State, turn: Turn) -> Vec<Move> {
        let mut moves = Vec::new();
        self.pseudo_legal_into(state, turn, &mut moves);
        moves
    }

    /// [`Gen::pseudo_legal`], appended to `moves`.
    pub fn pseudo_legal_into(&self, state: &State, turn: Turn, moves: &mut Vec<Move>) {
        let first = Steps::appending_to(std::mem::take(moves));
        self.turns_into(state, turn, first, moves);
    }

    /// The turns that start with the steps the templates add to `first`, into `moves`
    /// (whose buffer `first` holds).
    /// With [`Steps::screening`], tells [`Steps::undecided`].
    #[inline(always)]
    pub(crate) fn turns_into(
        &self,
        state: &State,
        turn: Turn,
        mut first: Steps,
        moves: &mut Vec<Move>,
    ) -> Listed {
        self.first_steps(state, turn, turn.filter(), &mut first);
        let first_partial = first.first_partial();
        // The list spends a step of the budget on each chain counted as ended.
        let ended = first.ended_chains_counted();
        let mut budget = MAX_CHAIN_STEPS.saturating_sub(ended);
        let listed = Listed {
            undecided: first.undecided(),
            routes_differ: Some(first.routes_differ()),
            counted: first.counted(),
            count_needs_list: first.counted_may_repeat() || (ended > 0 && budget == 0),
        };
        *moves = first.into_moves();
        // Each partial step is replaced by the turns that complete it, in order.
        let Some(first_partial) = first_partial else {
            return listed;
        };
        // The turns move to the spare buffer, and back in their final order: each turn
        // is copied once.
        let mut generated = AFTER_PARTIAL.take();
        std::mem::swap(moves, &mut generated);
        moves.extend(generated.drain(..first_partial));
        let mut scratch = SPARE_POSITION.take();
        for mv in generated.drain(..) {
            if !mv.is_partial() {
                moves.push(mv);
                continue;
            }
            if let [step] = &mv.steps[..] {
                if self.ends_unplayed(state, turn, step, 1, &mut budget) {
                    moves.push(mv);
                    continue;
                }
            }
            let after = State::copy_into(&mut scratch, state);
            for step in &mv.steps {
                after.apply_step(self.tables, step);
            }
            self.complete_chain(after, turn, mv, moves, &mut budget);
        }
        SPARE_POSITION.set(scratch);
        AFTER_PARTIAL.set(generated);
        Listed {
            counted: listed.counted,
            count_needs_list: listed.count_needs_list || (ended > 0 && budget == 0),
            ..Listed::default()
        }
    }

    #[inline(always)]
    fn first_steps(&self, state: &State, turn: Turn, filter: Filter, out: &mut Steps) {
        // One run for the whole position, taking up each piece in turn.
        let narrowing = out.narrowing_type().filter(|_| filter == Filter::ANY);
        let loud_reach = (self.tables.reach.as_ref()).filter(|_| out.is_loud_only());
        let mut run = Run::for_pieces(self.tables, state, turn, out);
        let mut filter = filter;
        // The bulk targets are worked out only once a count asks for them.
        let bulk = (run.output().counts_in_bulk() && filter == Filter::ANY)
            .then(|| self.tables.bulk_targets())
            .flatten();
        // Two loops, not one testing `narrowing` per piece: the test alone showed in the
        // instruction counts of games without priorities.
        match (narrowing, loud_reach, bulk) {
            // Only the templates that may remove a piece or change a type: a quiescence
            // search's moves. The invariant ([`Reach::loud_templates`]): a template left
            // out adds no step from this square that removes a piece (its reach, an
            // over-approximation, is empty there) or changes a type (the lowering found
            // no `change-type` or promoting `add` in it). Debug builds check the loud
            // list against the whole legal list filtered
            // ([`crate::Engine::legal_loud_moves_into`]).
            (None, Some(reach), _) => {
                for (pos, piece) in state.pieces_of(turn.move_as) {
                    run.take_piece(pos, piece);
                    run.only_templates(reach.loud_templates(turn.move_as, piece.kind, pos));
                    self.templates.piece_moves(&mut run, piece.kind, filter);
                }
            }
            (_, None, Some(Bulk::OneWord(bulk))) => {
                filter = self.pieces_counted_in_bulk(&mut run, state, turn, bulk, narrowing);
            }
            (_, None, Some(Bulk::TwoWords(bulk))) => {
                filter = self.pieces_counted_in_bulk(&mut run, state, turn, bulk, narrowing);
            }
            (_, None, Some(Bulk::FourWords(bulk))) => {
                filter = self.pieces_counted_in_bulk(&mut run, state, turn, bulk, narrowing);
            }
            (None, None, None) => {
                for (pos, piece) in state.pieces_of(turn.move_as) {
                    run.take_piece(pos, piece);
                    self.templates.piece_moves(&mut run, piece.kind, filter);
                }
            }
            (Some(first_priority), _, _) => {
                for (pos, piece) in state.pieces_of(turn.move_as) {
                    run.take_piece(pos, piece);
                    self.templates.piece_moves(&mut run, piece.kind, filter);
                    if run.found_narrowed_type() {
                        // Only steps of the first priority are kept from now on: only
                        // that type's templates need run.
                        filter = Filter::only(Some(first_priority));
                    }
                }
            }
        }
        drop(run);
        for kind in 0..self.tables.kinds() as Kind {
            if self.templates.has_drops(kind) && state.stock(self.tables, turn.move_as, kind) > 0 {
                self.drops_of(state, turn, kind, filter, out);
            }
        }
    }

    /// How many turns `turn` has where the bulk targets tell it before any template runs
    /// ([`BulkTargets::count_before_runs`]: every piece of the mover counted together by
    /// type, or, under `move-priorities`, chains of jumps of their first type that the
    /// guards follow to their ends), the turn allows every move type and the mover has
    /// nothing to drop. The turns are then plain movements of one type, or chains of
    /// jumps of the first type that drop every other turn, no two alike (each moves
    /// another piece, or ends on another square or with other captures), which a count
    /// takes whole; the run and the steps a count builds are not needed.
    /// `None` elsewhere. The invariant: the count is the length of the list the
    /// templates' code gives; debug builds check it there, as every count
    /// ([`crate::Engine::legal_move_count`]).
    pub(crate) fn count_before_runs(&self, state: &State, turn: Turn) -> Option<usize> {
        let mover = turn.move_as;
        if turn.filter() != Filter::ANY {
            return None;
        }
        let drops = (0..self.tables.kinds() as Kind).any(|kind| {
            self.templates.has_drops(kind) && state.stock(self.tables, mover, kind) > 0
        });
        if drops {
            return None;
        }
        let (tables, first) = (self.tables, self.tables.priorities.first().copied());
        let turns = match tables.bulk_targets()? {
            Bulk::OneWord(bulk) => bulk.count_before_runs::<T>(tables, state, mover, first),
            Bulk::TwoWords(bulk) => bulk.count_before_runs::<T>(tables, state, mover, first),
            Bulk::FourWords(bulk) => bulk.count_before_runs::<T>(tables, state, mover, first),
        };
        // The list spends a step of its chain budget on each step of the chains it
        // follows, one at least for each turn a chain makes: where the turns reach the
        // budget, only the list tells how many there are.
        turns
            .map(|turns| turns as usize)
            .filter(|&turns| turns < MAX_CHAIN_STEPS)
    }

    /// The steps of the mover's pieces into `run`'s output, which counts plain turns
    /// ([`Steps::count_plain`], [`Steps::counts_in_bulk`]): the turns of shaped
    /// templates counted in bulk where the screen decides them (see [`crate::bulk`])
    /// and added one by one where it does not, the other templates run as usual. Where
    /// the output narrows to the `narrowing` type, once a step of it comes only its
    /// templates run (the filter the drops then take is returned). The pieces'
    /// targets are those the count before kept where they still hold (see
    /// [`crate::kept`]).
    fn pieces_counted_in_bulk<B: KeepsTargets>(
        &self,
        run: &mut Run<'_, T::Noting>,
        state: &State,
        turn: Turn,
        bulk: &BulkTargets<B>,
        narrowing: Option<MoveType>,
    ) -> Filter {
        let mover = turn.move_as;
        if !bulk.keeps() {
            let targets = |pos: Pos, occupancy: &Occupancy<B>| {
                Targets::of(bulk, mover, state.at(pos)?.kind, pos, occupancy)
            };
            return self.count_pieces(run, state, turn, bulk, narrowing, targets);
        }
        B::kept().with(|kept| {
            // A count within another (none is known) keeps nothing for the next.
            let mut own = None;
            let mut kept = kept.try_borrow_mut();
            let kept = match &mut kept {
                Ok(kept) => &mut **kept,
                Err(_) => own.insert(KeptTargets::new()),
            };
            let changed = kept.start::<T>(bulk, state, mover);
            let targets = |pos: Pos, occupancy: &Occupancy<B>| {
                kept.targets(bulk, state, changed, pos, occupancy)
            };
            self.count_pieces(run, state, turn, bulk, narrowing, targets)
        })
    }

    /// [`Gen::pieces_counted_in_bulk`], with the `targets` of the piece on a square in
    /// the position seen as an [`Occupancy`].
    fn count_pieces<B: SquareSet>(
        &self,
        run: &mut Run<'_, T::Noting>,
        state: &State,
        turn: Turn,
        bulk: &BulkTargets<B>,
        narrowing: Option<MoveType>,
        mut targets: impl FnMut(Pos, &Occupancy<B>) -> Option<Targets<B>>,
    ) -> Filter {
        let mut count = run.output().bulk_count::<B>(bulk.counted_type);
        let occupancy = Occupancy::of::<T>(self.tables, state, turn.move_as);
        // The pieces whose turns are counted together go first.
        let mut together = B::default();
        if bulk.counts_together(turn.move_as) {
            let (turns, pieces) =
                bulk.count_by_kind::<T>(state, turn.move_as, &occupancy, count.danger());
            if count.count_together(turns, pieces) {
                together = pieces;
                run.output().take_bulk_count(&mut count);
            }
        }
        let mut squares = state.squares_of_except::<T>(turn.move_as, together.words());
        while let Some(pos) = squares.next() {
            let counted = targets(pos, &occupancy).and_then(|targets| {
                let count = count.count(pos, targets.squares, targets.count, targets.slid);
                Some((count?, targets.not_run))
            });
            // The turns counted so far go first: the steps added next come after them.
            let piece = match counted {
                Some((undecided, u64::MAX)) if undecided.is_empty() => continue,
                _ => match state.at(pos) {
                    Some(piece) => piece,
                    None => continue,
                },
            };
            run.output().take_bulk_count(&mut count);
            run.take_piece(pos, piece);
            match counted {
                Some((undecided, not_run)) => {
                    let mut undecided = undecided;
                    while !undecided.is_empty() {
                        run.add_moving_to(undecided.lowest(), bulk.counted_type);
                        undecided = undecided.without_lowest();
                    }
                    if not_run != u64::MAX {
                        if run.only_templates_counting_jumps(!not_run) {
                            self.templates.piece_moves(run, piece.kind, Filter::ANY);
                        }
                        run.only_templates(u64::MAX);
                    }
                }
                None => self.templates.piece_moves(run, piece.kind, Filter::ANY),
            }
            if narrowing.is_some() && run.found_narrowed_type() {
                // Only steps of the narrowed type are kept from now on, none counted in
                // bulk: only that type's templates need run.
                let filter = Filter::only(narrowing);
                for pos in squares {
                    if let Some(piece) = state.at(pos) {
                        run.take_piece(pos, piece);
                        self.templates.piece_moves(run, piece.kind, filter);
                    }
                }
                return filter;
            }
        }
        run.output().take_bulk_count(&mut count);
        Filter::ANY
    }

    /// Runs the move templates of the piece on `pos` (those whose bits are set in
    /// `templates`, see [`crate::RunCore::start_template`]), if any, into `out`.
    pub(crate) fn moves_of_piece(
        &self,
        state: &State,
        turn: Turn,
        pos: Pos,
        filter: Filter,
        templates: u64,
        out: &mut Steps,
    ) {
        if let Some(piece) = state.at(pos) {
            let mut run = Run::for_move(self.tables, state, turn, pos, None, out);
            run.only_templates(templates);
            self.templates.piece_moves(&mut run, piece.kind, filter);
        }
    }

    /// Runs the drop templates of piece type `kind` into `out`.
    fn drops_of(&self, state: &State, turn: Turn, kind: Kind, filter: Filter, out: &mut Steps) {
        let mut run = Run::for_drop(self.tables, state, turn, 0, kind, None, out);
        self.templates.drops(&mut run, kind, filter);
    }

    /// Whether `step`, the last of a chain of `length` steps, ends it in `before`, the
    /// position with the steps before it applied, told without playing it: where the
    /// limits stop the chain, or the tables tell that nothing continues it
    /// ([`Tables::ends_chain`]), spending `budget` as [`Gen::continuations`] would.
    /// False where the step must be played to learn it.
    fn ends_unplayed(
        &self,
        before: &State,
        turn: Turn,
        step: &Step,
        length: usize,
        budget: &mut usize,
    ) -> bool {
        if step.continue_with.is_none() || length >= MAX_CHAIN || *budget == 0 {
            return true;
        }
        if !self.tables.ends_chain(before, turn.move_as, step) {
            return false;
        }
        *budget -= 1;
        debug_assert!(
            {
                let mut scratch = None;
                let after = State::copy_into(&mut scratch, before);
                after.apply_step(self.tables, step);
                self.continuations(after, turn, step, length, &mut 1)
                    .is_empty()
            },
            "the guards end the chain at {step:?}, which its piece's templates continue"
        );
        true
    }

    /// Pushes every complete turn that starts with `first`, a turn whose last step is
    /// partial; `after` is the position with it applied.
    fn complete_chain(
        &self,
        after: &State,
        turn: Turn,
        first: Move,
        out: &mut Vec<Move>,
        budget: &mut usize,
    ) {
        let Some(step) = first.steps.last() else {
            return;
        };
        let next = self.continuations(after, turn, step, 1, budget);
        if next.is_empty() {
            // Most often the step has no continuation: it is the turn, moved, not copied.
            out.push(first);
            return;
        }
        let mut chain: Chain = first.steps.into_iter().collect();
        self.follow_chain(after, turn, &mut chain, next, out, budget);
    }

    /// The steps that may continue a chain of `length` steps ending with `last`, in
    /// `after`, the position with the chain applied: none when `last` is not partial or
    /// nothing continues it (the chain is then a complete turn), or at the limits.
    fn continuations(
        &self,
        after: &State,
        turn: Turn,
        last: &Step,
        length: usize,
        budget: &mut usize,
    ) -> Steps {
        let mut next = Steps::new();
        if let Some(continue_with) = last.continue_with {
            if length < MAX_CHAIN && *budget > 0 {
                *budget -= 1;
                let filter = Filter::only(continue_with);
                self.moves_of_piece(after, turn, last.to, filter, u64::MAX, &mut next);
            }
        }
        next
    }

    /// Pushes every complete turn that continues `chain` with one of `next`, the steps
    /// that continue it (at least one); `after` is the position with `chain` applied.
    fn follow_chain(
        &self,
        after: &State,
        turn: Turn,
        chain: &mut Chain,
        next: Steps,
        out: &mut Vec<Move>,
        budget: &mut usize,
    ) {
        if self.tables.options.pass_partial {
            out.push(Move::of_chain(chain));
        }
        let mut scratch = None;
        for step in next
            .into_moves()
            .into_iter()
            .filter_map(Move::into_single_step)
        {
            if self.ends_unplayed(after, turn, &step, chain.len() + 1, budget) {
                chain.push(step);
                out.push(Move::of_chain(chain));
                chain.pop();
                continue;
            }
            let further = State::copy_into(&mut scratch, after);
            further.apply_step(self.tables, &step);
            let deeper = self.continuations(further, turn, &step, chain.len() + 1, budget);
            chain.push(step);
            if deeper.is_empty() {
                out.push(Move::of_chain(chain));
            } else {
                self.follow_chain(further, turn, chain, deeper, out, budget);
            }
            chain.pop();
        }
    }

    /// Whether some turn of `turn` in `state` removes a piece from one of `targets`. A
    /// step that leaves a piece of a kind marked in `kept` on the target does not count:
    /// Zillions let a Passive Chess player leave his General where the enemy could take
    /// it by a capture that turns the taker into a General (PassiveChess.zsg record 30).
    pub fn captures_any_of(
        &self,
        state: &State,
        turn: Turn,
        targets: &[Pos],
        kept: &[bool],
    ) -> bool {
        let attacker = turn.move_as;
        let Some(reach) = &self.tables.reach else {
            let threats = state.squares_of(attacker);
            return self.captures_any_of_among(state, turn, targets, kept, threats, None);
        };
        // Only the pieces whose reach includes a target can capture there.
        let found = match targets {
            // One target on a board of several words: the mask read as it is visited.
            &[target] if state.own_words(attacker).len() > 1 => {
                let threats = || threats_toward(reach, state, attacker, target);
                debug_assert!(
                    threats().eq(ThreatMask::of::<T>(reach, state, attacker, targets).squares())
                );
                self.captures_any_of_among(state, turn, targets, kept, threats(), None)
            }
            _ => {
                let threats = ThreatMask::of::<T>(reach, state, attacker, targets);
                self.captures_any_of_among(state, turn, targets, kept, threats.squares(), None)
            }
        };
        // The reach's invariant: no step outside it removes a piece (a piece landing
        // where its template found the square empty removes none).
        debug_assert!(
            found || !self.first_steps_remove(state, turn, targets, kept),
            "the reach table misses an attack on {targets:?}"
        );
        found
    }

    /// The general path the reach table shortens, for debug builds: whether a first
    /// step of any of the attacker's pieces, by any of its templates, removes a
    /// protected piece from `targets`. (Compiled in every build, as `debug_assert!`
    /// type-checks its condition; run only in debug builds.)
    fn first_steps_remove(
        &self,
        state: &State,
        turn: Turn,
        targets: &[Pos],
        kept: &[bool],
    ) -> bool {
        let mut steps = Steps::new();
        for (pos, _) in state.pieces_of(turn.move_as) {
            self.moves_of_piece(state, turn, pos, turn.filter(), u64::MAX, &mut steps);
        }
        let removes = |step: &Step| removes_protected(self.tables, state, step, targets, kept);
        let found = steps.iter().any(removes);
        found
    }

    /// [`Gen::captures_any_of`] with the moves of the pieces on `squares` (which must
    /// hold every piece of the mover that could capture; others are skipped), in that
    /// order, and the drops; noting in `footprint` (when given) what the answer depends
    /// on: the squares tested and what their runs looked at.
    pub fn captures_any_of_among(
        &self,
        state: &State,
        turn: Turn,
        targets: &[Pos],
        kept: &[bool],
        squares: impl IntoIterator<Item = Pos>,
        footprint: Option<&mut Footprint>,
    ) -> bool {
        if targets.is_empty() {
            return false;
        }
        let filter = turn.filter();
        // Piece by piece, stopping at the first capture: most queries (is this move
        // legal?) find none, and should not build every turn to learn it, nor keep the
        // steps that cannot hit a target.
        // Made on the first piece to test: most probes test none.
        let mut steps: Option<Steps> = None;
        let noting = footprint.is_some();
        let new_steps = || {
            let steps = Steps::hitting(targets);
            if noting {
                steps.noting_reads()
            } else {
                steps
            }
        };
        let mut seen = Footprint::default();
        let mut budget = MAX_CHAIN_STEPS;
        let removes = |before: &State, step: &Step| {
            removes_protected(self.tables, before, step, targets, kept)
        };
        let hits = |steps: &mut Steps, budget: &mut usize| {
            for step in steps.take() {
                if removes(state, &step) {
                    return true;
                }
                if step.continue_with.is_some() {
                    let mut after = state.clone();
                    after.apply_step(self.tables, &step);
                    let mut chains = Vec::new();
                    self.complete_chain(&after, turn, Move::of_step(step), &mut chains, budget);
                    let chain_removes = |m: &Move| {
                        let mut board = state.clone();
                        m.steps.iter().any(|s| {
                            let hit = removes(&board, s);
                            board.apply_step(self.tables, s);
                            hit
                        })
                    };
                    if chains.iter().any(chain_removes) {
                        return true;
                    }
                }
            }
            false
        };
        let reach = self.tables.reach.as_ref();
        let found = 'search: {
            for pos in squares {
                seen.note(pos);
                let Some(piece) = state.at(pos).filter(|p| p.owner == turn.move_as) else {
                    continue;
                };
                // Only the templates that could reach a target: a queen in line with
                // the king runs one of its eight lines.
                let templates = reach.map_or(u64::MAX, |r| {
                    r.templates_hitting(turn.move_as, piece.kind, pos, targets)
                });
                if templates != 0 {
                    let steps = steps.get_or_insert_with(new_steps);
                    self.moves_of_piece(state, turn, pos, filter, templates, steps);
                    if hits(steps, &mut budget) {
                        break 'search true;
                    }
                }
            }
            for kind in 0..self.tables.kinds() as Kind {
                if !self.templates.has_drops(kind) {
                    continue;
                }
                // Drops look at the whole board, and stocks change with captures.
                seen = Footprint::EVERYTHING;
                if state.stock(self.tables, turn.move_as, kind) > 0 {
                    let steps = steps.get_or_insert_with(new_steps);
                    self.drops_of(state, turn, kind, filter, steps);
                    if hits(steps, &mut budget) {
                        break 'search true;
                    }
                }
            }
            false
        };
        if let Some(footprint) = footprint {
            // Read in place: the steps are large, and moving them out copies them.
            *footprint = seen.union(
                steps
                    .as_ref()
                    .map_or_else(Footprint::default, Steps::footprint),
            );
        }
        found
    }
}
