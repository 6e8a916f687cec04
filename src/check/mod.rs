//! Stage 3: checking one expanded game or variant and lowering it to the IR.
//!
//! | input | output | holds afterwards |
//! |---|---|---|
//! | an [`Expanded`] file and a game index | [`Checked`]: an [`ir::Game`] (unless errors) and diagnostics | every name resolved to an index; every construct known; arities right |
//!
//! Lowering goes section by section: players, the board (positions, directions, links,
//! zones, symmetry), piece names and attributes, then templates, turn order, setup,
//! goals, priorities and options. Every problem is recorded and lowering goes on, so one
//! run reports all the errors of a game. Names are resolved by syntactic role, since
//! Zillions keeps each kind of name in its own namespace.

mod board;
mod error;
mod moves;
mod rules;

use std::collections::HashMap;

use rustc_hash::FxHashMap;

pub use error::{At, CheckError, NameKind};

use crate::diag::{closest, Diagnostic};
use crate::expand::{EKind, ENode, Expanded, SectionRef};
use crate::intern::Sym;
use crate::ir;

/// The outcome of checking one game.
pub struct Checked {
    /// `None` when there were errors.
    pub game: Option<ir::Game>,
    pub errors: Vec<CheckError>,
}

impl Checked {
    pub fn diagnostics(&self, expanded: &Expanded) -> Vec<Diagnostic> {
        self.errors
            .iter()
            .map(|e| e.to_diagnostic(expanded))
            .collect()
    }
}

/// Errors kept per game; more are counted (a mangled file of megabytes can have
/// millions, and each would cost memory and a line of output).
const MAX_ERRORS: usize = 1000;

/// Checks game `index` of `expanded` and lowers it.
pub fn check(expanded: &Expanded, index: usize) -> Checked {
    Checker::new(expanded).check(index)
}

/// Checks the games of one file, lowering the players, board and pieces once for all
/// the variants that inherit them unchanged (in the largest files they are most of the
/// work, and a variant usually changes only its setup, goals or options).
pub struct Checker<'a> {
    x: &'a Expanded,
    /// Per game, the sections its structure is lowered from.
    keys: Vec<Vec<SectionRef>>,
    /// Structures that another game will reuse, with the lowering state after them.
    structures: Vec<(Vec<SectionRef>, Lower<'a>)>,
}

impl<'a> Checker<'a> {
    pub fn new(expanded: &'a Expanded) -> Checker<'a> {
        Checker {
            x: expanded,
            keys: (0..expanded.games.len())
                .map(|i| structure_key(expanded, i))
                .collect(),
            structures: Vec::new(),
        }
    }

    pub fn check(&mut self, index: usize) -> Checked {
        let key = &self.keys[index];
        let mut lower = match self.structures.iter().find(|(k, _)| k == key) {
            Some((_, lowered)) => lowered.clone(),
            None => {
                let mut lower = Lower::new(self.x);
                lower.structure(index);
                // Keep a copy only if a later game has the same structure.
                if self.keys[index + 1..].contains(key) {
                    self.structures.push((key.clone(), lower.clone()));
                }
                lower
            }
        };
        let game = lower.rules(index);
        lower.limits(index, &game);
        if lower.more_errors > 0 {
            let x = self.x;
            lower.errors.push(CheckError::TooManyErrors {
                at: at(&x.forms[x.games[index].form]),
                more: lower.more_errors,
            });
        }
        let failed = lower.errors.iter().any(CheckError::is_error);
        // Folded once here: the interpreter and the code generator see the same program.
        let mut game = game;
        ir::fold::fold_game(&mut game);
        Checked {
            game: if failed { None } else { Some(game) },
            errors: lower.errors,
        }
    }
}

/// The sections that decide names and templates: players, boards, pieces and priorities
/// (which fix the order of move types).
fn structure_key(x: &Expanded, index: usize) -> Vec<SectionRef> {
    let spec = &x.games[index];
    spec.sections
        .iter()
        .copied()
        .filter(|&r| {
            let head = x.section(r).head().map(|h| x.name(h));
            matches!(
                head,
                Some("players" | "board" | "piece" | "move-priorities")
            )
        })
        .collect()
}

/// Names of one namespace, in declaration order. Keyed by text: grids create position
/// names that no token of the file spells.
#[derive(Default, Clone)]
struct Names {
    ids: FxHashMap<String, u32>,
    names: Vec<String>,
    spans: Vec<At>,
}

impl Names {
    fn get(&self, name: &str) -> Option<u32> {
        self.ids.get(name).copied()
    }

    /// Declares a name; returns the existing index and its place if already declared.
    fn declare(&mut self, name: &str, at: At) -> Result<u32, (u32, At)> {
        if let Some(&id) = self.ids.get(name) {
            return Err((id, self.spans[id as usize]));
        }
        Ok(self.insert(name, at))
    }

    /// Declares a name unless it exists; either way returns its index.
    fn intern(&mut self, name: &str, at: At) -> u32 {
        match self.ids.get(name) {
            Some(&id) => id,
            None => self.insert(name, at),
        }
    }

    fn insert(&mut self, name: &str, at: At) -> u32 {
        let id = self.names.len() as u32;
        self.ids.insert(name.to_string(), id);
        self.names.push(name.to_string());
        self.spans.push(at);
        id
    }

    fn len(&self) -> usize {
        self.names.len()
    }

    /// The closest declared name, for "did you mean".
    fn closest(&self, name: &str) -> Option<String> {
        closest(name, self.names.iter().map(String::as_str))
    }
}

/// Game sections with no effect on the rules: parsed, kept out of the IR.
const IGNORED_SECTIONS: &[&str] = &[
    "description",
    "history",
    "strategy",
    "default",
    "solution",
    "music",
    "release-sound",
    "capture-sound",
    "move-sound",
    "drop-sound",
    "click-sound",
    "change-sound",
    "draw-sound",
    "win-sound",
    "loss-sound",
    "opening-sound",
    "notation",
    "translate",
    "version",
];

/// Every section `game` and `variant` accept, for suggestions.
const KNOWN_SECTIONS: &[&str] = &[
    "title",
    "players",
    "turn-order",
    "board",
    "piece",
    "board-setup",
    "option",
    "win-condition",
    "loss-condition",
    "draw-condition",
    "count-condition",
    "move-priorities",
    "engine",
];

/// Every section `game` and `variant` accept with an effect, ZoG 1.x option keywords
/// included.
fn known_sections() -> impl Iterator<Item = &'static str> + Clone {
    let option_keywords = crate::expand::OPTION_KEYWORDS
        .iter()
        .map(|(keyword, _)| *keyword);
    KNOWN_SECTIONS.iter().copied().chain(option_keywords)
}

/// Every keyword the checker knows, for an editor's completion: the sections of a
/// game, a piece and a board, and the statements and tests of move templates.
pub fn keywords() -> Vec<&'static str> {
    let mut words: Vec<&'static str> = known_sections()
        .chain(moves::keywords())
        .chain(
            board::KEYWORDS
                .iter()
                .flat_map(|words| words.iter().copied()),
        )
        .chain(["game", "variant", "define", "include", "version"])
        .collect();
    words.sort_unstable();
    words.dedup();
    words
}

#[derive(Clone)]
struct Lower<'a> {
    x: &'a Expanded,
    errors: Vec<CheckError>,
    /// Errors past [`MAX_ERRORS`], counted only.
    more_errors: usize,
    players: Names,
    positions: Names,
    directions: Names,
    pieces: Names,
    zones: Names,
    attributes: Names,
    flags: Names,
    position_flags: Names,
    move_types: Names,
    board: ir::Board,
    build: board::BoardBuild,
    pieces_ir: Vec<ir::Piece>,
    templates: Vec<ir::Block>,
    template_spans: Vec<crate::source::Span>,
    /// Hash of each template body -> templates with that hash (bodies compared on a hit).
    template_ids: HashMap<u64, Vec<ir::TemplateId>>,
}

impl<'a> Lower<'a> {
    fn new(x: &'a Expanded) -> Lower<'a> {
        Lower {
            x,
            errors: Vec::new(),
            more_errors: 0,
            players: Names::default(),
            positions: Names::default(),
            directions: Names::default(),
            pieces: Names::default(),
            zones: Names::default(),
            attributes: Names::default(),
            flags: Names::default(),
            position_flags: Names::default(),
            move_types: Names::default(),
            board: ir::Board::default(),
            build: board::BoardBuild::default(),
            pieces_ir: Vec::new(),
            templates: Vec::new(),
            template_spans: Vec::new(),
            template_ids: HashMap::new(),
        }
    }

    fn name(&self, sym: Sym) -> &'a str {
        self.x.name(sym)
    }

    fn err(&mut self, error: CheckError) {
        if self.errors.len() < MAX_ERRORS {
            self.errors.push(error);
        } else {
            self.more_errors += 1;
        }
    }

    /// Whether errors are only counted now: callers skip the work of describing them
    /// (suggestions compare a name with every known one).
    fn errors_full(&self) -> bool {
        self.errors.len() >= MAX_ERRORS
    }

    fn malformed(&mut self, node: &ENode, expected: &'static str) {
        self.err(CheckError::Malformed {
            at: at(node),
            expected,
        });
    }

    fn arity(&mut self, node: &ENode, expected: &'static str) {
        let found = node
            .as_list()
            .map_or(0, |items| items.len().saturating_sub(1));
        let form = match node.as_atom() {
            Some(atom) => self.name(atom),
            None => node.head().map(|h| self.name(h)).unwrap_or("(...)"),
        }
        .to_string();
        self.err(CheckError::Arity {
            at: at(node),
            form,
            expected,
            found,
        });
    }

    fn undefined(&mut self, node: &ENode, kind: NameKind, suggestion: Option<String>) {
        let name = self.text(node).to_string();
        let directions = match kind {
            NameKind::Direction | NameKind::DirectionOrPosition => self.directions.names.clone(),
            _ => Vec::new(),
        };
        self.err(CheckError::Undefined {
            at: at(node),
            kind,
            name,
            suggestion,
            directions,
        });
    }

    /// The strings of a section for people (`(description "..." "...")`), joined: line
    /// breaks and indentation inside the strings are spaces, Zillions' `\\` marks a new
    /// line (two a paragraph); `None` when it holds no text.
    fn prose(&self, section: &ENode) -> Option<String> {
        let text: String = args(section).iter().map(|part| self.text(part)).collect();
        let mut lines: Vec<String> = Vec::new();
        for segment in text.split('\\') {
            let line = segment.split_whitespace().collect::<Vec<_>>().join(" ");
            // At most one empty line in a row.
            if !line.is_empty() || lines.last().is_some_and(|l| !l.is_empty()) {
                lines.push(line);
            }
        }
        let text = lines.join("\n").trim().to_string();
        (!text.is_empty()).then_some(text)
    }

    /// The text of an atom or string node ("" for a list).
    fn text(&self, node: &ENode) -> &'a str {
        match node.kind {
            EKind::Atom(sym) | EKind::Str(sym) => self.name(sym),
            EKind::List(_) => "",
        }
    }

    /// An atom's symbol, or a "name expected" error.
    fn atom(&mut self, node: &ENode) -> Option<Sym> {
        let sym = node.as_atom();
        if sym.is_none() {
            self.malformed(node, "a name");
        }
        sym
    }

    /// A number, without a diagnostic when it is not one (drawing coordinates: a
    /// position without them is only not drawn).
    fn number_quietly(&self, node: &ENode) -> Option<i64> {
        node.as_atom()
            .and_then(|s| self.name(s).parse::<i64>().ok())
    }

    fn number(&mut self, node: &ENode) -> Option<i64> {
        let value = self.number_quietly(node);
        if value.is_none() {
            self.malformed(node, "a number");
        }
        value
    }

    fn lookup(&mut self, node: &ENode, kind: NameKind) -> Option<u32> {
        let sym = self.atom(node)?;
        let names = match kind {
            NameKind::Player => &self.players,
            NameKind::Position => &self.positions,
            NameKind::Direction => &self.directions,
            NameKind::Piece => &self.pieces,
            NameKind::Zone => &self.zones,
            NameKind::Attribute => &self.attributes,
            NameKind::MoveType => &self.move_types,
            NameKind::DirectionOrPosition | NameKind::Game => return None,
        };
        if let Some(id) = names.get(self.name(sym)) {
            return Some(id);
        }
        let suggestion = names.closest(self.name(sym));
        self.undefined(node, kind, suggestion);
        None
    }

    fn sections(&self, index: usize) -> Vec<&'a ENode> {
        let x = self.x;
        x.games[index]
            .sections
            .iter()
            .map(|&s| x.section(s))
            .collect()
    }

    /// Players, board and pieces: everything that declares names or holds templates.
    fn structure(&mut self, index: usize) {
        let x = self.x;
        let form = &x.forms[x.games[index].form];
        let sections = self.sections(index);
        let of = |head: &str| with_head(x, &sections, head);
        match of("players").first() {
            Some(players) => self.players_section(players),
            None => self.err(CheckError::MissingSection {
                at: at(form),
                section: "players",
            }),
        }
        let boards = of("board");
        if boards.is_empty() {
            self.err(CheckError::MissingSection {
                at: at(form),
                section: "board",
            });
        }
        for board in &boards {
            self.board_section(board);
        }
        self.finish_board();

        let piece_sections = of("piece");
        self.declare_pieces(&piece_sections);
        self.declare_move_types(&sections);
        self.pieces_ir = piece_sections
            .iter()
            .map(|p| self.piece_section(p))
            .collect();
    }

    /// Everything after [`Lower::structure`]: turn order, setup, goals, priorities,
    /// options; then the finished game.
    fn rules(&mut self, index: usize) -> ir::Game {
        let x = self.x;
        let spec = &x.games[index];
        let sections = self.sections(index);
        let title = spec
            .title
            .map(|t| x.name(t).to_string())
            .unwrap_or_default();
        let of = |head: &str| with_head(x, &sections, head);
        for section in &sections {
            let head = section.head().map(|h| self.name(h));
            let known = head
                .is_some_and(|h| known_sections().any(|k| k == h) || IGNORED_SECTIONS.contains(&h));
            if !known && self.errors_full() {
                self.more_errors += 1;
            } else if !known {
                let found = head.unwrap_or("(...)").to_string();
                let suggestion = head.and_then(|h| closest(h, known_sections()));
                self.err(CheckError::UnknownKeyword {
                    at: at(section),
                    context: "game section",
                    found,
                    suggestion,
                });
            }
        }
        let pieces = std::mem::take(&mut self.pieces_ir);

        let turn_order = self.turn_order(of("turn-order").first().copied());
        let setup = of("board-setup")
            .iter()
            .flat_map(|s| self.setup_section(s))
            .collect();
        let goals = sections
            .iter()
            .filter_map(|s| self.goal_section(s))
            .collect();
        let move_priorities = of("move-priorities")
            .iter()
            .flat_map(|s| self.move_priorities(s))
            .collect();
        let options = self.options(&sections);
        let engine = of("engine").first().and_then(|e| self.engine(e));
        let about = ["description", "history", "strategy"]
            .into_iter()
            .filter_map(|head| Some((head, self.prose(of(head).last()?)?)))
            .collect();

        ir::Game {
            title,
            players: self
                .players
                .names
                .iter()
                .map(|name| ir::Player {
                    name: name.clone(),
                    random: name.starts_with('?'),
                })
                .collect(),
            turn_order,
            board: std::mem::take(&mut self.board),
            pieces,
            attributes: std::mem::take(&mut self.attributes.names),
            flags: std::mem::take(&mut self.flags.names),
            position_flags: std::mem::take(&mut self.position_flags.names),
            move_types: std::mem::take(&mut self.move_types.names),
            templates: std::mem::take(&mut self.templates),
            template_spans: std::mem::take(&mut self.template_spans),
            setup,
            goals,
            move_priorities,
            options,
            engine,
            about,
        }
    }
}

impl Lower<'_> {
    /// The sizes the runtime can number and hold ([`zrf_runtime::limits`]); the grid
    /// checks positions as it builds them.
    fn limits(&mut self, index: usize, game: &ir::Game) {
        use zrf_runtime::limits::*;
        let x = self.x;
        let at = at(&x.forms[x.games[index].form]);
        let board = &game.board;
        let counts = [
            ("players", game.players.len(), MAX_PLAYERS),
            ("piece types", game.pieces.len(), MAX_NAMES_U16),
            ("directions", board.directions.len(), MAX_NAMES_U16),
            ("zones", board.zones.len(), MAX_NAMES_U16),
            ("move types", game.move_types.len(), MAX_NAMES_U16),
            ("attributes", game.attributes.len(), MAX_ATTRIBUTES),
            ("positions", board.positions.len(), MAX_POSITIONS),
            (
                "position hash keys (positions x players x piece types)",
                board
                    .positions
                    .len()
                    .saturating_mul(game.players.len())
                    .saturating_mul(game.pieces.len()),
                MAX_HASH_KEYS,
            ),
            (
                "board links (positions x directions)",
                board.positions.len().saturating_mul(board.directions.len()),
                MAX_LINKS,
            ),
        ];
        for (what, count, limit) in counts {
            if count > limit {
                self.err(CheckError::TooMany {
                    at,
                    what,
                    count: count.to_string(),
                    limit,
                });
            }
        }
    }
}

/// The sections whose head is `head`, in order.
fn with_head<'a>(x: &Expanded, sections: &[&'a ENode], head: &str) -> Vec<&'a ENode> {
    sections
        .iter()
        .copied()
        .filter(|s| s.head().map(|h| x.name(h)) == Some(head))
        .collect()
}

fn at(node: &ENode) -> At {
    At {
        span: node.span,
        expn: node.expn,
    }
}

/// The items after the head of a list (empty for atoms).
fn args(node: &ENode) -> &[ENode] {
    node.as_list()
        .map_or(&[], |items| items.get(1..).unwrap_or_default())
}
