//! Constant folding of a lowered game's templates: the one program both executors run.
//! The interpreter executes the folded templates and the code generator prints them, so
//! a compiled engine and the interpreter never run different programs.
//!
//! Conditions have no effects, so dropping part of one never changes behaviour: `not`,
//! `and` and `or` of known values fold, `on-board?` of the current square is true; a
//! `verify` that holds is dropped, an `if` or `while` on a known value keeps only the
//! code that runs, and statements after one that always fails are dropped.

use super::{Block, Cond, Game, Stmt};

/// Folds every template of `game` in place.
pub fn fold_game(game: &mut Game) {
    for template in &mut game.templates {
        let (folded, _) = fold_block(std::mem::take(template));
        *template = folded;
    }
}

/// The folded block, and whether every path through it fails (nothing after it runs).
fn fold_block(block: Block) -> (Block, bool) {
    let mut out = Vec::with_capacity(block.len());
    for stmt in block {
        if fold_stmt(stmt, &mut out) {
            return (out, true);
        }
    }
    (out, false)
}

/// Pushes the folded `stmt` onto `out`; true when it always fails.
fn fold_stmt(stmt: Stmt, out: &mut Block) -> bool {
    match stmt {
        Stmt::Verify(c) => match fold(&c) {
            Cond::Const(true) => false,
            c => {
                let fails = c == Cond::Const(false);
                out.push(Stmt::Verify(c));
                fails
            }
        },
        Stmt::If(c, then, other) => match fold(&c) {
            Cond::Const(known) => {
                let (taken, fails) = fold_block(if known { then } else { other });
                out.extend(taken);
                fails
            }
            c => {
                let (then, then_fails) = fold_block(then);
                let (other, other_fails) = fold_block(other);
                out.push(Stmt::If(c, then, other));
                then_fails && other_fails
            }
        },
        Stmt::While(c, body) => match fold(&c) {
            Cond::Const(false) => false,
            c => {
                // A loop whose condition always holds ends only by failing.
                let forever = c == Cond::Const(true);
                out.push(Stmt::While(c, fold_block(body).0));
                forever
            }
        },
        Stmt::SetAttribute(a, value) => {
            out.push(Stmt::SetAttribute(a, fold(&value)));
            false
        }
        Stmt::SetFlag(f, value) => {
            out.push(Stmt::SetFlag(f, fold(&value)));
            false
        }
        Stmt::SetPositionFlag(f, value, at) => {
            out.push(Stmt::SetPositionFlag(f, fold(&value), at));
            false
        }
        other => {
            out.push(other);
            false
        }
    }
}

/// Folds constants in a condition.
pub fn fold(cond: &Cond) -> Cond {
    match cond {
        Cond::OnBoard(None) => Cond::Const(true),
        Cond::Not(inner) => match fold(inner) {
            Cond::Const(b) => Cond::Const(!b),
            Cond::Not(c) => *c,
            c => Cond::Not(Box::new(c)),
        },
        Cond::And(cs) => fold_junction(cs, true),
        Cond::Or(cs) => fold_junction(cs, false),
        c => c.clone(),
    }
}

/// `and` (`unit` true) or `or` (`unit` false): parts equal to `unit` dropped, a part
/// equal to `!unit` decides, nested junctions of the same kind flattened.
fn fold_junction(cs: &[Cond], unit: bool) -> Cond {
    let mut parts = Vec::new();
    for c in cs {
        match fold(c) {
            Cond::Const(b) if b == unit => {}
            Cond::Const(b) => return Cond::Const(b),
            Cond::And(inner) if unit => parts.extend(inner),
            Cond::Or(inner) if !unit => parts.extend(inner),
            c => parts.push(c),
        }
    }
    match parts.len() {
        0 => Cond::Const(unit),
        1 => parts.pop().unwrap_or(Cond::Const(unit)),
        _ if unit => Cond::And(parts),
        _ => Cond::Or(parts),
    }
}
