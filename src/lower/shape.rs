//! Which move templates have a shape whose turns the runtime counts in bulk
//! ([`Shape`]): a leap or step with tests on the squares passed (perhaps promoting in a
//! zone, where its code runs), a slide, a slide that captures by hopping over a piece,
//! and a look along a line that adds only on the first piece in the way (perhaps
//! testing its type), each perhaps after zone tests of the square it starts on; a jump
//! (steps and tests with one `capture` of a square passed, then the piece moved on as
//! a partial move); and of any other template, the steps and tests it opens with (a
//! `capture` among them skipped), or the zone tests of its square alone. Each is
//! recognised from the template's statements exactly as written, whatever move type
//! it is listed under (the runtime keeps the types apart); anything else (marks,
//! flags, other captures and partial moves, `opposite` directions) is left to the
//! code.

use zrf_runtime::{Kind, LeapStep, MoveType, Shape, Test};

use crate::ir::{AddKind, Cond, Dir, Stmt};

/// The shape of a move template, if it has one.
pub fn shape_of(template: &[Stmt]) -> Option<Shape> {
    // Tests of the square the piece stands on, before its first step.
    let first_step = template
        .iter()
        .position(|stmt| !matches!(stmt, Stmt::Verify(cond) if test(cond).is_some()))
        .unwrap_or(template.len());
    let (origin, template) = template.split_at(first_step);
    let origin = tests(origin)?;
    leap_or_slide(template, &origin)
        .or_else(|| jump(template, &origin))
        .or_else(|| guarded(template, origin))
}

/// A [`Shape::Jump`]: steps and tests with one `capture`, after a step, of the square
/// reached, then `(add-partial TYPE)`, perhaps as `(if (in-zone? ZONE) … else
/// (add-partial TYPE))`.
fn jump(template: &[Stmt], origin: &[Test]) -> Option<Shape> {
    let (last, body) = template.split_last()?;
    let (continue_with, coded_in) = match last {
        Stmt::If(Cond::InZone(zone, None), _, otherwise) => match &otherwise[..] {
            [add] => (partial_add(add)?, Some(zone.narrow::<u16>())),
            _ => return None,
        },
        add => (partial_add(add)?, None),
    };
    let mut captures =
        (body.iter().enumerate()).filter(|(_, stmt)| matches!(stmt, Stmt::Capture(None)));
    let (at, _) = captures.next()?;
    if captures.next().is_some() {
        return None;
    }
    let steps_before = body[..at]
        .iter()
        .filter(|stmt| matches!(stmt, Stmt::Step(_)))
        .count();
    let captured = u8::try_from(steps_before.checked_sub(1)?).ok()?;
    let opening: Vec<Stmt> = (body.iter().enumerate())
        .filter(|&(number, _)| number != at)
        .map(|(_, stmt)| stmt.clone())
        .collect();
    let Some(Shape::Leap { steps, .. }) = leap(&[], &opening, None) else {
        return None;
    };
    Some(Shape::Jump {
        origin: origin.to_vec(),
        steps,
        captured,
        continue_with,
        coded_in,
    })
}

/// The move type of `(add-partial TYPE)` of the moving piece, no promotion (`None`:
/// untyped).
fn partial_add(stmt: &Stmt) -> Option<Option<MoveType>> {
    match stmt {
        Stmt::Add {
            kind: AddKind::AddPartial,
            promote,
            continue_with,
        } if promote.is_empty() => Some(continue_with.map(|t| t.narrow::<MoveType>())),
        _ => None,
    }
}

/// A [`Shape::Leap`], [`Shape::Slide`] or [`Shape::Hop`].
fn leap_or_slide(template: &[Stmt], origin: &[Test]) -> Option<Shape> {
    if let [first, looped, then @ ..] = template {
        if let Some(dir) = slid(first, looped) {
            let origin = origin.to_vec();
            return match then {
                [] => Some(Shape::Slide {
                    origin,
                    dir,
                    then: None,
                }),
                [again, passed, verified @ .., last]
                    if stepped(again) == Some(dir)
                        && hopped(passed) == Some(dir)
                        && is_plain_add(last) =>
                {
                    Some(Shape::Hop {
                        origin,
                        dir,
                        tests: tests(verified)?,
                    })
                }
                [verified @ .., last] if is_plain_add(last) => Some(Shape::Slide {
                    origin,
                    dir,
                    then: Some(tests(verified)?),
                }),
                _ => None,
            };
        }
    }
    if let [first, looped, verified @ .., last] = template {
        if let (Some(dir), true) = (stepped(first), is_plain_add(last)) {
            if hopped(looped) == Some(dir) {
                return strike(origin, dir, verified);
            }
        }
    }
    match template {
        [steps @ .., last] if is_plain_add(last) => leap(origin, steps, None),
        [steps @ .., Stmt::If(Cond::InZone(zone, None), _, otherwise)] if matches!(&otherwise[..], [add] if is_plain_add(add)) => {
            leap(origin, steps, Some(zone.narrow::<u16>()))
        }
        _ => None,
    }
}

/// A [`Shape::Strike`] along `dir` whose last square passes `verified`: tests, one of
/// them perhaps `(piece? TYPE)`.
fn strike(origin: &[Test], dir: u16, verified: &[Stmt]) -> Option<Shape> {
    let mut piece = None;
    let mut tests = Vec::new();
    for stmt in verified {
        match stmt {
            Stmt::Verify(Cond::Piece(kind, None)) if piece.is_none() => {
                piece = Some(kind.narrow::<Kind>());
            }
            Stmt::Verify(cond) => tests.push(test(cond)?),
            _ => return None,
        }
    }
    Some(Shape::Strike {
        origin: origin.to_vec(),
        dir,
        tests,
        piece,
    })
}

/// The steps and tests a template of any other form starts with, where it starts with
/// a step or tests the square it starts on. A `capture` of the current square among
/// them changes nothing they test: the tests read the position before the move.
fn guarded(template: &[Stmt], origin: Vec<Test>) -> Option<Shape> {
    let opening = template
        .iter()
        .position(|stmt| match stmt {
            Stmt::Step(Dir::Named(_)) | Stmt::Capture(None) => false,
            Stmt::Verify(cond) => test(cond).is_none(),
            _ => true,
        })
        .unwrap_or(template.len());
    let opening: Vec<Stmt> = (template[..opening].iter())
        .filter(|stmt| !matches!(stmt, Stmt::Capture(None)))
        .cloned()
        .collect();
    match leap(&[], &opening, None) {
        Some(Shape::Leap { steps, .. }) => Some(Shape::Guarded { origin, steps }),
        None if opening.is_empty() && !origin.is_empty() => Some(Shape::Guarded {
            origin,
            steps: Vec::new(),
        }),
        _ => None,
    }
}

/// The direction of `d (while empty? add d)`.
fn slid(first: &Stmt, looped: &Stmt) -> Option<u16> {
    let (dir, Stmt::While(Cond::Empty(None), repeat)) = (stepped(first)?, looped) else {
        return None;
    };
    match &repeat[..] {
        [add, again] if is_plain_add(add) && stepped(again) == Some(dir) => Some(dir),
        _ => None,
    }
}

/// The direction of `(while empty? d)`.
fn hopped(looped: &Stmt) -> Option<u16> {
    match looped {
        Stmt::While(Cond::Empty(None), repeat) => match &repeat[..] {
            [step] => stepped(step),
            _ => None,
        },
        _ => None,
    }
}

/// The direction of a step `d`.
fn stepped(stmt: &Stmt) -> Option<u16> {
    match stmt {
        Stmt::Step(Dir::Named(dir)) => Some(dir.narrow::<u16>()),
        _ => None,
    }
}

/// The tests of `(verify t)…`.
fn tests(stmts: &[Stmt]) -> Option<Vec<Test>> {
    (stmts.iter())
        .map(|stmt| match stmt {
            Stmt::Verify(cond) => test(cond),
            _ => None,
        })
        .collect()
}

/// `d1 (verify t…) d2 (verify t…) …` before the last `add`, which runs the template's
/// code in zone `coded_in`, after the `origin` tests.
fn leap(origin: &[Test], body: &[Stmt], coded_in: Option<u16>) -> Option<Shape> {
    let mut steps: Vec<LeapStep> = Vec::new();
    for stmt in body {
        match stmt {
            Stmt::Step(Dir::Named(dir)) => steps.push(LeapStep {
                dir: dir.narrow::<u16>(),
                tests: Vec::new(),
            }),
            Stmt::Verify(cond) => steps.last_mut()?.tests.push(test(cond)?),
            _ => return None,
        }
    }
    (!steps.is_empty()).then(|| Shape::Leap {
        origin: origin.to_vec(),
        steps,
        coded_in,
    })
}

/// `add` of the moving piece, no promotion, the turn complete.
fn is_plain_add(stmt: &Stmt) -> bool {
    matches!(
        stmt,
        Stmt::Add {
            kind: AddKind::Add,
            promote,
            continue_with: None,
        } if promote.is_empty()
    )
}

/// A test of the current square that [`Test`] names.
fn test(cond: &Cond) -> Option<Test> {
    match cond {
        Cond::Empty(None) => Some(Test::Empty),
        Cond::Enemy(None) => Some(Test::Enemy),
        Cond::Not(inner) => match **inner {
            Cond::Friend(None) => Some(Test::NotFriend),
            Cond::InZone(zone, None) => Some(Test::NotInZone(zone.narrow::<u16>())),
            _ => None,
        },
        Cond::InZone(zone, None) => Some(Test::InZone(zone.narrow::<u16>())),
        _ => None,
    }
}
