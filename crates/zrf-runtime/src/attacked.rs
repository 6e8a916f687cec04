//! `attacked?` and `defended?`: templates asking about the position they run in.

use std::cell::Cell;

use crate::gen::Gen;
use crate::piece::Piece;
use crate::run::{Loc, Run};
use crate::tables::{Turn, NO_POS};
use crate::templates::Templates;
use crate::{MoveType, PlayerIx};

/// `attacked?` and `defended?`, for the templates of one game. A query inside another
/// answers false instead of recursing forever (two kings each asking whether the other
/// attacks), so the guard keeps the nesting depth.
#[derive(Debug, Default)]
pub struct AttackGuard {
    depth: Cell<u8>,
}

/// Whose moves an attack test tries: the enemy's (`attacked?`) or the mover's own
/// (`defended?`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attackers {
    /// Every other player who takes turns.
    Enemy,
    /// The mover.
    Friends,
}

impl AttackGuard {
    /// Could some move of the `attackers`, of the given move type, capture a piece
    /// standing on `at`?
    pub fn attacked<T: Templates + ?Sized>(
        &self,
        templates: &T,
        run: &Run<'_, T::Noting>,
        move_type: Option<MoveType>,
        at: Loc,
        attackers: Attackers,
    ) -> bool {
        let target = run.resolve(at);
        if target == NO_POS || self.depth.get() > 0 {
            return false;
        }
        run.note_everything();
        let tables = run.tables;
        let mover = run.turn.move_as;
        // "Could capture a piece standing on the square": on an empty square, stand one
        // of the mover's pieces there (on a copy of the position: templates read no
        // history), so that moves that only capture (pawns) count.
        let stood_in;
        let board = match run.state.at(target) {
            Some(_) => run.state,
            None => {
                let mut copy = run.state.position_clone();
                let stand_in = Piece {
                    kind: 0,
                    owner: mover,
                    attributes: 0,
                };
                copy.put(target, Some(stand_in));
                stood_in = copy;
                &stood_in
            }
        };
        self.depth.set(1);
        let gen = Gen { tables, templates };
        let found = (0..tables.players.len() as PlayerIx)
            .filter(|&p| match attackers {
                Attackers::Friends => p == mover,
                Attackers::Enemy => p != mover && tables.is_active(p),
            })
            .any(|side| {
                let turn = Turn {
                    player: side,
                    move_as: side,
                    move_type,
                };
                gen.captures_any_of(board, turn, &[target], &[])
            });
        self.depth.set(0);
        found
    }
}
