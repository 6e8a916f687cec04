//! A turn as the runtime lists it: the steps it makes (one, a chain of partial moves, or
//! none for a pass), and the rule that a move list holds each distinct turn once.

use smallvec::SmallVec;

use crate::state::{Change, Step};
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

/// Keeps the first of each set of turns that do the same ([`Move::does_the_same_as`]),
/// in generation order: a template that reaches one square along several paths, or a
/// drop template that jumps to a fixed square from every start, yields one move there.
pub(crate) fn drop_repeated_turns(moves: &mut Vec<Move>) {
    if moves.len() >= 2 && !all_routes_differ(moves) {
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

/// Whether no two of `moves` can do the same, told cheaply (this runs on every move
/// list, so it must cost far less than generating one): turns that do the same start
/// from the same square and go first to the same square, and move generation lists a
/// piece's turns together, so it suffices that within each run of turns from one
/// square no first destination repeats and that no square starts two runs. Squares are
/// tested modulo 128 in bit sets; a clash there (true or not) answers no, and the
/// caller then compares properly.
fn all_routes_differ(moves: &[Move]) -> bool {
    let bit = |pos: u64| 1u128 << (pos % 128);
    let mut origins = 0u128;
    let mut run_origin = None;
    let mut destinations = 0u128;
    for mv in moves {
        let Some(first) = mv.steps.first() else {
            return false;
        };
        if run_origin != Some(first.from) {
            let origin = bit(first.from.map_or(0, |p| u64::from(p) + 1));
            if origins & origin != 0 {
                return false;
            }
            origins |= origin;
            run_origin = Some(first.from);
            destinations = 0;
        }
        let destination = bit(u64::from(first.to));
        if destinations & destination != 0 {
            return false;
        }
        destinations |= destination;
    }
    true
}
