//! The random draw: a legal turn chosen uniformly at random, found without listing
//! every legal turn where the rules allow it (what random playouts need).

use smallvec::SmallVec;

use crate::engine::Engine;
use crate::guard::{Listing, RoyalGuard};
use crate::piece::Piece;
use crate::reach::Reach;
use crate::run::{removal_square, Run, Screen, Steps};
use crate::state::State;
use crate::tables::{PassTurn, Turn};
use crate::templates::Templates;
use crate::turn::{drop_repeated_turns, Move};
use crate::watched::{is_royal, royal_squares_after};
use crate::{Kind, PlayerIx, Pos};

impl<T: Templates> Engine<T> {
    /// A legal turn of `state` chosen uniformly at random, played on `state` in place
    /// (as [`Engine::make`] plays it); `None`, `state` untouched, when there is none
    /// ([`crate::Game::make_random_move`]); `moves` is a buffer. The same distribution
    /// as picking from [`Engine::legal_moves`], found cheaply where it can be: under
    /// the `checkmated` filter alone, candidates are drawn at random and only the drawn
    /// ones tested, each made on `state` and taken back if illegal (a random playout
    /// needs one legal turn played, not the legality of all of them, nor a copy of the
    /// position per turn); where the rules bound each piece's steps
    /// ([`crate::Reach::with_step_bounds`]), the candidates are drawn by piece and
    /// index, without listing every piece's turns.
    pub fn make_random_move(
        &self,
        state: &mut State,
        rng: &mut crate::SplitMix64,
        moves: &mut Vec<Move>,
    ) -> Option<Move> {
        let turn = self.turn(state);
        // Priorities, maximal captures and passes choose among the legal turns as a
        // whole (a pass is one more turn to draw): those games list them all.
        let filter_alone =
            self.tables.turns_judged_alone() && self.tables.options.pass_turn == PassTurn::Never;
        let royal = (self.tables.royal_kinds(turn.player)).filter(|_| filter_alone);
        let drawn = match royal {
            None => {
                self.legal_moves_into(state, moves);
                rng.take_one(moves)?
            }
            Some(royal) => {
                if let Some(made) = self.draw_within_bounds(state, turn, royal, rng, moves) {
                    return Some(made);
                }
                self.draw_screened(state, turn, royal, rng, moves)?
            }
        };
        // Nothing takes it back: the position goes on from there.
        drop(self.make(state, &drawn));
        Some(drawn)
    }

    /// The last resort of [`Engine::make_random_move`], where drawn candidates were
    /// mostly illegal (the mover in check, say): every turn listed and screened by the
    /// attack test on the position before, which decides most of them (all illegal, in
    /// check); turns are drawn from the list, each tested only if undecided, until one
    /// is legal, which is as uniform as drawing from the legal ones. Out of line: about
    /// one turn in a hundred of a random chess game comes here.
    #[cold]
    #[inline(never)]
    fn draw_screened(
        &self,
        state: &State,
        turn: Turn,
        royal: &[bool],
        rng: &mut crate::SplitMix64,
        moves: &mut Vec<Move>,
    ) -> Option<Move> {
        moves.clear();
        let mut guard = RoyalGuard::unscanned(royal);
        let listed = self.screened_turns(state, turn, &mut guard, moves, Listing::Every);
        let (Some(undecided), Some(true)) = (listed.undecided, listed.routes_differ) else {
            // Turns that may repeat are told apart once all are decided.
            guard.keep_legal(self, state, moves, listed.undecided, |_| true);
            drop_repeated_turns(moves, listed.routes_differ);
            return rng.take_one(moves);
        };
        let mut open: SmallVec<[bool; 64]> = (0..moves.len())
            .map(|index| Screen::is_undecided(undecided, index))
            .collect();
        while !moves.is_empty() {
            let index = rng.below(moves.len());
            let legal = if open[index] {
                guard.keeps_royal_safe(self, state, &moves[index])
            } else {
                !guard.attacked_before
            };
            open.swap_remove(index);
            let drawn = moves.swap_remove(index);
            if legal {
                return Some(drawn);
            }
        }
        None
    }

    /// A legal turn drawn uniformly at random by piece and index: with `bound(p)` the
    /// most steps the piece `p` could add from its square ([`crate::Reach::max_steps`]), a
    /// number below the sum of the bounds names a piece and an index below its bound;
    /// the piece's turns are listed up to that index, and the one there is the
    /// candidate, if there is one and no piece listed before it makes the same turn
    /// (only pieces whose steps may start elsewhere than on their square can). Every
    /// turn is then as likely as any other, and drawing again when there is no
    /// candidate, or when it leaves a royal piece attacked, keeps it so. What a draw
    /// learns narrows the next ones, each still uniform over a set that holds every
    /// legal turn: a piece whose turns were all listed is drawn by their number, and a
    /// piece and index found illegal are not tried again. Played on `state` (as
    /// [`Engine::make`] plays it); `None`, `state` untouched, when this cannot be
    /// done here (a piece of unknown bound, drops to make, tables the rules turn out to
    /// exceed) or takes too long (the legal turns are few, or none): the turns are then
    /// listed, and the draw made among them, which is as uniform (giving up depends
    /// only on how many draws failed).
    fn draw_within_bounds(
        &self,
        state: &mut State,
        turn: Turn,
        royal: &[bool],
        rng: &mut crate::SplitMix64,
        buffer: &mut Vec<Move>,
    ) -> Option<Move> {
        // Enough draws for positions where one candidate in ten is legal; past them the
        // listing is cheaper.
        const MAX_DRAWS: usize = 256;
        const MAX_REJECTED: usize = 8;
        let reach = self.tables.reach.as_ref()?;
        let mover = turn.move_as;
        // Filled in place: the plan is too large to return by value without a copy.
        let mut plan = DrawPlan::default();
        if !self.plan_draw(state, mover, royal, reach, &mut plan) {
            return None;
        }
        let DrawPlan {
            ref mut pieces,
            mut total,
            ref loose,
            royal: ref royal_before,
        } = plan;
        // Read through a slice: the draws index it often, and a small vector's every
        // access tests whether it spilled.
        let pieces = pieces.as_mut_slice();
        let filter = turn.filter();
        let mut steps = Steps::appending_to(std::mem::take(buffer));
        // The draws (piece and index) found to be no legal turn, or another piece's.
        let mut rejected: SmallVec<[(usize, usize); MAX_REJECTED]> = SmallVec::new();
        let mut found = None;
        let mut guard: Option<RoyalGuard<'_>> = None;
        for _ in 0..MAX_DRAWS {
            let drawn = rng.below_fast(total);
            let at = pieces.partition_point(|piece| piece.end <= drawn);
            let Drawn {
                pos,
                piece,
                bound,
                width,
                end,
            } = pieces[at];
            let index = drawn + width - end;
            if rejected.contains(&(at, index)) {
                continue;
            }
            // A run for this draw alone: candidates are tried on the position itself,
            // which it reads.
            let mut run = Run::for_pieces(&self.tables, state, turn, &mut steps);
            // The piece's turns up to the drawn one, those before it counted, not kept;
            // all of them, kept, when two may be the same (promotion choices, say), as
            // the later of two equal turns is dropped.
            let mut list = |skip: usize, enough: usize| {
                let out = run.output();
                out.start_skipping(skip, pos);
                run.enough_after(enough);
                run.take_piece(pos, piece);
                self.templates.piece_moves(&mut run, piece.kind, filter);
                run.output().routes_differ()
            };
            let routes_differ = list(index, index + 1) || list(0, usize::MAX);
            let out = run.output();
            let (skipped_partial, skipped_elsewhere) = out.skipped_partial_or_elsewhere();
            let partial = skipped_partial || out.first_partial().is_some();
            let steps = out.count();
            let turns = out.kept_mut();
            let skipped = steps - turns.len();
            // Safety nets, should the tables be wrong (the corpus playouts check them):
            // a partial step, more steps than the bound, a step of an anchored type
            // that starts elsewhere.
            let starts_elsewhere = |m: &Move| m.steps.first().map(|s| s.from) != Some(Some(pos));
            let anchored = reach.anchored(mover, piece.kind);
            let broken = anchored && (skipped_elsewhere || turns.iter().any(starts_elsewhere));
            if partial || broken || steps > bound as usize {
                break;
            }
            drop_repeated_turns(turns, Some(routes_differ));
            let listed = skipped + turns.len();
            if index >= listed {
                // The piece's turns were all listed: from now on it is drawn by their
                // number. Each draw is still uniform over a set holding every turn.
                let shrink = width - listed;
                pieces[at].width = listed;
                for later in &mut pieces[at..] {
                    later.end -= shrink;
                }
                total -= shrink;
                if total == 0 {
                    break;
                }
                continue;
            }
            let candidate = turns.swap_remove(index - skipped);
            if self.made_before(state, turn, pos, &candidate, loose) {
                rejected.push((at, index));
                if rejected.len() == MAX_REJECTED {
                    break;
                }
                continue;
            }
            // Once a candidate was illegal (the mover may be in check), the attack test
            // on the position before decides the candidates that keep away from what it
            // looked at.
            let decided = (guard.as_ref())
                .filter(|guard| guard.decided_before(state, &candidate))
                .map(|guard| !guard.attacked_before);
            if decided == Some(false) {
                rejected.push((at, index));
                if rejected.len() == MAX_REJECTED {
                    break;
                }
                continue;
            }
            // Made, and taken back if illegal.
            let undo = self.make(state, &candidate);
            let legal = decided.unwrap_or_else(|| {
                let targets =
                    royal_squares_after(royal_before, &candidate.steps, state, mover, royal);
                !(self.gen()).captures_any_of(state, self.turn(state), &targets, royal)
            });
            if legal {
                found = Some(candidate);
                break;
            }
            self.unmake(state, undo);
            rejected.push((at, index));
            if rejected.len() == MAX_REJECTED {
                break;
            }
            // Not after a royal piece's own move: the guard decides none of those, and
            // one moving into an attack says nothing of check.
            if guard.is_none() && !is_royal(royal, piece) {
                guard = Some(RoyalGuard::new(self, state, turn, royal));
            }
        }
        *buffer = steps.into_moves();
        found
    }

    /// The mover's pieces as [`Engine::draw_within_bounds`] draws them, into `plan`
    /// (empty), with the squares of its pieces of the `royal` types; `false` where it
    /// cannot: the mover may drop, a piece has no bound, or nothing can move.
    fn plan_draw(
        &self,
        state: &State,
        mover: PlayerIx,
        royal: &[bool],
        reach: &Reach,
        plan: &mut DrawPlan,
    ) -> bool {
        let drops = (0..self.tables.kinds() as Kind).any(|kind| {
            self.templates.has_drops(kind) && state.stock(&self.tables, mover, kind) > 0
        });
        if drops {
            return false;
        }
        for (pos, piece) in state.pieces_of(mover) {
            if is_royal(royal, piece) {
                plan.royal.push(pos);
            }
            let Some(bound) = reach.max_steps(mover, piece.kind, pos) else {
                return false;
            };
            if bound > 0 {
                if !reach.anchored(mover, piece.kind) {
                    plan.loose.push(pos);
                }
                plan.total += bound as usize;
                plan.pieces.push(Drawn {
                    pos,
                    piece,
                    bound,
                    width: bound as usize,
                    end: plan.total,
                });
            }
        }
        plan.total > 0
    }

    /// Whether a piece listed before the one on `pos` (pieces are listed in position
    /// order) makes the same turn as `candidate`, a turn of that piece. Another piece's
    /// turn is the same only if it starts where `candidate` starts: a `loose` piece's
    /// may start elsewhere than on its square, where the reach table says (a king whose
    /// castling moves a rook, on that rook's square), and `candidate` may start on
    /// another piece's square; and only if that piece may remove pieces from the squares
    /// the first step of `candidate` removes them from.
    fn made_before(
        &self,
        state: &State,
        turn: Turn,
        pos: Pos,
        candidate: &Move,
        loose: &[Pos],
    ) -> bool {
        let start = candidate.steps.first().and_then(|s| s.from);
        let elsewhere = start.filter(|&square| square != pos && !loose.contains(&square));
        let reach = self.tables.reach.as_ref();
        let may_start_where_candidate_does = |other: Pos| match (reach, start, state.at(other)) {
            (Some(reach), Some(start), Some(piece)) => {
                reach.may_start_on(turn.move_as, piece.kind, other, start)
            }
            _ => true,
        };
        let mut suspects = (loose.iter().copied())
            .filter(|&other| other < pos && may_start_where_candidate_does(other))
            .chain(elsewhere.filter(|&square| square < pos));
        let Some(first) = suspects.next() else {
            return false;
        };
        // The same turn removes the same pieces on its first step, made in `state`: the
        // templates whose reach holds those squares (all when it removes none).
        let hits: SmallVec<[Pos; 4]> = (candidate.steps.first().into_iter())
            .flat_map(|s| s.changes.iter().filter_map(|c| removal_square(state, c)))
            .collect();
        std::iter::once(first).chain(suspects).any(|other| {
            let Some(piece) = state.at(other).filter(|p| p.owner == turn.move_as) else {
                return false;
            };
            // Only that piece's templates, and steps, that may hit the same squares.
            let (templates, mut theirs) = match (reach, hits.is_empty()) {
                (Some(reach), false) => (
                    reach.templates_hitting(turn.move_as, piece.kind, other, &hits),
                    Steps::hitting(&hits),
                ),
                _ => (u64::MAX, Steps::new()),
            };
            if templates == 0 {
                return false;
            }
            self.gen()
                .moves_of_piece(state, turn, other, turn.filter(), templates, &mut theirs);
            let theirs = theirs.into_moves();
            theirs.iter().any(|m| m.does_the_same_as(candidate))
        })
    }
}

/// A piece as random moves are drawn by piece and index ([`Engine::make_random_move`]).
#[derive(Clone, Copy)]
struct Drawn {
    pos: Pos,
    piece: Piece,
    /// The most steps it could add from its square.
    bound: u32,
    /// How many numbers of the draw name it: its bound, until its turns are counted.
    width: usize,
    /// The sum of the widths up to it, its own included.
    end: usize,
}

/// The mover's pieces a draw picks from ([`Engine::draw_within_bounds`]).
#[derive(Default)]
struct DrawPlan {
    /// Those that may move, with their bounds.
    pieces: SmallVec<[Drawn; 32]>,
    /// The squares of the mover's royal pieces, found on the way.
    royal: SmallVec<[Pos; 4]>,
    /// The sum of their widths.
    total: usize,
    /// The pieces whose steps may start elsewhere than on their square: the only ones
    /// whose turns may be the same as another piece's.
    loose: SmallVec<[Pos; 2]>,
}
