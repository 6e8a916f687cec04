//! A turn as the runtime lists it: the steps it makes (one, a chain of partial moves, or
//! none for a pass), and the rule that a move list holds each distinct turn once.

use smallvec::SmallVec;

use crate::state::{Change, State, Step};
use crate::tables::NO_POS;
use crate::{MoveType, Pos};

/// The steps of one turn: usually one, so kept inline.
pub type TurnSteps = SmallVec<[Step; 1]>;

/// A complete turn: one or more steps (a chain of partial moves), or a pass (no steps).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The steps, in order (none for a pass).
    pub steps: TurnSteps,
}

impl Move {
    /// A pass: a turn of no steps.
    pub fn pass() -> Move {
        Move {
            steps: TurnSteps::new(),
        }
    }

    pub(crate) fn of_chain(chain: &[Step]) -> Move {
        Move {
            steps: chain.iter().cloned().collect(),
        }
    }

    #[inline]
    pub(crate) fn of_step(step: Step) -> Move {
        Move {
            steps: TurnSteps::from_buf([step]),
        }
    }

    /// The step of a one-step turn (`None` for any other).
    pub(crate) fn into_single_step(self) -> Option<Step> {
        let [step] = self.steps.into_inner().ok()?;
        Some(step)
    }

    /// The move type of the turn's first step: the one `move-priorities` ranks it by.
    pub(crate) fn move_type(&self) -> Option<MoveType> {
        self.steps.first().and_then(|s| s.move_type)
    }

    /// Whether the turn's last step is partial: the turn is not complete yet.
    pub(crate) fn is_partial(&self) -> bool {
        self.steps.last().is_some_and(|s| s.continue_with.is_some())
    }

    /// Whether the turn is a pass.
    pub fn is_pass(&self) -> bool {
        self.steps.is_empty()
    }

    /// Whether two turns do the same: the same steps, each with the same changes and
    /// the same partial-move status. The move type that produced a step is not part of
    /// what a turn does.
    pub(crate) fn does_the_same_as(&self, other: &Move) -> bool {
        self.steps.len() == other.steps.len()
            && self.steps.iter().zip(&other.steps).all(|(a, b)| {
                a.from == b.from
                    && a.to == b.to
                    && a.continue_with == b.continue_with
                    && a.changes == b.changes
            })
    }

    /// A digest of everything a turn does (what [`Move::does_the_same_as`] compares).
    pub(crate) fn digest(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        for step in &self.steps {
            (step.from, step.to, step.continue_with, &step.changes).hash(&mut hasher);
        }
        hasher.finish()
    }

    /// A digest of where a turn goes: turns that do the same share it.
    pub(crate) fn route_key(&self) -> u64 {
        let (Some(first), Some(last)) = (self.steps.first(), self.steps.last()) else {
            return 0;
        };
        let from = first.from.map_or(0, |p| u64::from(p) + 1);
        // Positions fit in 21 bits on any board the checker accepts; wider ones only
        // make keys collide, which costs a comparison, never a wrong answer.
        (from << 42 | u64::from(first.to) << 21 | u64::from(last.to))
            ^ (self.steps.len() as u64) << 63
    }

    /// What a search's move ordering and quiescence ask of this turn in `state`.
    pub fn traits(&self, state: &State) -> MoveTraits {
        // One pass over the changes (this runs for every move a search orders); the
        // rarer questions, whether a square was left or is a moving piece's, only for
        // the changes that ask them.
        let changes = || self.steps.iter().flat_map(|s| &s.changes);
        let vacated = |square: Pos| {
            changes().any(|c| match *c {
                Change::Move { from, .. } => from == square,
                Change::Capture { pos } => pos == square,
                _ => false,
            })
        };
        let moving = |square: Pos| {
            self.steps
                .iter()
                .any(|s| s.to == square || s.from == Some(square))
        };
        let (mut captures, mut promotes) = (0u32, false);
        for change in changes() {
            match *change {
                // What `maximal captures` counts ([`Move::captures`]).
                Change::Capture { .. } => captures += 1,
                Change::ChangeType { pos, .. } => {
                    promotes = true;
                    captures += u32::from(!moving(pos));
                }
                Change::Create { .. } => promotes = true,
                // A piece moved onto another removes it (chess captures have no
                // `capture`), unless that one left first or was captured already.
                Change::Move { from, to } => {
                    let removes = to != from && state.at(to).is_some() && !vacated(to);
                    captures += u32::from(removes);
                }
                _ => {}
            }
        }
        debug_assert_eq!(
            captures as usize,
            self.captures()
                + changes()
                    .filter(|c| matches!(**c, Change::Move { from, to }
                        if to != from && state.at(to).is_some() && !vacated(to)))
                    .count()
        );
        MoveTraits {
            captures,
            promotes,
            from: self.steps.first().and_then(|s| s.from),
            to: self.steps.last().map(|s| s.to),
        }
    }

    /// What `maximal captures` counts: the pieces this turn removes, and those whose
    /// type it changes other than the moving piece (a draughts king "captured" by being
    /// turned back into a man, as in the checkers collection's Northern games).
    pub(crate) fn captures(&self) -> usize {
        let moving = |pos: Pos| {
            self.steps
                .iter()
                .any(|s| s.to == pos || s.from == Some(pos))
        };
        self.steps
            .iter()
            .flat_map(|s| &s.changes)
            .filter(|c| match c {
                Change::Capture { .. } => true,
                Change::ChangeType { pos, .. } => !moving(*pos),
                _ => false,
            })
            .count()
    }
}

/// What a search's move ordering and quiescence ask of a move, worked out from its
/// changes ([`Move::traits`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveTraits {
    /// Pieces the turn removes from the board: those it captures, changes the type of
    /// (as `maximal captures` counts them), and those a piece moves onto.
    pub captures: u32,
    /// Whether the turn changes a piece's type or creates one (a promotion, usually).
    pub promotes: bool,
    /// Where the moving piece started (none for drops and passes).
    pub from: Option<Pos>,
    /// Where the turn's last step arrived (none for passes).
    pub to: Option<Pos>,
}

impl MoveTraits {
    /// Whether the move removes a piece or promotes one: what a quiescence search
    /// looks at.
    pub fn is_loud(self) -> bool {
        self.captures > 0 || self.promotes
    }
}

/// Keeps the first of each set of turns that do the same ([`Move::does_the_same_as`]),
/// in generation order: a template that reaches one square along several paths, or a
/// drop template that jumps to a fixed square from every start, yields one move there.
/// `routes_differ`: what [`Routes`] told of the list as it grew, if it was followed.
pub(crate) fn drop_repeated_turns(moves: &mut Vec<Move>, routes_differ: Option<bool>) {
    if moves.len() >= 2 && !routes_differ.unwrap_or_else(|| all_routes_differ(moves)) {
        drop_repeated_routes(moves);
    }
}

/// [`drop_repeated_turns`] when some turns may repeat: out of line, so that the test
/// every move list takes stays small.
#[inline(never)]
fn drop_repeated_routes(moves: &mut Vec<Move>) {
    // Turns that do the same go the same way: sorting the routes finds the turns that
    // share one, and only those are compared.
    let mut routes: SmallVec<[(u64, u32); 64]> = moves
        .iter()
        .enumerate()
        .map(|(i, m)| (m.route_key(), i as u32))
        .collect();
    routes.sort_unstable();
    let mut repeated = vec![false; moves.len()];
    for group in routes.chunk_by(|a, b| a.0 == b.0).filter(|g| g.len() > 1) {
        // A route many turns share (a square reached with different captures, say) is
        // told apart by a digest of everything the turns do, so that no group costs
        // more than a sort.
        let mut digests: Vec<(u64, u32)> = group
            .iter()
            .map(|&(_, i)| (moves[i as usize].digest(), i))
            .collect();
        digests.sort_unstable();
        for run in digests.chunk_by(|a, b| a.0 == b.0).filter(|r| r.len() > 1) {
            // By index within the run: the first generated of equal turns is kept. Each
            // is compared with the kept ones only (different turns with one digest are
            // rare), so that a run of thousands of equal turns costs no more than a sort.
            let mut kept: SmallVec<[usize; 4]> = SmallVec::new();
            for &(_, later) in run {
                let later = later as usize;
                if kept
                    .iter()
                    .any(|&earlier| moves[earlier].does_the_same_as(&moves[later]))
                {
                    repeated[later] = true;
                } else {
                    kept.push(later);
                }
            }
        }
    }
    let mut index = 0;
    moves.retain(|_| {
        index += 1;
        !repeated[index - 1]
    });
}

/// Whether no two of `moves` can do the same, told cheaply (see [`Routes`]).
fn all_routes_differ(moves: &[Move]) -> bool {
    let mut routes = Routes::starting(false);
    moves.iter().all(|mv| {
        mv.steps
            .first()
            .is_some_and(|first| routes.note(first.from, first.to))
    })
}

/// The routes of a move list as it grows, to tell cheaply (this runs on every move list,
/// so it must cost far less than generating one) that no two of its turns can do the
/// same: turns that do the same start from the same square and go first to the same
/// square, and move generation lists a piece's turns together, so it suffices that
/// within each run of turns from one square no first destination repeats and that no
/// square starts two runs. Squares are tested modulo 256 in bit sets; a clash there
/// (true or not) answers no, and the caller then compares properly.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Routes {
    origins: [u64; 4],
    /// The origin of the current run of turns (`Some(None)`: drops).
    run_origin: Option<Option<Pos>>,
    destinations: [u64; 4],
    clash: bool,
}

impl Routes {
    /// Notes a turn whose first step goes `from` `to`; whether the turns noted so far
    /// may all differ.
    #[inline]
    pub(crate) fn note(&mut self, from: Option<Pos>, to: Pos) -> bool {
        /// Sets the bit of `pos` in `set`, answering whether it was set already.
        #[inline(always)]
        fn seen_before(set: &mut [u64; 4], pos: u32) -> bool {
            let (word, bit) = ((pos >> 6) as usize & 3, 1u64 << (pos & 63));
            let seen = set[word] & bit != 0;
            set[word] |= bit;
            seen
        }
        if self.run_origin != Some(from) {
            self.clash |= seen_before(&mut self.origins, from.map_or(0, |p| p + 1));
            self.run_origin = Some(from);
            self.destinations = [0; 4];
        }
        self.clash |= seen_before(&mut self.destinations, to);
        !self.clash
    }

    /// [`Routes::note`] of the turns of pieces on each of `origins` (bit `p % 64` of
    /// word `p / 64` for square `p`, each square new, in order), the last of them on
    /// `last` going to each of `destinations` (squares below 256); with `last`
    /// [`NO_POS`], a turn noted next is from another square.
    #[inline]
    pub(crate) fn note_origins(&mut self, origins: [u64; 4], last: Pos, destinations: [u64; 4]) {
        // Square `p` is kept as `p + 1` (0 is for drops), modulo 256 as in `note`.
        let kept = [
            origins[0] << 1 | origins[3] >> 63,
            origins[1] << 1 | origins[0] >> 63,
            origins[2] << 1 | origins[1] >> 63,
            origins[3] << 1 | origins[2] >> 63,
        ];
        let mut clash = 0;
        for (seen, kept) in self.origins.iter_mut().zip(kept) {
            clash |= *seen & kept;
            *seen |= kept;
        }
        self.clash |= clash != 0;
        self.run_origin = (last != NO_POS).then_some(Some(last));
        self.destinations = destinations;
    }

    /// No turn noted, no clash.
    pub(crate) const STARTING: Routes = Routes::starting(false);

    /// No route yet; `clash` when there are turns whose routes were not followed.
    /// Field by field, in place: a value built apart and copied in stalls the copy
    /// (see `Steps::of`).
    #[inline]
    pub(crate) const fn starting(clash: bool) -> Routes {
        Routes {
            origins: [0; 4],
            run_origin: None,
            destinations: [0; 4],
            clash,
        }
    }

    /// Whether the turns noted may all differ.
    pub(crate) fn all_differ(&self) -> bool {
        !self.clash
    }
}
