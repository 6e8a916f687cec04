//! Zillions saved games (`.zsg`): a reader with spans and diagnostics, and a writer that
//! reproduces the files Zillions writes (same header, same record syntax).
//!
//! A file is a three-line header (players as `H`/`C` letters, the rules file, the
//! variant title) and one record per line: a board edit `(x pos)` / `(Player Piece pos)`,
//! or a move `N. [partial K] effects` whose effects are movements first
//! (`Piece from - to`, `Piece from x to`), then changes in the order made: creates
//! `Player Piece pos`, captures `x pos`, retypes `= Name [on pos...]`, `flip pos`,
//! attributes `@ pos index 0|1`; or `Pass`.

mod replay;

pub use replay::{replay, replay_records, turn_round_trips, Divergence, Replay};

use crate::diag::Diagnostic;
use crate::source::{FileId, SourceFile, Span};

const MAGIC: &str = "Zillions Save Game File Version 0.02";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedGame {
    /// One letter per player: `H` human, `C` computer.
    pub seats: String,
    pub rules_file: String,
    pub variant: String,
    pub records: Vec<Record>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The whole line.
    pub span: Span,
    pub kind: RecordKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordKind {
    /// `(x pos)`: empty a square (edit mode).
    Clear { pos: String },
    /// `(Player Piece pos)`: put a piece on a square (edit mode).
    Put {
        player: String,
        piece: String,
        pos: String,
    },
    Move {
        /// Passes through the turn order, from 1.
        turn: u32,
        /// `partial K`: a continuation part of a partial move.
        partial: Option<u32>,
        effects: Vec<Effect>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    Pass,
    /// `Piece from - to`, or with `x` when `to` was occupied before the record.
    Movement {
        piece: String,
        from: String,
        onto_occupied: bool,
        to: String,
    },
    Create {
        player: String,
        piece: String,
        pos: String,
    },
    Capture {
        pos: String,
    },
    /// `= Name [on pos ...]`: a type change, or an owner change when Name is a player.
    Retype {
        name: String,
        on: Vec<String>,
    },
    Flip {
        pos: String,
    },
    Attribute {
        pos: String,
        index: u32,
        value: bool,
    },
}

/// A malformed saved game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZsgError {
    pub span: Span,
    pub message: String,
    pub expected: &'static str,
}

impl ZsgError {
    pub fn to_diagnostic(&self) -> Diagnostic {
        Diagnostic::error("E0501", format!("malformed saved game: {}", self.message))
            .primary(self.span, format!("expected {}", self.expected))
            .help("a move record is `N. [partial K] effects`, an edit `(x POS)` or `(PLAYER PIECE POS)`")
    }
}

/// Stands for the malformed records past those reported one by one.
pub fn more_malformed(count: usize) -> Diagnostic {
    Diagnostic::error("E0501", format!("{count} more malformed records"))
}

const KEYWORDS: [&str; 4] = ["x", "=", "flip", "@"];

/// A saved game's three header lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// One letter per player: `H` human, `C` computer.
    pub seats: String,
    pub rules_file: String,
    pub variant: String,
}

/// The lines of a saved game's text: each line's decoded offset and text without its
/// line end, read as asked for (a file of a million records is never split up front).
fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_inclusive('\n').scan(0usize, |offset, raw| {
        let start = *offset;
        *offset += raw.len();
        Some((start, raw.trim_end_matches(['\n', '\r'])))
    })
}

/// Reads a saved game's header; `Err` is what is wrong with it.
pub fn parse_header(file: FileId, source: &SourceFile) -> Result<Header, ZsgError> {
    let text = source.text();
    let mut header = lines(text).take(3);
    let mut next = |expected: &'static str, line: usize| {
        let (start, words) = header.next().unwrap_or((text.len(), ""));
        let error = move || ZsgError {
            span: original_span(file, source, start, start + words.len()),
            message: format!("header line {}", line + 1),
            expected,
        };
        (words, error)
    };
    let (first, error) = next("`Zillions Save Game File Version 0.02` and H/C letters", 0);
    let seats = match first.strip_prefix(MAGIC) {
        Some(rest) if rest.starts_with(' ') && rest[1..].chars().all(|c| c == 'H' || c == 'C') => {
            rest[1..].to_string()
        }
        _ => return Err(error()),
    };
    let (second, error) = next("`RulesFile=` and a file name", 1);
    let rules_file = second.strip_prefix("RulesFile=").ok_or_else(error)?;
    let (third, error) = next("`VariantName=` and a title", 2);
    let variant = third.strip_prefix("VariantName=").ok_or_else(error)?;
    Ok(Header {
        seats,
        rules_file: rules_file.to_string(),
        variant: variant.to_string(),
    })
}

/// The span in the file of decoded offsets `start..end`.
fn original_span(file: FileId, source: &SourceFile, start: usize, end: usize) -> Span {
    let (start, end) = (source.original_offset(start), source.original_offset(end));
    Span::new(file, start as usize, end as usize)
}

/// The records after the header, each read when asked for: a record, or what is wrong
/// with its line. `players`, when known (from the rules file), tells where a list of
/// positions after `on` ends and a create begins; without it, positions run to the
/// next keyword.
pub fn records<'s>(
    file: FileId,
    source: &'s SourceFile,
    players: Option<&'s [String]>,
) -> impl Iterator<Item = Result<Record, ZsgError>> + 's {
    lines(source.text())
        .skip(3)
        .filter(|(_, line)| !line.is_empty())
        .map(move |(start, line)| match parse_record(line, players) {
            Ok(kind) => Ok(Record {
                span: original_span(file, source, start, start + line.len()),
                kind,
            }),
            Err((at, expected)) => {
                let at = start + at.min(line.len());
                Err(ZsgError {
                    span: original_span(file, source, at, (at + 1).min(start + line.len()).max(at)),
                    message: format!("record {:?}", line),
                    expected,
                })
            }
        })
}

/// Reads a whole saved game into memory: the header, then every well-formed record,
/// and every malformed line reported. See [`records`] for `players`.
pub fn parse(
    file: FileId,
    source: &SourceFile,
    players: Option<&[String]>,
) -> (Option<SavedGame>, Vec<ZsgError>) {
    let header = match parse_header(file, source) {
        Ok(header) => header,
        Err(error) => return (None, vec![error]),
    };
    let (records, errors): (Vec<_>, Vec<_>) =
        records(file, source, players).partition(Result::is_ok);
    let game = SavedGame {
        seats: header.seats,
        rules_file: header.rules_file,
        variant: header.variant,
        records: records.into_iter().flatten().collect(),
    };
    (
        Some(game),
        errors.into_iter().filter_map(Result::err).collect(),
    )
}

/// A failure at a byte offset in the line, with what was expected there.
type RecordError = (usize, &'static str);

fn parse_record(line: &str, players: Option<&[String]>) -> Result<RecordKind, RecordError> {
    if let Some(inner) = line.strip_prefix('(') {
        let inner = inner
            .strip_suffix(')')
            .ok_or((line.len(), "`)` closing the edit"))?;
        let words: Vec<&str> = inner.split(' ').collect();
        return match words.as_slice() {
            ["x", pos] => Ok(RecordKind::Clear {
                pos: pos.to_string(),
            }),
            [player, piece, pos] => Ok(RecordKind::Put {
                player: player.to_string(),
                piece: piece.to_string(),
                pos: pos.to_string(),
            }),
            _ => Err((1, "(x POS) or (PLAYER PIECE POS)")),
        };
    }
    // Tokens with their offsets: fields are separated by exactly one space.
    let mut tokens = Vec::new();
    let mut at = 0;
    for token in line.split(' ') {
        tokens.push((at, token));
        at += token.len() + 1;
    }
    let (first_at, first) = tokens[0];
    let turn = first
        .strip_suffix('.')
        .and_then(|n| n.parse().ok())
        .ok_or((
            first_at,
            "a turn number like `12.` or an edit in parentheses",
        ))?;
    let mut i = 1;
    let mut partial = None;
    if tokens.get(i).map(|t| t.1) == Some("partial") {
        let (at, count) = tokens.get(i + 1).copied().unwrap_or((line.len(), ""));
        partial = Some(
            count
                .parse()
                .map_err(|_| (at, "a part number after `partial`"))?,
        );
        i += 2;
    }
    let token = |i: usize| tokens.get(i).map(|t| t.1);
    let offset = |i: usize| tokens.get(i).map_or(line.len(), |t| t.0);
    let mut effects = Vec::new();
    if token(i) == Some("Pass") && tokens.len() == i + 1 {
        effects.push(Effect::Pass);
        return Ok(RecordKind::Move {
            turn,
            partial,
            effects,
        });
    }
    // Movements come first.
    while matches!(token(i + 2), Some("-" | "x"))
        && token(i).is_some_and(|t| !KEYWORDS.contains(&t))
    {
        let to = token(i + 3).ok_or((offset(i + 3), "the destination of the movement"))?;
        effects.push(Effect::Movement {
            piece: tokens[i].1.to_string(),
            from: tokens[i + 1].1.to_string(),
            onto_occupied: tokens[i + 2].1 == "x",
            to: to.to_string(),
        });
        i += 4;
    }
    let is_player = |t: &str| players.is_some_and(|p| p.iter().any(|p| p == t));
    while let Some(word) = token(i) {
        let need = |k: usize, what: &'static str| {
            token(i + k)
                .map(str::to_string)
                .ok_or((offset(i + k), what))
        };
        match word {
            "x" => {
                effects.push(Effect::Capture {
                    pos: need(1, "a position after `x`")?,
                });
                i += 2;
            }
            "flip" => {
                effects.push(Effect::Flip {
                    pos: need(1, "a position after `flip`")?,
                });
                i += 2;
            }
            "@" => {
                let pos = need(1, "a position after `@`")?;
                let index = need(2, "an attribute number")?
                    .parse()
                    .map_err(|_| (offset(i + 2), "an attribute number"))?;
                let value = match token(i + 3) {
                    Some("0") => false,
                    Some("1") => true,
                    _ => return Err((offset(i + 3), "0 or 1")),
                };
                effects.push(Effect::Attribute { pos, index, value });
                i += 4;
            }
            "=" => {
                let name = need(1, "a piece or player name after `=`")?;
                i += 2;
                let mut on = Vec::new();
                if token(i) == Some("on") {
                    i += 1;
                    while let Some(pos) =
                        token(i).filter(|t| !KEYWORDS.contains(t) && !is_player(t))
                    {
                        on.push(pos.to_string());
                        i += 1;
                    }
                    if on.is_empty() {
                        return Err((offset(i), "a position after `on`"));
                    }
                }
                effects.push(Effect::Retype { name, on });
            }
            _ => {
                let piece = need(1, "a piece: PLAYER PIECE POS")?;
                let pos = need(2, "a position: PLAYER PIECE POS")?;
                effects.push(Effect::Create {
                    player: word.to_string(),
                    piece,
                    pos,
                });
                i += 3;
            }
        }
    }
    if effects.is_empty() {
        return Err((line.len(), "the effects of the move"));
    }
    Ok(RecordKind::Move {
        turn,
        partial,
        effects,
    })
}

/// Writes a saved game as Zillions does (CRLF line ends).
pub fn write(game: &SavedGame) -> String {
    let mut out = format!(
        "{MAGIC} {}\r\nRulesFile={}\r\nVariantName={}\r\n",
        game.seats, game.rules_file, game.variant
    );
    for record in &game.records {
        out.push_str(&record_text(&record.kind));
        out.push_str("\r\n");
    }
    out
}

/// One record as written in the file.
pub fn record_text(kind: &RecordKind) -> String {
    match kind {
        RecordKind::Clear { pos } => format!("(x {pos})"),
        RecordKind::Put { player, piece, pos } => format!("({player} {piece} {pos})"),
        RecordKind::Move {
            turn,
            partial,
            effects,
        } => {
            let mut words = vec![format!("{turn}.")];
            if let Some(k) = partial {
                words.push(format!("partial {k}"));
            }
            words.extend(effects.iter().map(effect_text));
            words.join(" ")
        }
    }
}

fn effect_text(effect: &Effect) -> String {
    match effect {
        Effect::Pass => "Pass".to_string(),
        Effect::Movement {
            piece,
            from,
            onto_occupied,
            to,
        } => format!(
            "{piece} {from} {} {to}",
            if *onto_occupied { "x" } else { "-" }
        ),
        Effect::Create { player, piece, pos } => format!("{player} {piece} {pos}"),
        Effect::Capture { pos } => format!("x {pos}"),
        Effect::Retype { name, on } if on.is_empty() => format!("= {name}"),
        Effect::Retype { name, on } => format!("= {name} on {}", on.join(" ")),
        Effect::Flip { pos } => format!("flip {pos}"),
        Effect::Attribute { pos, index, value } => format!("@ {pos} {index} {}", u8::from(*value)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceMap;

    fn read(text: &str, players: Option<&[String]>) -> (Option<SavedGame>, Vec<ZsgError>) {
        let mut sources = SourceMap::new();
        let file = sources.add("t.zsg", text.as_bytes().to_vec());
        parse(file, sources.file(file), players)
    }

    #[test]
    fn records_read_and_write_back() {
        let text = "Zillions Save Game File Version 0.02 HC\r\nRulesFile=Checkers.zrf\r\nVariantName=Checkers\r\n\
                    (x e3)\r\n(White Checker b6)\r\n1. Checker c3 - d4\r\n1. partial 2 Checker a3 - c5 x b4\r\n\
                    2. Checker e3 - g1 x f2 = King on g1 @ g1 0 1 flip h2 White Man a1 x a1\r\n3. Pass\r\n";
        let (game, errors) = read(text, None);
        assert!(errors.is_empty(), "{errors:?}");
        let game = game.unwrap_or_else(|| panic!("header"));
        assert_eq!(game.seats, "HC");
        assert_eq!(game.records.len(), 6);
        assert_eq!(
            game.records[4].kind,
            RecordKind::Move {
                turn: 2,
                partial: None,
                effects: vec![
                    Effect::Movement {
                        piece: "Checker".into(),
                        from: "e3".into(),
                        onto_occupied: false,
                        to: "g1".into()
                    },
                    Effect::Capture { pos: "f2".into() },
                    Effect::Retype {
                        name: "King".into(),
                        on: vec!["g1".into()]
                    },
                    Effect::Attribute {
                        pos: "g1".into(),
                        index: 0,
                        value: true
                    },
                    Effect::Flip { pos: "h2".into() },
                    Effect::Create {
                        player: "White".into(),
                        piece: "Man".into(),
                        pos: "a1".into()
                    },
                    Effect::Capture { pos: "a1".into() },
                ]
            }
        );
        assert_eq!(write(&game), text);
    }

    #[test]
    fn players_end_a_list_of_positions_after_on() {
        let text = "Zillions Save Game File Version 0.02 CC\nRulesFile=a.zrf\nVariantName=v\n\
                    1. = EV on 1F 19J Black Man 3c\n";
        let players = vec!["White".to_string(), "Black".to_string()];
        let (game, _) = read(text, Some(&players));
        let effects = match game.map(|g| g.records[0].kind.clone()) {
            Some(RecordKind::Move { effects, .. }) => effects,
            other => panic!("{other:?}"),
        };
        assert_eq!(effects.len(), 2);
        assert!(matches!(&effects[1], Effect::Create { player, .. } if player == "Black"));
    }

    #[test]
    fn malformed_lines_are_reported_at_their_place() {
        let text = "Zillions Save Game File Version 0.02 CC\nRulesFile=a.zrf\nVariantName=v\n\
                    1. Man a1 - b2\nx. Man a1 - b2\n2. @ a1 0 7\n3. Man a1 -\n";
        let (game, errors) = read(text, None);
        assert_eq!(game.map(|g| g.records.len()), Some(1));
        let found: Vec<(u32, &str)> = errors.iter().map(|e| (e.span.start, e.expected)).collect();
        assert_eq!(
            found,
            [
                (85, "a turn number like `12.` or an edit in parentheses"),
                (110, "0 or 1"),
                (123, "the destination of the movement"),
            ]
        );
        let (game, errors) = read("Zillions Save Game File\n", None);
        assert!(game.is_none());
        assert_eq!(errors[0].span.start, 0);
    }
}
