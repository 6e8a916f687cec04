//! Moves written as Zillions writes them in saved games: `Pawn e2 - e4`,
//! `Checker a3 x c5 x b4`, `White Man a1`, `= King`, `Pass`.

use std::fmt::Write as _;

use crate::engine::Move;
use crate::state::{Change, State};
use crate::tables::Tables;

/// One turn in saved-game notation, its steps separated by `;` when it has several
/// (a saved game writes each part of a partial move on its own record).
pub fn notation(tables: &Tables, state: &State, mv: &Move) -> String {
    if mv.is_pass() {
        return "Pass".to_string();
    }
    let mut board = state.clone();
    let mut parts = Vec::new();
    for step in &mv.steps {
        let mut text = String::new();
        let mut previous_destination = None;
        let pos = |p: u32| tables.positions[p as usize].as_str();
        let item = |text: &mut String, s: String| {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(&s);
        };
        // Movements first, then the other changes in the order they were made.
        let movements = step
            .changes
            .iter()
            .filter(|c| matches!(c, Change::Move { .. } | Change::Place { .. }));
        let others = step
            .changes
            .iter()
            .filter(|c| !matches!(c, Change::Move { .. } | Change::Place { .. }));
        for change in movements.chain(others) {
            match *change {
                Change::Move { from, to } => {
                    let kind = board
                        .at(from)
                        .map_or("?", |p| tables.pieces[p.kind as usize].name.as_str());
                    let sign = if board.at(to).is_some() && to != from {
                        "x"
                    } else {
                        "-"
                    };
                    item(
                        &mut text,
                        format!("{kind} {} {sign} {}", pos(from), pos(to)),
                    );
                    previous_destination = Some(to);
                    continue;
                }
                Change::Place { pos: p, piece } | Change::Create { pos: p, piece } => item(
                    &mut text,
                    format!(
                        "{} {} {}",
                        tables.players[piece.owner as usize].name,
                        tables.pieces[piece.kind as usize].name,
                        pos(p)
                    ),
                ),
                Change::Capture { pos: p } => item(&mut text, format!("x {}", pos(p))),
                Change::ChangeType { pos: p, kind } => {
                    let name = &tables.pieces[kind as usize].name;
                    if previous_destination == Some(p) {
                        item(&mut text, format!("= {name}"));
                    } else {
                        item(&mut text, format!("= {name} on {}", pos(p)));
                    }
                }
                Change::ChangeOwner { pos: p, owner } => {
                    let name = &tables.players[owner as usize].name;
                    if previous_destination == Some(p) {
                        item(&mut text, format!("= {name}"));
                    } else {
                        item(&mut text, format!("= {name} on {}", pos(p)));
                    }
                }
                Change::Flip { pos: p } => item(&mut text, format!("flip {}", pos(p))),
                Change::SetAttribute {
                    pos: p,
                    attribute,
                    value,
                } => item(
                    &mut text,
                    format!("@ {} {attribute} {}", pos(p), u8::from(value)),
                ),
                Change::TakeStock { .. } => {}
            }
            previous_destination = None;
        }
        board.apply_step(tables, step);
        parts.push(text);
    }
    let mut out = String::new();
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            let _ = write!(out, "; ");
        }
        out.push_str(part);
    }
    out
}
