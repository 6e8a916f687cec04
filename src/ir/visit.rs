//! One walk over template bodies for the questions asked of them (does a template test
//! attacks, which constructs does a game use): every statement, and every condition
//! with the conditions inside it, in the order they are written.

use super::{Block, Cond, Stmt};

/// A statement or a condition met by [`walk`].
#[derive(Clone, Copy, Debug)]
pub enum Node<'a> {
    Stmt(&'a Stmt),
    Cond(&'a Cond),
}

/// Shows `visit` every statement of `block` (nested blocks included) and every condition
/// they hold (nested conditions included), each before what it contains.
pub fn walk<'a>(block: &'a Block, visit: &mut impl FnMut(Node<'a>)) {
    for stmt in block {
        visit(Node::Stmt(stmt));
        match stmt {
            Stmt::Verify(c)
            | Stmt::SetAttribute(_, c)
            | Stmt::SetFlag(_, c)
            | Stmt::SetPositionFlag(_, c, _) => walk_cond(c, visit),
            Stmt::If(c, then, other) => {
                walk_cond(c, visit);
                walk(then, visit);
                walk(other, visit);
            }
            Stmt::While(c, body) => {
                walk_cond(c, visit);
                walk(body, visit);
            }
            _ => {}
        }
    }
}

fn walk_cond<'a>(cond: &'a Cond, visit: &mut impl FnMut(Node<'a>)) {
    visit(Node::Cond(cond));
    match cond {
        Cond::Not(c) => walk_cond(c, visit),
        Cond::And(cs) | Cond::Or(cs) => cs.iter().for_each(|c| walk_cond(c, visit)),
        _ => {}
    }
}

/// Whether some condition of `block` satisfies `wanted`.
pub fn any_cond(block: &Block, wanted: impl Fn(&Cond) -> bool) -> bool {
    let mut found = false;
    walk(block, &mut |node| {
        if let Node::Cond(cond) = node {
            found |= wanted(cond);
        }
    });
    found
}

/// Whether some template of a game asks whether a square is attacked or defended (the
/// engine then needs an attack guard, and the reach analysis is worth making).
pub fn asks_attacked(templates: &[Block]) -> bool {
    templates.iter().any(|block| {
        any_cond(block, |c| {
            matches!(c, Cond::Attacked(..) | Cond::Defended(..))
        })
    })
}

/// Whether `block` may change a piece's type: a `change-type`, or an `add` that
/// promotes (what a quiescence search must see besides captures).
pub fn may_change_type(block: &Block) -> bool {
    let mut found = false;
    walk(block, &mut |node| {
        if let Node::Stmt(stmt) = node {
            found |= match stmt {
                Stmt::ChangeType(..) => true,
                Stmt::Add { promote, .. } => !promote.is_empty(),
                _ => false,
            };
        }
    });
    found
}
