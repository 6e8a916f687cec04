//! Partial moves: whether a chain of partial steps ends with a step, read off the
//! guards of the bulk targets (see [`crate::bulk`]) instead of the templates run on a
//! copy of the position after it. A checkers jump is a partial step; most land where
//! no further jump opens, and listing the turns took, for each of them, a copy of the
//! board and a run of the piece's templates to learn it. Move listing (`crate::gen`)
//! asks first, and a perft's last ply asks as each partial step comes, to count those
//! that end instead of keeping them (`Steps::count_ended_chain`). A jump
//! ([`crate::Shape::Jump`]) whose guard passes is counted so without running its
//! template at all ([`BulkTargets::count_jumps`]), and where such jumps of the first
//! type of `move-priorities` are all the turns, a count takes them before any run
//! ([`BulkTargets::count_first_type_jumps`]), reading the guards off the occupancy
//! bitsets the count sorts the squares into, and those of the position after each jump
//! of a chain off a few set operations on them. Debug builds check every answer of
//! the listing against the templates' code run on the position after, and every count
//! against the list.

use smallvec::SmallVec;

use crate::bulk::{standing, Occupancy};
use crate::layout::ReadSizes;
use crate::run::Steps;
use crate::shape::{Bulk, BulkTargets, GuardedJump, SquareSet, SquareTargets, Standing};
use crate::state::changed::{after_one_piece_moving, one_piece_moving};
use crate::state::{State, Step};
use crate::tables::Tables;
use crate::{Kind, MoveType, Piece, PlayerIx, Pos};

/// Most steps a count follows, over the chains of jumps of one position, before it
/// leaves the position to the list (which spends its budget of chain steps on them).
const CHAINS_FOLLOWED: usize = 100;

/// A chain of jumps under way, as [`BulkTargets::complete_chains`] follows it: where
/// the piece started, where it stands, the squares it captured, and the move type of
/// the templates that continue it.
#[derive(Clone, Copy, Debug)]
struct Jumping<B> {
    from: Pos,
    at: Pos,
    captured: B,
    continue_with: Option<MoveType>,
}

impl<B: SquareSet> Jumping<B> {
    /// The chain after `jump` from where it stands; `None` where its squares are beyond
    /// the set's.
    fn then(self, jump: GuardedJump) -> Option<Jumping<B>> {
        if jump.to >= B::WIDTH || jump.captured >= B::WIDTH {
            return None;
        }
        Some(Jumping {
            at: jump.to,
            captured: self.captured | B::bit(jump.captured),
            continue_with: jump.continue_with,
            ..self
        })
    }
}

/// The piece whose chains of jumps a count follows ([`BulkTargets::complete_chains`]),
/// its owner, and the position they start from, as the board and as its occupancy.
#[derive(Clone, Copy)]
struct Chains<'a, B> {
    tables: &'a Tables,
    state: &'a State,
    occupancy: &'a Occupancy<B>,
    player: PlayerIx,
    piece: Piece,
}

impl<B: SquareSet> Chains<'_, B> {
    /// The occupancy of the position after `jumping`, made from the one before
    /// ([`Occupancy::after_jumping`]). The invariant: it is the position after the
    /// jumps, played on the board and sorted again; debug builds check it so.
    fn occupancy_after(&self, jumping: Jumping<B>) -> Occupancy<B> {
        let (from, at) = (B::bit(jumping.from), B::bit(jumping.at));
        let after = self.occupancy.after_jumping(from, at, jumping.captured);
        debug_assert_eq!(
            after,
            self.sorted_after(jumping),
            "the occupancy after the jumps to {} differs from the position's, played",
            jumping.at
        );
        after
    }

    /// The occupancy of the position after `jumping`, played on a copy of the board.
    fn sorted_after(&self, jumping: Jumping<B>) -> Occupancy<B> {
        let mut after = self.state.clone();
        after.put(jumping.from, None);
        let mut captured = jumping.captured;
        while !captured.is_empty() {
            after.put(captured.lowest(), None);
            captured = captured.without_lowest();
        }
        after.put(jumping.at, Some(self.piece));
        Occupancy::of::<ReadSizes>(self.tables, &after, self.player)
    }
}

/// Whether what stands on a square (a set of one) passes a [`Standing`], in a position
/// seen as `occupancy`.
fn passes_on<B: SquareSet>(occupancy: &Occupancy<B>) -> impl Fn(B, Standing) -> bool + '_ {
    |square, needs| !(square & occupancy.passing(needs)).is_empty()
}

impl<B: SquareSet> BulkTargets<B> {
    /// Whether the partial `step` of `mover`'s is a whole turn: in the position after it,
    /// the piece on its last square has no template of the type it continues with that
    /// may add a step, each being one that never adds from that square (counted there
    /// while not of the counted type) or one whose guard fails there. False where the
    /// targets cannot tell (the code must run). The invariant: a template whose guard
    /// fails adds no step (see [`BulkTargets::targets`], which skips their code on the
    /// same ground).
    fn ends_chain(&self, tables: &Tables, before: &State, mover: PlayerIx, step: &Step) -> bool {
        let Some(continue_with) = step.continue_with else {
            return true;
        };
        let Some(moving) = one_piece_moving(std::slice::from_ref(step)) else {
            return false;
        };
        self.ends_chain_moving(tables, before, mover, continue_with, moving)
    }

    /// [`BulkTargets::ends_chain`] of a partial step that moves one piece and perhaps
    /// captures another (`moving`, as [`one_piece_moving`] gives it), continued by
    /// templates of `continue_with`.
    fn ends_chain_moving(
        &self,
        tables: &Tables,
        before: &State,
        mover: PlayerIx,
        continue_with: Option<MoveType>,
        moving: (Pos, Pos, Option<Pos>),
    ) -> bool {
        let after = after_one_piece_moving(before, moving);
        let piece = match after(moving.1) {
            // Nothing stands there to continue.
            None => return true,
            Some(piece) if piece.owner == mover => piece,
            Some(_) => return false,
        };
        let Some(continuing) = self.templates_of_type(piece.kind, continue_with) else {
            return false;
        };
        let Some(square) = self.targets.get(self.entry(mover, piece.kind, moving.1)) else {
            return false;
        };
        // Templates not of the counted type are counted only where they never add
        // (`square_targets`); of the counted type, a counted one may add.
        let mut idle = match continue_with == self.counted_type {
            true => 0,
            false => square.counted,
        };
        let active = tables.active_players();
        let passes = |square: B, needs: Standing| {
            needs & standing(&active, mover, after(square.lowest())) != 0
        };
        for (template, passes, _) in self.guards_among(square, continuing, passes) {
            if !passes {
                idle |= template;
            }
        }
        continuing & !idle == 0
    }

    /// Of `player`'s pieces on `squares` in `state` (seen as `occupancy`), how many turns
    /// their templates of move type `first` make, where each of those templates is one
    /// that never adds from the piece's square (counted there while not of the counted
    /// type), one whose guard fails, or a jump ([`crate::Shape::Jump`]) whose guard
    /// passes, whose chain the guards follow to its ends
    /// ([`BulkTargets::complete_chains`]): `None` where one is not, or where none makes
    /// a turn. The invariant: those chains are the turns of
    /// type `first` the templates' code would make, as the list completes them.
    pub(crate) fn count_first_type_jumps(
        &self,
        tables: &Tables,
        state: &State,
        player: PlayerIx,
        squares: impl Iterator<Item = Pos>,
        first: MoveType,
        occupancy: &Occupancy<B>,
    ) -> Option<u32> {
        let mut turns = 0;
        let mut followed = 0;
        for from in squares {
            let piece = state.at(from)?;
            if from >= B::WIDTH {
                return None;
            }
            let of_first = self.templates_of_type(piece.kind, Some(first))?;
            let square = self.targets.get(self.entry(player, piece.kind, from))?;
            let mut decided = square.counted;
            let mut ends = SmallVec::new();
            for (template, passes, jump) in
                self.guards_among(square, of_first, passes_on(occupancy))
            {
                decided |= template;
                if !passes {
                    continue;
                }
                let jump = jump.filter(|jump| jump.move_type == Some(first))?;
                let standing_still = Jumping {
                    from,
                    at: from,
                    captured: B::default(),
                    continue_with: None,
                };
                let chain = Chains {
                    tables,
                    state,
                    occupancy,
                    player,
                    piece,
                };
                let jumped = standing_still.then(jump)?;
                turns += self.complete_chains(chain, jumped, &mut ends, &mut followed)?;
            }
            if of_first & !decided != 0 {
                return None;
            }
        }
        (turns > 0).then_some(turns)
    }

    /// The templates of piece type `kind` of `move_type` (a bit each, by number, as the
    /// guards and counted sets hold them). `None` where the type lists no move types
    /// (none of its templates has a shape: its code decides) or such a template is
    /// numbered past those the targets give a bit (62).
    #[inline]
    fn templates_of_type(&self, kind: Kind, move_type: Option<MoveType>) -> Option<u64> {
        let by_type = self.templates_by_type.get(kind as usize)?;
        match by_type.iter().find(|&&(listed, _)| listed == move_type) {
            Some(&(_, templates)) => templates,
            None if by_type.is_empty() => None,
            None => Some(0),
        }
    }

    /// The guards of `square` whose templates are among `templates`: each template (a
    /// bit), whether its guard passes where `passes` tells whether what stands on a
    /// square (a set of one) passes a [`Standing`], and the jump it guards, if any.
    fn guards_among<'a>(
        &'a self,
        square: &SquareTargets<B>,
        templates: u64,
        passes: impl Fn(B, Standing) -> bool + 'a,
    ) -> impl Iterator<Item = (u64, bool, Option<GuardedJump>)> + 'a {
        let start = square.guards.0 as usize;
        let guards = self.guards.get(start..square.guards.1 as usize);
        let guards = guards.unwrap_or_default().iter().enumerate();
        guards.filter_map(move |(number, guard)| {
            if guard.template & templates == 0 {
                return None;
            }
            let [first, second] = guard.squares;
            let passing = passes(first, guard.needs[0]) && passes(second, guard.needs[1]);
            let jump = self.guarded_jumps.get(start + number).copied().flatten();
            Some((guard.template, passing, jump))
        })
    }

    /// How many whole turns a chain of jumps makes that has come to `jumping.at`, its
    /// last step a jump continued by templates of `jumping.continue_with`: one where no
    /// template of that type of the piece may add a step there, each being one that
    /// never adds from that square or one whose guard fails (the chain ends), else
    /// those the jumps whose guards pass make (followed so, in the position after the
    /// chain). `None` where a template of that type must run its code (no guard tells
    /// what it adds, or it is of the counted type), where a turn ends as another of the
    /// piece's does (same square, same captures: only the list tells whether they are
    /// the same), where `pass-partial` makes each step a turn too, or past
    /// [`CHAINS_FOLLOWED`] steps followed in the position.
    fn complete_chains(
        &self,
        chain: Chains<'_, B>,
        jumping: Jumping<B>,
        ends: &mut SmallVec<[(Pos, B); 8]>,
        followed: &mut usize,
    ) -> Option<u32> {
        *followed += 1;
        if *followed > CHAINS_FOLLOWED || jumping.continue_with == self.counted_type {
            return None;
        }
        let kind = chain.piece.kind;
        let continuing = self.templates_of_type(kind, jumping.continue_with)?;
        let square = self
            .targets
            .get(self.entry(chain.player, kind, jumping.at))?;
        let after = chain.occupancy_after(jumping);
        let mut idle = square.counted;
        let mut turns = 0;
        for (template, passes, jump) in self.guards_among(square, continuing, passes_on(&after)) {
            idle |= template;
            if !passes {
                continue;
            }
            if chain.tables.options.pass_partial {
                return None;
            }
            let next = jumping.then(jump?)?;
            turns += self.complete_chains(chain, next, ends, followed)?;
        }
        if continuing & !idle != 0 {
            return None;
        }
        if turns > 0 {
            return Some(turns);
        }
        let end = (jumping.at, jumping.captured);
        if ends.contains(&end) {
            return None;
        }
        ends.push(end);
        Some(1)
    }

    /// Counts into `out` ([`Steps::count_jump`]) the jumps ([`crate::Shape::Jump`]) of
    /// `mover`'s piece of type `kind` on `from` whose guards pass in `state` (their
    /// templates are not in `not_run`, which [`BulkTargets::targets`] gave) and whose
    /// chains end where they land; those templates join the ones whose code need not
    /// run, which are returned (`u64::MAX`: none runs). The invariant: where its guard
    /// passes, a jump's template adds exactly the step its
    /// [`crate::shape::GuardedJump`] tells (the guard holds every test of its opening,
    /// and its code does not run on its last square), and that step is counted as its
    /// code would have it counted ([`Steps::count_ended_chain`]). Debug builds check
    /// every count against the list.
    #[inline]
    pub(crate) fn count_jumps(
        &self,
        tables: &Tables,
        state: &State,
        mover: PlayerIx,
        (kind, from): (Kind, Pos),
        not_run: u64,
        out: &mut Steps,
    ) -> u64 {
        let square = self.targets.get(self.entry(mover, kind, from));
        let Some(square) = square.filter(|_| !self.guarded_jumps.is_empty()) else {
            return not_run;
        };
        let mut not_run = not_run;
        let guards = square.guards.0 as usize..square.guards.1 as usize;
        for (guard, jump) in self.guards[guards.clone()]
            .iter()
            .zip(&self.guarded_jumps[guards])
        {
            let Some(jump) = *jump else {
                continue;
            };
            let moving = (from, jump.to, Some(jump.captured));
            if not_run & guard.template == 0
                && self.ends_chain_moving(tables, state, mover, jump.continue_with, moving)
            {
                out.count_jump(from, jump.to, jump.move_type);
                not_run |= guard.template;
            }
        }
        match not_run == square.all {
            true => u64::MAX,
            false => not_run,
        }
    }
}

impl Tables {
    /// [`BulkTargets::count_jumps`] on the game's bulk targets; `not_run` without them.
    pub(crate) fn count_jumps(
        &self,
        state: &State,
        mover: PlayerIx,
        piece: (Kind, Pos),
        not_run: u64,
        out: &mut Steps,
    ) -> u64 {
        match self.bulk_targets() {
            Some(Bulk::OneWord(bulk)) => bulk.count_jumps(self, state, mover, piece, not_run, out),
            Some(Bulk::TwoWords(bulk)) => bulk.count_jumps(self, state, mover, piece, not_run, out),
            Some(Bulk::FourWords(bulk)) => {
                bulk.count_jumps(self, state, mover, piece, not_run, out)
            }
            None => not_run,
        }
    }

    /// [`BulkTargets::ends_chain`] on the game's bulk targets; false without them.
    pub(crate) fn ends_chain(&self, before: &State, mover: PlayerIx, step: &Step) -> bool {
        match self.bulk_targets() {
            Some(Bulk::OneWord(bulk)) => bulk.ends_chain(self, before, mover, step),
            Some(Bulk::TwoWords(bulk)) => bulk.ends_chain(self, before, mover, step),
            Some(Bulk::FourWords(bulk)) => bulk.ends_chain(self, before, mover, step),
            None => false,
        }
    }
}
