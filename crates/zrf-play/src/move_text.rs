//! One reader for the moves people type, shared by every command that takes a move
//! (`play`, `show --after`, `moves --after`, `perft --after`, the web page's move box and
//! the UCI front end's fallback).
//!
//! It accepts, tried in this order, the first that names at least one legal move
//! winning:
//! - the saved-game notation (`Pawn e2 - e4`), with or without attribute suffixes
//!   (`King e1 - e2 @ e2 0 0`), in any case;
//! - UCI names on boards of `a1`-style squares (`e2e4`, `e7e8q`, `P@e4`, castling
//!   `e1g1` or `e1h1`);
//! - short algebraic notation for games whose pieces have letters (`Nf3`, `exd5`,
//!   `Raxd1+`, `e8=Q`, `O-O`, `O-O-O`);
//! - squares: `e2 e4`, `e2-e4`, `e2e4`, or a destination alone.
//!
//! A text that fits none of the forms is not recognised; one that fits a form but names
//! no legal move is not legal here; one that names several lists them.

use zrf_runtime::{Change, Engine, Game, Move, Pos, State, Tables, Templates};

use crate::names::{castling, piece_letters, split_square, Castling, Namer};

/// What a typed move names among the legal moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reading {
    /// The index of the one legal move it names.
    Move(usize),
    /// The indices of the legal moves it could mean.
    Ambiguous(Vec<usize>),
    /// A move written in a known form that no legal move fits.
    NotLegal,
    /// Text in none of the forms.
    NotRecognised,
}

impl Reading {
    /// The sentence that explains a reading other than one move, about `text`.
    pub fn complaint(&self, text: &str) -> String {
        match self {
            Reading::Move(_) => String::new(),
            Reading::Ambiguous(_) => format!("{text:?} could be any of these moves"),
            Reading::NotLegal => format!("{text:?} is not legal here"),
            Reading::NotRecognised => format!(
                "{text:?} is not recognised as a move (write one as the saved-game notation \
                 `Pawn e2 - e4`, as squares `e2e4` or `e2 e4`, or as `Nf3`)"
            ),
        }
    }
}

/// Reads `text` as one of `moves`, the legal moves of `state`.
pub fn read_move<T: Templates>(
    engine: &Engine<T>,
    state: &State,
    moves: &[Move],
    text: &str,
) -> Reading {
    let text = text.trim();
    if text.is_empty() {
        return Reading::NotRecognised;
    }
    let tables = &engine.tables;
    let mut recognised = false;
    let mut decide = |indices: Option<Vec<usize>>| -> Option<Reading> {
        let indices = indices?;
        recognised = true;
        match indices[..] {
            [] => None,
            [one] => Some(Reading::Move(one)),
            _ => Some(Reading::Ambiguous(indices)),
        }
    };
    if let Some(reading) = decide(by_notation(engine, state, moves, text)) {
        return reading;
    }
    if let Some(reading) = decide(by_uci_name(engine, state, moves, text)) {
        return reading;
    }
    let san = ShortAlgebraic::parse(tables, text);
    if let Some(reading) = decide(san.map(|san| san.matching(engine, state, moves))) {
        return reading;
    }
    if let Some(reading) = decide(by_squares(engine, state, moves, text)) {
        return reading;
    }
    if recognised {
        Reading::NotLegal
    } else {
        Reading::NotRecognised
    }
}

/// The saved-game notation's words, lower case, without attribute changes
/// (`@ pos attribute value`).
fn notation_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut skip = 0;
    for word in text.split_whitespace() {
        if skip > 0 {
            skip -= 1;
        } else if word == "@" {
            skip = 3;
        } else {
            words.push(word.to_lowercase());
        }
    }
    words
}

/// The moves whose saved-game notation is `text`; `None` when `text` does not start
/// like that notation (a piece or player name, or `Pass`).
fn by_notation<T: Templates>(
    engine: &Engine<T>,
    state: &State,
    moves: &[Move],
    text: &str,
) -> Option<Vec<usize>> {
    let tables = &engine.tables;
    let notations: Vec<String> = moves.iter().map(|m| engine.notation(state, m)).collect();
    let exact: Vec<usize> = (0..moves.len()).filter(|&i| notations[i] == text).collect();
    if !exact.is_empty() {
        return Some(exact);
    }
    let wanted = notation_words(text);
    let first = wanted.first()?;
    let names = tables.pieces.iter().map(|p| &p.name);
    let starts_like_notation = first == "pass"
        || names
            .chain(tables.players.iter().map(|p| &p.name))
            .any(|name| name.eq_ignore_ascii_case(first));
    if !starts_like_notation {
        return None;
    }
    Some(
        (0..moves.len())
            .filter(|&i| notation_words(&notations[i]) == wanted)
            .collect(),
    )
}

/// The moves a UCI name (any case) names, on boards whose squares are all `a1`-style;
/// `None` when the board is not or no move is named so.
fn by_uci_name<T: Templates>(
    engine: &Engine<T>,
    state: &State,
    moves: &[Move],
    text: &str,
) -> Option<Vec<usize>> {
    let namer = Namer::new(&engine.tables, Castling::Standard);
    if !namer.names_squares() {
        return None;
    }
    namer
        .find(engine, state, moves, text)
        .ok()
        .map(|index| vec![index])
}

/// A move in short algebraic notation, as read.
struct ShortAlgebraic {
    castling: Option<CastlingSide>,
    /// The moving piece's letter, lower case (`p` when none was written).
    letter: char,
    /// What was written of where the piece starts: a file, a rank or a square.
    from_file: Option<String>,
    from_rank: Option<String>,
    to: Pos,
    capture: bool,
    promotion: Option<char>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum CastlingSide {
    /// `O-O`: the royal piece moves towards later files.
    Later,
    /// `O-O-O`: towards earlier files.
    Earlier,
}

impl ShortAlgebraic {
    /// `None` unless the game's pieces have letters, its squares are `a1`-style and
    /// `text` has the shape of short algebraic notation.
    fn parse(tables: &Tables, text: &str) -> Option<ShortAlgebraic> {
        let letters = piece_letters(tables);
        let squares = !tables.positions.is_empty()
            && tables.positions.iter().all(|p| split_square(p).is_some());
        if !squares || letters.is_empty() {
            return None;
        }
        let text = text.trim_end_matches(['+', '#', '!', '?']);
        let castle = |side| ShortAlgebraic {
            castling: Some(side),
            letter: 'k',
            from_file: None,
            from_rank: None,
            to: 0,
            capture: false,
            promotion: None,
        };
        match text.replace('0', "O").to_ascii_uppercase().as_str() {
            "O-O" => return Some(castle(CastlingSide::Later)),
            "O-O-O" => return Some(castle(CastlingSide::Earlier)),
            _ => {}
        }
        // The promotion: `e8=Q`, `e8Q` or `e8(Q)`.
        let (body, promotion) = match text.split_once('=') {
            Some((body, piece)) => (body, Some(single_letter(piece.trim_matches(['(', ')']))?)),
            None => {
                let trimmed = text.trim_end_matches(')');
                match trimmed.chars().last() {
                    Some(c) if c.is_ascii_uppercase() && trimmed.len() > 2 => (
                        trimmed[..trimmed.len() - 1].trim_end_matches('('),
                        Some(c.to_ascii_lowercase()),
                    ),
                    _ => (text, None),
                }
            }
        };
        // The destination: the trailing square.
        let rank_start = body.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let file_start = body[..rank_start]
            .trim_end_matches(|c: char| c.is_ascii_lowercase())
            .len();
        // Of several lower-case letters before the rank, the last one or more name the
        // file: take the shortest that is a square (`exd5`: `d5`, not `xd5`).
        let to_name = (file_start..rank_start)
            .rev()
            .map(|start| &body[start..])
            .find(|name| tables.positions.iter().any(|p| p == name))?;
        let to = tables.positions.iter().position(|p| p == to_name)? as Pos;
        let mut rest = &body[..body.len() - to_name.len()];
        let mut capture = false;
        if let Some(before) = rest.strip_suffix(['x', ':']) {
            capture = true;
            rest = before;
        } else if let Some(before) = rest.strip_suffix('-') {
            rest = before;
        }
        let letter = match rest.chars().next() {
            Some(c) if c.is_ascii_uppercase() => {
                rest = &rest[1..];
                c.to_ascii_lowercase()
            }
            _ => 'p',
        };
        if !letters.contains(&letter) {
            return None;
        }
        let (from_file, from_rank) = if rest.is_empty() {
            (None, None)
        } else if rest.chars().all(|c| c.is_ascii_digit()) {
            (None, Some(rest.to_string()))
        } else if rest.chars().all(|c| c.is_ascii_lowercase()) {
            (Some(rest.to_string()), None)
        } else {
            let (file, rank) = split_square(rest)?;
            (Some(file.to_string()), Some(rank.to_string()))
        };
        Some(ShortAlgebraic {
            castling: None,
            letter,
            from_file,
            from_rank,
            to,
            capture,
            promotion,
        })
    }

    fn matching<T: Templates>(
        &self,
        engine: &Engine<T>,
        state: &State,
        moves: &[Move],
    ) -> Vec<usize> {
        let tables = &engine.tables;
        let letters = piece_letters(tables);
        let mover = engine.turn(state).player;
        let file_of = |pos: Pos| split_square(&tables.positions[pos as usize]).map(|s| s.0);
        (0..moves.len())
            .filter(|&i| {
                let mv = &moves[i];
                if let Some(side) = self.castling {
                    let Some(castle) = castling(tables, state, mover, mv) else {
                        return false;
                    };
                    let (from, to) = (file_of(castle.royal_from), file_of(castle.royal_to));
                    let later = (from.map(str::len), from) < (to.map(str::len), to);
                    return (side == CastlingSide::Later) == later;
                }
                // Castling is written only as `O-O`, not by the rook's move.
                if castling(tables, state, mover, mv).is_some() {
                    return false;
                }
                let traits = engine.move_traits(state, mv);
                let Some(from) = traits.from else {
                    return false;
                };
                let kind = state.at(from).map(|p| p.kind as usize);
                let Some((file, rank)) = split_square(&tables.positions[from as usize]) else {
                    return false;
                };
                let promotion = mv
                    .steps
                    .iter()
                    .flat_map(|s| &s.changes)
                    .find_map(|c| match *c {
                        Change::ChangeType { kind, .. } => letters.get(kind as usize).copied(),
                        _ => None,
                    });
                traits.to == Some(self.to)
                    && kind.and_then(|k| letters.get(k)) == Some(&self.letter)
                    && self.from_file.as_deref().is_none_or(|f| f == file)
                    && self.from_rank.as_deref().is_none_or(|r| r == rank)
                    // Taking by moving onto a piece is no capture change of its own.
                    && (!self.capture || traits.captures > 0 || state.at(self.to).is_some())
                    && (self.promotion.is_none() || self.promotion == promotion)
            })
            .collect()
    }
}

/// The letter of `text` when it is one letter, lower case.
fn single_letter(text: &str) -> Option<char> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Some(c.to_ascii_lowercase()),
        _ => None,
    }
}

/// The moves named by squares: `from to` (`e2 e4`, `e2-e4`, `e2e4`), or one square
/// where a drop (or a single move) arrives; `None` when `text` names no squares.
fn by_squares<T: Templates>(
    engine: &Engine<T>,
    state: &State,
    moves: &[Move],
    text: &str,
) -> Option<Vec<usize>> {
    let positions = &engine.tables.positions;
    let square = |name: &str| positions.iter().position(|p| p == name).map(|p| p as Pos);
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == '-')
        .filter(|w| !w.is_empty())
        .collect();
    let (from, to) = match words.as_slice() {
        [from, to] => (Some(square(from)?), square(to)?),
        [one] => match square(one) {
            Some(to) => (None, to),
            // Both squares written together: the first split that names two positions.
            None => (1..one.len())
                .filter(|&i| one.is_char_boundary(i))
                .find_map(|i| Some((Some(square(&one[..i])?), square(&one[i..])?)))?,
        },
        _ => return None,
    };
    let arriving = |from_wanted: Option<Pos>| -> Vec<usize> {
        (0..moves.len())
            .filter(|&i| {
                let traits = engine.move_traits(state, &moves[i]);
                traits.to == Some(to) && (from_wanted.is_none() || traits.from == from_wanted)
            })
            .collect()
    };
    if from.is_some() {
        return Some(arriving(from));
    }
    // One square: the drops there, else every move arriving there.
    let all = arriving(None);
    let drops: Vec<usize> = all
        .iter()
        .copied()
        .filter(|&i| engine.move_traits(state, &moves[i]).from.is_none())
        .collect();
    Some(if drops.is_empty() { all } else { drops })
}
