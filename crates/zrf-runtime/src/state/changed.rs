//! What the steps of a turn change, read off their change lists: the squares they
//! name, and the commonest turn (one piece moving, perhaps capturing) told apart without
//! a pass over the changes. Making a turn, hashing the position after it and the
//! legality tests all read them.

use smallvec::{smallvec, SmallVec};

use super::{Change, State, Step};
use crate::piece::Piece;
use crate::Pos;

/// The squares `steps` change, each once.
pub(crate) fn changed_squares(steps: &[Step]) -> SmallVec<[Pos; 4]> {
    changed_squares_with(steps, |pos| pos, |&pos| pos)
}

/// The squares `steps` change, each once, as `item` gives each (`pos_of` of an item
/// is its square), in the order the steps first name them.
#[inline]
pub(crate) fn changed_squares_with<X>(
    steps: &[Step],
    item: impl Fn(Pos) -> X,
    pos_of: impl Fn(&X) -> Pos,
) -> SmallVec<[X; 4]> {
    let every_change = || {
        let mut changed = SmallVec::new();
        for_each_changed_square(steps, |pos| {
            if changed.iter().all(|seen| pos_of(seen) != pos) {
                changed.push(item(pos));
            }
        });
        changed
    };
    // The commonest turns name each square once: nothing to look for twice. The
    // invariant: the squares, in the order the pass over every change finds them.
    let fast: SmallVec<[X; 4]> = match one_piece_moving(steps) {
        Some((from, to, None)) => smallvec![item(from), item(to)],
        Some((from, to, Some(captured))) => smallvec![item(from), item(to), item(captured)],
        None => return every_change(),
    };
    debug_assert!(
        fast.iter()
            .map(&pos_of)
            .eq(every_change().iter().map(&pos_of)),
        "the squares of a one-piece move differ from those of its changes"
    );
    fast
}

/// The squares of `steps` when they are one step that moves one piece to another square
/// and perhaps captures another on a third (`from`, `to`, the capture): the commonest
/// turns, which hot paths read without a pass over the changes.
#[inline]
pub(crate) fn one_piece_moving(steps: &[Step]) -> Option<(Pos, Pos, Option<Pos>)> {
    let [step] = steps else {
        return None;
    };
    match step.changes[..] {
        [Change::Move { from, to }] if from != to => Some((from, to, None)),
        [Change::Move { from, to }, Change::Capture { pos }]
            if from != to && pos != from && pos != to =>
        {
            Some((from, to, Some(pos)))
        }
        _ => None,
    }
}

/// What stands on each square of `before` after the step `moving` (as
/// [`one_piece_moving`] gives it): the moved piece on its last square, nothing where it
/// was or where it captured.
pub(crate) fn after_one_piece_moving(
    before: &State,
    (from, to, captured): (Pos, Pos, Option<Pos>),
) -> impl Fn(Pos) -> Option<Piece> + '_ {
    let moved = before.at(from);
    move |pos: Pos| match pos {
        _ if pos == to => moved,
        _ if pos == from || Some(pos) == captured => None,
        _ => before.at(pos),
    }
}

/// Calls `visit` with each square a change of `steps` names (some more than once).
pub(crate) fn for_each_changed_square(steps: &[Step], mut visit: impl FnMut(Pos)) {
    for change in steps.iter().flat_map(|s| &s.changes) {
        match *change {
            Change::Move { from, to } => {
                visit(from);
                visit(to);
            }
            Change::Place { pos, .. }
            | Change::Capture { pos }
            | Change::Create { pos, .. }
            | Change::ChangeType { pos, .. }
            | Change::ChangeOwner { pos, .. }
            | Change::Flip { pos }
            | Change::SetAttribute { pos, .. } => visit(pos),
            Change::TakeStock { .. } => {}
        }
    }
}
