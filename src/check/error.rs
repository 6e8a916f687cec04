//! Errors and warnings of the checker; [`CheckError::to_diagnostic`] holds their wording.

use crate::diag::Diagnostic;
use crate::expand::{Expanded, ExpnId};
use crate::source::Span;

/// Where something was found: its span and the macro call that produced it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct At {
    pub span: Span,
    pub expn: Option<ExpnId>,
}

/// The kinds of names a rules file declares, each its own namespace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    Player,
    Position,
    Direction,
    Piece,
    Zone,
    Attribute,
    MoveType,
    DirectionOrPosition,
    Game,
}

impl NameKind {
    fn how_to_declare(self, name: &str) -> Option<String> {
        Some(match self {
            NameKind::Player => {
                format!("list it in the game's (players ...): (players ... {name})")
            }
            NameKind::Piece => format!("declare it: (piece (name {name}) ...)"),
            NameKind::Zone => format!(
                "declare it in the board: (zone (name {name}) (players ...) (positions ...))"
            ),
            NameKind::Attribute => format!("declare it in the piece: (attribute {name} false)"),
            NameKind::Direction => format!(
                "declare it in a grid's (directions ({name} ...)) or with (links {name} ...)"
            ),
            NameKind::Position
            | NameKind::DirectionOrPosition
            | NameKind::MoveType
            | NameKind::Game => return None,
        })
    }

    fn noun(self) -> &'static str {
        match self {
            NameKind::Player => "player",
            NameKind::Position => "position",
            NameKind::Direction => "direction",
            NameKind::Piece => "piece",
            NameKind::Zone => "zone",
            NameKind::Attribute => "attribute",
            NameKind::MoveType => "move type",
            NameKind::DirectionOrPosition => "direction or position",
            NameKind::Game => "game",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckError {
    /// A form or atom that is not known where it stands.
    UnknownKeyword {
        at: At,
        context: &'static str,
        found: String,
        suggestion: Option<String>,
    },
    /// A word in a move template that is no statement, direction, position or macro.
    UnknownStep {
        at: At,
        found: String,
        suggestion: Option<String>,
        /// The board's directions, listed when none is close to the word.
        directions: Vec<String>,
    },
    /// A form with the wrong number of arguments.
    Arity {
        at: At,
        form: String,
        expected: &'static str,
        found: usize,
    },
    /// A name that is not declared.
    Undefined {
        at: At,
        kind: NameKind,
        name: String,
        suggestion: Option<String>,
        /// Where a direction was wanted and none is close: the board's directions.
        directions: Vec<String>,
    },
    /// A name declared twice.
    Duplicate {
        at: At,
        kind: NameKind,
        name: String,
        previous: Span,
    },
    /// An argument of the wrong shape (a list where a name belongs, a word for a number).
    Malformed { at: At, expected: &'static str },
    /// A section every game needs.
    MissingSection { at: At, section: &'static str },
    /// Errors past the number kept for one game.
    TooManyErrors { at: At, more: usize },
    /// More of something than the runtime can number or hold.
    TooMany {
        at: At,
        /// What there is too much of, plural (`positions`).
        what: &'static str,
        /// How many the rules ask for, in words (it may not fit a number).
        count: String,
        limit: usize,
    },
    /// A Dagaz-only option: its rules live in JavaScript and are not reproduced.
    DagazOption { at: At, name: String },
    /// An option nobody knows.
    UnknownOption { at: At, name: String },
    /// `(engine "...")`: the moves come from an Axiom plug-in.
    AxiomEngine { at: At, dll: String },
    /// A Dagaz extension of the language, read as plain ZRF.
    DagazExtension {
        at: At,
        what: &'static str,
        read_as: &'static str,
    },
}

impl CheckError {
    pub fn at(&self) -> At {
        match self {
            CheckError::UnknownKeyword { at, .. }
            | CheckError::UnknownStep { at, .. }
            | CheckError::Arity { at, .. }
            | CheckError::Undefined { at, .. }
            | CheckError::Duplicate { at, .. }
            | CheckError::Malformed { at, .. }
            | CheckError::MissingSection { at, .. }
            | CheckError::TooMany { at, .. }
            | CheckError::TooManyErrors { at, .. }
            | CheckError::DagazOption { at, .. }
            | CheckError::UnknownOption { at, .. }
            | CheckError::AxiomEngine { at, .. }
            | CheckError::DagazExtension { at, .. } => *at,
        }
    }

    pub fn is_error(&self) -> bool {
        !matches!(
            self,
            CheckError::DagazOption { .. }
                | CheckError::UnknownOption { .. }
                | CheckError::AxiomEngine { .. }
                | CheckError::DagazExtension { .. }
        )
    }

    pub fn to_diagnostic(&self, expanded: &Expanded) -> Diagnostic {
        let at = self.at();
        let did_you_mean = |s: &Option<String>| s.as_ref().map(|s| format!("did you mean `{s}`?"));
        let d = match self {
            CheckError::UnknownKeyword {
                context,
                found,
                suggestion,
                ..
            } => {
                let d = unknown(context, found, at.span);
                match did_you_mean(suggestion) {
                    Some(help) => d.help(help),
                    None => d,
                }
            }
            CheckError::UnknownStep {
                found,
                suggestion,
                directions,
                ..
            } => {
                let d = unknown("statement, direction or position", found, at.span);
                match did_you_mean(suggestion) {
                    Some(help) => d.help(help),
                    None if directions.is_empty() => d,
                    None => d.help(directions_are(directions)),
                }
            }
            CheckError::Arity {
                form,
                expected,
                found,
                ..
            } => Diagnostic::error("E0402", format!("wrong number of arguments to `{form}`"))
                .primary(at.span, format!("expected {expected}, found {found}")),
            CheckError::Undefined {
                kind,
                name,
                suggestion,
                directions,
                ..
            } => {
                let noun = kind.noun();
                let mut d = Diagnostic::error("E0403", format!("undefined {noun} `{name}`"))
                    .primary(at.span, format!("no {noun} of this name is declared"));
                if suggestion.is_none() && !directions.is_empty() {
                    d = d.note(directions_are(directions));
                }
                match did_you_mean(suggestion).or_else(|| kind.how_to_declare(name)) {
                    Some(help) => d.help(help),
                    None => d,
                }
            }
            CheckError::Duplicate {
                kind, name, previous, ..
            } => {
                let noun = kind.noun();
                Diagnostic::error("E0404", format!("{noun} `{name}` is declared twice"))
                    .primary(at.span, "declared again here")
                    .secondary(*previous, "first declared here")
            }
            CheckError::Malformed { expected, .. } => {
                Diagnostic::error("E0405", format!("expected {expected}")).primary(at.span, format!("expected {expected}"))
            }
            CheckError::MissingSection { section, .. } => {
                Diagnostic::error("E0406", format!("game without `{section}`"))
                    .primary(at.span, format!("this game has no `({section} ...)`"))
            }
            CheckError::TooManyErrors { more, .. } => {
                Diagnostic::error("E0408", format!("{more} more errors in this game"))
                    .primary(at.span, "not shown: only the first 1000 errors of a game are kept")
            }
            CheckError::TooMany { what, count, limit, .. } => {
                Diagnostic::error("E0407", format!("the game has too many {what}"))
                    .primary(at.span, format!("{count} {what}; at most {limit} are supported"))
                    .note("zrf's runtime numbers and stores them in fixed-size tables; the limits are in zrf_runtime::limits")
            }
            CheckError::DagazOption { name, .. } => Diagnostic::warning("W0401", format!("Dagaz-only option \"{name}\""))
                .primary(at.span, "Zillions ignores this option")
                .note("its rules are implemented in Dagaz's JavaScript, not in the ZRF text; zrf plays the game without them"),
            CheckError::UnknownOption { name, .. } => Diagnostic::warning("W0402", format!("unknown option \"{name}\""))
                .primary(at.span, "this option has no effect on the rules"),
            CheckError::AxiomEngine { dll, .. } => Diagnostic::warning("W0403", "moves come from an Axiom engine")
                .primary(at.span, format!("`{dll}` replaces the move generator"))
                .note("Axiom engines are ForthScript plug-ins; their moves are not in the ZRF text and are not reproduced"),
            CheckError::DagazExtension { what, read_as, .. } => {
                Diagnostic::warning("W0404", format!("Dagaz extension: {what}"))
                    .primary(at.span, format!("read as {read_as}"))
                    .note("Zillions does not support this; the game may play differently from Dagaz")
            }
        };
        match at.expn {
            Some(expn) => expanded.with_trail(d, expn),
            None => d,
        }
    }
}

/// The head of E0401: `found` is no word of `context` here.
fn unknown(context: &str, found: &str, at: Span) -> Diagnostic {
    Diagnostic::error("E0401", format!("unknown {context} `{found}`"))
        .primary(at, format!("not a {context}"))
}

/// "the board's directions are `n`, `e`, ...".
fn directions_are(directions: &[String]) -> String {
    let listed: Vec<String> = directions.iter().map(|d| format!("`{d}`")).collect();
    format!("the board's directions are {}", listed.join(", "))
}
