//! Moves written as Zillions writes them in saved games: `Pawn e2 - e4`,
//! `Checker a3 x c5 x b4`, `White Man a1`, `= King`, `Pass`.

use crate::state::{capture_is_void, Change, State, Step};
use crate::tables::Tables;
use crate::turn::Move;

/// One turn in saved-game notation, its steps separated by `;` when it has several
/// (a saved game writes each part of a partial move on its own record).
pub fn notation(tables: &Tables, state: &State, mv: &Move) -> String {
    if mv.is_pass() {
        return "Pass".to_string();
    }
    // One step reads the position as it is: no copy of the board (on large boards the
    // copy cost more than the rest of listing the moves).
    if let [step] = mv.steps.as_slice() {
        return step_notation(tables, state, step);
    }
    let mut board = state.clone();
    let mut parts = Vec::new();
    for step in &mv.steps {
        parts.push(step_notation(tables, &board, step));
        board.apply_step(tables, step);
    }
    parts.join("; ")
}

/// One step as a saved-game record writes it (without the turn number and `partial`),
/// `board` being the position before the step.
pub fn step_notation(tables: &Tables, board: &State, step: &Step) -> String {
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
    // Captures that do nothing are left out, so that the record replays to the step.
    let is_movement = |c: &&Change| matches!(c, Change::Move { .. } | Change::Place { .. });
    let movements = step.changes.iter().filter(is_movement);
    let others = step
        .changes
        .iter()
        .enumerate()
        .filter(|&(i, c)| !is_movement(&c) && !capture_is_void(&step.changes, i))
        .map(|(_, c)| c);
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
                item(
                    &mut text,
                    retype(name, pos(p), previous_destination == Some(p)),
                );
            }
            Change::ChangeOwner { pos: p, owner } => {
                let name = &tables.players[owner as usize].name;
                item(
                    &mut text,
                    retype(name, pos(p), previous_destination == Some(p)),
                );
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
    text
}

/// `= Name`, with `on pos` unless the change is to the destination of the movement
/// written just before it.
fn retype(name: &str, pos: &str, just_moved_there: bool) -> String {
    if just_moved_there {
        format!("= {name}")
    } else {
        format!("= {name} on {pos}")
    }
}

/// The saved-game records of one turn played from `state`: one line per step
/// (`12. partial 3 Checker b5 - b3 x b4`), or `N. Pass`.
pub fn turn_records(tables: &Tables, state: &State, mv: &Move) -> Vec<String> {
    let number = tables.turn_number(state.turn);
    if mv.is_pass() {
        return vec![format!("{number}. Pass")];
    }
    let mut board = state.clone();
    let mut records = Vec::new();
    for step in &mv.steps {
        let partial = match step.continue_with {
            // Zillions writes its internal number of the continuation move type; ours is
            // the move type's index from 1 (0: untyped templates). Readers use it only to
            // see which parts belong together.
            Some(move_type) => format!("partial {} ", move_type.map_or(0, |t| t + 1)),
            None => String::new(),
        };
        records.push(format!(
            "{number}. {partial}{}",
            step_notation(tables, &board, step)
        ));
        board.apply_step(tables, step);
    }
    records
}

/// A saved-game file Zillions can open: the header (one `H`uman or `C`omputer letter per
/// player, the rules file name, the game or variant title) and the records, CRLF-ended.
pub fn saved_game(
    tables: &Tables,
    rules_file: &str,
    humans: &[bool],
    records: &[String],
) -> String {
    let seats: String = (0..tables.players.len())
        .map(|p| {
            if humans.get(p) == Some(&true) {
                'H'
            } else {
                'C'
            }
        })
        .collect();
    let mut text = format!(
        "Zillions Save Game File Version 0.02 {seats}\r\nRulesFile={rules_file}\r\nVariantName={}\r\n",
        tables.title
    );
    for record in records {
        text.push_str(record);
        text.push_str("\r\n");
    }
    text
}

/// Whether `c` makes shown text other than it reads: the bidirectional controls a
/// name could use to look like something else, and the line and paragraph separators
/// (U+2028, U+2029) that editors show as line breaks.
pub fn misleads_on_screen(c: char) -> bool {
    matches!(
        c,
        '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}'
    )
}

/// `text` fit for a terminal: control characters other than line breaks and tabs (an
/// escape sequence could move the cursor, recolour or retitle the terminal) and the
/// characters that [mislead on screen](misleads_on_screen) are shown as `\u{..}`
/// escapes. Rules files name their games, pieces and players as they like; this is how
/// those names are printed.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    escaped(text, &['\n', '\t'])
}

/// [`printable`] for whole files, whose lines may end in CR LF: a carriage return is
/// kept too.
pub fn printable_lines(text: &str) -> std::borrow::Cow<'_, str> {
    escaped(text, &['\n', '\t', '\r'])
}

fn escaped<'t>(text: &'t str, kept: &[char]) -> std::borrow::Cow<'t, str> {
    let unsafe_char = |c: char| (c.is_control() && !kept.contains(&c)) || misleads_on_screen(c);
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            shown.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            shown.push(c);
        }
    }
    std::borrow::Cow::Owned(shown)
}
