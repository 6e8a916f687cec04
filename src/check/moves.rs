//! Pieces, and the move language of their `moves` and `drops` templates.

use std::hash::BuildHasher;

use super::{args, at, closest, CheckError, Lower, NameKind};
use crate::expand::{EKind, ENode};
use crate::ir::{
    self, AddKind, AttributeId, Block, Cond, Dir, DirectionId, FlagId, GoTarget, Loc, MoveTypeId,
    PieceId, PlayerId, PositionFlagId, PositionId, Stmt, TemplateId, TemplateUse, ZoneId,
};

/// Statement keywords written as bare atoms.
const BARE_STATEMENTS: &[&str] = &[
    "add",
    "add-copy",
    "add-partial",
    "add-copy-partial",
    "capture",
    "mark",
    "back",
    "from",
    "to",
    "cascade",
    "change-owner",
    "flip",
];

/// Statement forms written as lists.
const STATEMENT_FORMS: &[&str] = &[
    "verify",
    "if",
    "while",
    "opposite",
    "go",
    "capture",
    "create",
    "change-type",
    "change-owner",
    "flip",
    "set-attribute",
    "set-flag",
    "set-position-flag",
    "add",
    "add-partial",
    "add-copy",
    "add-copy-partial",
];

/// Predicates that take an optional position or direction.
const LOCATED_PREDICATES: &[&str] = &[
    "empty?",
    "friend?",
    "enemy?",
    "neutral?",
    "last-from?",
    "last-to?",
    "marked?",
    "adjacent-to-enemy?",
    "goal-position?",
];

/// Every predicate name, for suggestions.
const PREDICATES: &[&str] = &[
    "empty?",
    "friend?",
    "enemy?",
    "neutral?",
    "piece?",
    "in-zone?",
    "on-board?",
    "flag?",
    "position-flag?",
    "last-from?",
    "last-to?",
    "position?",
    "attacked?",
    "defended?",
    "marked?",
    "adjacent-to-enemy?",
    "goal-position?",
    "and",
    "or",
    "not",
    "true",
    "false",
];

/// The statements, tests and piece sections of this module, for [`super::keywords`].
pub(super) fn keywords() -> impl Iterator<Item = &'static str> {
    BARE_STATEMENTS
        .iter()
        .chain(STATEMENT_FORMS)
        .chain(PREDICATES)
        .chain(PIECE_SECTIONS)
        .copied()
}

const PIECE_SECTIONS: &[&str] = &[
    "name",
    "image",
    "moves",
    "drops",
    "help",
    "description",
    "attribute",
    "dummy",
    "notation",
];

impl Lower<'_> {
    /// Declares every piece name and attribute before any template is read, so templates
    /// may refer to pieces declared later in the file.
    pub(super) fn declare_pieces(&mut self, pieces: &[&ENode]) {
        for piece in pieces {
            match self.piece_name(piece) {
                Some(name) => {
                    let text = self.text(name);
                    if let Err((_, previous)) = self.pieces.declare(text, at(name)) {
                        self.err(CheckError::Duplicate {
                            at: at(name),
                            kind: NameKind::Piece,
                            name: text.to_string(),
                            previous: previous.span,
                        });
                    }
                }
                None => self.malformed(piece, "(name PIECE) in the piece"),
            }
            for item in args(piece) {
                if item.head().map(|h| self.name(h)) == Some("attribute") {
                    if let Some(name) = args(item).first().filter(|n| n.as_atom().is_some()) {
                        self.attributes.intern(self.text(name), at(name));
                    }
                }
            }
        }
    }

    fn piece_name<'n>(&self, piece: &'n ENode) -> Option<&'n ENode> {
        args(piece)
            .iter()
            .find_map(|item| {
                let pair = item.as_list()?;
                (self.name(pair.first()?.as_atom()?) == "name").then(|| pair.get(1))?
            })
            .filter(|n| n.as_atom().is_some())
    }

    /// Move types are names used in `move-type` markers, turn orders, priorities and
    /// partial adds; collecting them first lets `(add-partial X)` tell a move type from a
    /// piece.
    pub(super) fn declare_move_types(&mut self, sections: &[&ENode]) {
        let x = self.x;
        let head_is =
            |node: &ENode, names: &[&str]| node.head().is_some_and(|h| names.contains(&x.name(h)));
        for section in sections {
            match section.head().map(|h| self.name(h)) {
                Some("piece") => {
                    for list in args(section)
                        .iter()
                        .filter(|i| head_is(i, &["moves", "drops"]))
                    {
                        for marker in args(list).iter().filter(|m| head_is(m, &["move-type"])) {
                            if let Some(name) =
                                args(marker).first().filter(|n| n.as_atom().is_some())
                            {
                                self.move_types.intern(self.text(name), at(name));
                            }
                        }
                    }
                }
                Some("move-priorities") => {
                    for name in args(section).iter().filter(|n| n.as_atom().is_some()) {
                        self.move_types.intern(self.text(name), at(name));
                    }
                }
                _ => {}
            }
        }
    }

    pub(super) fn piece_section(&mut self, piece: &ENode) -> ir::Piece {
        let name = self
            .piece_name(piece)
            .map(|n| self.text(n).to_string())
            .unwrap_or_default();
        let mut result = ir::Piece {
            name,
            attributes: Vec::new(),
            moves: Vec::new(),
            drops: Vec::new(),
            dummy: false,
            about: Vec::new(),
            notation: None,
        };
        for item in args(piece) {
            match item.head().map(|h| self.name(h)) {
                Some(head @ ("help" | "description")) => {
                    let head = if head == "help" {
                        "help"
                    } else {
                        "description"
                    };
                    if let Some(text) = self.prose(item) {
                        result.about.push((head, text));
                    }
                }
                Some("notation") => {
                    result.notation = args(item)
                        .first()
                        .map(|n| self.text(n).trim().to_string())
                        .filter(|n| !n.is_empty());
                }
                Some("name" | "image") => {}
                Some("dummy") => result.dummy = true,
                Some("attribute") => {
                    if let Some(attribute) = self.attribute_declaration(item) {
                        result.attributes.push(attribute);
                    }
                }
                Some("moves") => result.moves = self.template_list(item),
                Some("drops") => result.drops = self.template_list(item),
                Some("glyph") => self.err(CheckError::DagazExtension {
                    at: at(item),
                    what: "piece glyphs",
                    read_as: "a comment",
                }),
                other => {
                    let found = other.unwrap_or("(...)").to_string();
                    let suggestion = other.and_then(|h| closest(h, PIECE_SECTIONS.iter().copied()));
                    self.err(CheckError::UnknownKeyword {
                        at: at(item),
                        context: "piece section",
                        found,
                        suggestion,
                    });
                }
            }
        }
        result
    }

    fn attribute_declaration(&mut self, item: &ENode) -> Option<(AttributeId, bool)> {
        let [name, value] = args(item) else {
            self.arity(item, "a name and a default value");
            return None;
        };
        let id = self.attributes.get(self.text(name))?;
        let value = match (value.as_atom().map(|v| self.name(v)), &value.kind) {
            (Some("true"), _) => true,
            (Some("false"), _) => false,
            _ => {
                self.err(CheckError::DagazExtension {
                    at: at(value),
                    what: "attributes with values other than true and false",
                    read_as: "false",
                });
                false
            }
        };
        Some((AttributeId(id), value))
    }

    fn template_list(&mut self, list: &ENode) -> Vec<TemplateUse> {
        let mut current_type = None;
        let mut uses = Vec::new();
        for item in args(list) {
            if item.head().map(|h| self.name(h)) == Some("move-type") {
                current_type = match args(item) {
                    [name] => self.lookup(name, NameKind::MoveType).map(MoveTypeId),
                    _ => {
                        self.arity(item, "one move type");
                        None
                    }
                };
                continue;
            }
            let Some(statements) = item.as_list() else {
                self.malformed(item, "a move template (a list of statements)");
                continue;
            };
            let block = self.block(statements);
            let template = self.intern_template(block, item);
            uses.push(TemplateUse {
                move_type: current_type,
                template,
            });
        }
        uses
    }

    /// Identical bodies (common after macro expansion) are stored once.
    fn intern_template(&mut self, block: Block, node: &ENode) -> TemplateId {
        let hash = rustc_hash::FxBuildHasher.hash_one(&block);
        let candidates = self.template_ids.entry(hash).or_default();
        if let Some(&id) = candidates
            .iter()
            .find(|id| self.templates[id.index()] == block)
        {
            return id;
        }
        let id = TemplateId(self.templates.len() as u32);
        candidates.push(id);
        self.templates.push(block);
        self.template_spans.push(node.span);
        id
    }

    fn block(&mut self, statements: &[ENode]) -> Block {
        let mut block = Vec::with_capacity(statements.len());
        for statement in statements {
            if let Some(stmt) = self.statement(statement) {
                block.push(stmt);
            }
        }
        block
    }

    fn statement(&mut self, node: &ENode) -> Option<Stmt> {
        let Some(items) = node.as_list() else {
            return self.bare_statement(node);
        };
        let Some(head) = items.first().and_then(ENode::as_atom) else {
            self.malformed(node, "a statement");
            return None;
        };
        let rest = &items[1..];
        let stmt = match self.name(head) {
            "verify" => match rest {
                [cond] => Stmt::Verify(self.cond(cond)?),
                _ => return self.bad_arity(node, "one condition"),
            },
            "if" => {
                let (cond, body) = rest.split_first().or_else(|| {
                    self.arity(node, "a condition and statements");
                    None
                })?;
                let cond = self.cond(cond)?;
                let split = body
                    .iter()
                    .position(|s| s.as_atom().map(|a| self.name(a)) == Some("else"));
                let (then, other) = match split {
                    Some(i) => (&body[..i], &body[i + 1..]),
                    None => (body, &[][..]),
                };
                Stmt::If(cond, self.block(then), self.block(other))
            }
            "while" => {
                let (cond, body) = rest.split_first().or_else(|| {
                    self.arity(node, "a condition and statements");
                    None
                })?;
                Stmt::While(self.cond(cond)?, self.block(body))
            }
            "opposite" => Stmt::Step(self.opposite(node)?),
            "go" => match rest {
                [target] => Stmt::Go(match target.as_atom().map(|t| self.name(t)) {
                    Some("from") => GoTarget::From,
                    Some("to") => GoTarget::To,
                    Some("mark") => GoTarget::Mark,
                    Some("last-from") => GoTarget::LastFrom,
                    Some("last-to") => GoTarget::LastTo,
                    _ => {
                        self.malformed(target, "from, to, mark, last-from or last-to");
                        return None;
                    }
                }),
                _ => return self.bad_arity(node, "one target"),
            },
            "capture" => Stmt::Capture(self.optional_loc(node, rest)?),
            "change-owner" => Stmt::ChangeOwner(self.optional_loc(node, rest)?),
            "flip" => Stmt::Flip(self.optional_loc(node, rest)?),
            "change-type" => match rest {
                [piece, loc @ ..] => {
                    let piece = self.lookup(piece, NameKind::Piece).map(PieceId);
                    let loc = self.optional_loc(node, loc)?;
                    Stmt::ChangeType(piece?, loc)
                }
                [] => return self.bad_arity(node, "a piece and an optional position or direction"),
            },
            "create" => self.create(node, rest)?,
            "mark" if !rest.is_empty() => Stmt::Mark(self.optional_loc(node, rest)?),
            "set-attribute" => match rest {
                [attribute, value] => {
                    let attribute = self.lookup(attribute, NameKind::Attribute).map(AttributeId);
                    let value = self.cond(value);
                    Stmt::SetAttribute(attribute?, value?)
                }
                _ => return self.bad_arity(node, "an attribute and a value"),
            },
            "set-flag" => match rest {
                [flag, value] => {
                    let flag = self.flag(flag);
                    let value = self.cond(value);
                    Stmt::SetFlag(flag?, value?)
                }
                _ => return self.bad_arity(node, "a flag and a value"),
            },
            "set-position-flag" => match rest {
                [flag, value, loc @ ..] => {
                    let flag = self.position_flag(flag);
                    let value = self.cond(value);
                    let loc = self.optional_loc(node, loc)?;
                    Stmt::SetPositionFlag(flag?, value?, loc)
                }
                _ => {
                    return self.bad_arity(
                        node,
                        "a flag, a value and an optional position or direction",
                    )
                }
            },
            name @ ("add" | "add-copy" | "add-partial" | "add-copy-partial") => {
                self.add(node, name, rest)?
            }
            "mark" | "back" | "from" | "to" | "cascade" if rest.is_empty() => {
                self.bare_statement(&items[0])?
            }
            other => {
                let candidates = STATEMENT_FORMS
                    .iter()
                    .copied()
                    .chain(self.x.macro_names.iter().map(String::as_str));
                let suggestion = closest(other, candidates);
                self.err(CheckError::UnknownKeyword {
                    at: at(node),
                    context: "statement",
                    found: other.to_string(),
                    suggestion,
                });
                return None;
            }
        };
        Some(stmt)
    }

    pub(super) fn bad_arity<T>(&mut self, node: &ENode, expected: &'static str) -> Option<T> {
        self.arity(node, expected);
        None
    }

    fn bare_statement(&mut self, node: &ENode) -> Option<Stmt> {
        let Some(sym) = node.as_atom() else {
            self.malformed(node, "a statement");
            return None;
        };
        let name = self.name(sym);
        let add = |kind| Stmt::Add {
            kind,
            promote: Vec::new(),
            continue_with: None,
        };
        Some(match name {
            "add" => add(AddKind::Add),
            "add-copy" => add(AddKind::AddCopy),
            "capture" => Stmt::Capture(None),
            "mark" => Stmt::Mark(None),
            "create" => Stmt::Create {
                owner: None,
                piece: None,
                at: None,
            },
            "back" => Stmt::Back,
            "from" => Stmt::From,
            "to" => Stmt::To,
            "cascade" => Stmt::Cascade,
            "change-owner" => Stmt::ChangeOwner(None),
            "flip" => Stmt::Flip(None),
            _ => {
                if let Some(d) = self.directions.get(name) {
                    return Some(Stmt::Step(Dir::Named(DirectionId(d))));
                }
                if let Some(p) = self.positions.get(name) {
                    return Some(Stmt::Jump(PositionId(p)));
                }
                let candidates = BARE_STATEMENTS
                    .iter()
                    .copied()
                    .chain(self.directions.names.iter().map(String::as_str))
                    .chain(self.positions.names.iter().map(String::as_str))
                    .chain(self.x.macro_names.iter().map(String::as_str));
                let suggestion = closest(name, candidates);
                self.err(CheckError::UnknownStep {
                    at: at(node),
                    found: name.to_string(),
                    suggestion,
                    directions: self.directions.names.clone(),
                });
                return None;
            }
        })
    }

    fn add(&mut self, node: &ENode, name: &str, rest: &[ENode]) -> Option<Stmt> {
        let partial = matches!(name, "add-partial" | "add-copy-partial");
        let kind = match name {
            "add" => AddKind::Add,
            "add-copy" => AddKind::AddCopy,
            "add-partial" => AddKind::AddPartial,
            _ => AddKind::AddCopyPartial,
        };
        let mut pieces = rest;
        let mut continue_with = None;
        if partial {
            // The last argument is the move type to continue with, unless it names a
            // piece and no move type (Chu Shogi's `(add-partial Lion_part-move)`).
            if let Some((last, before)) = rest.split_last() {
                let text = self.text(last);
                let is_type =
                    self.move_types.get(text).is_some() || self.pieces.get(text).is_none();
                if is_type {
                    let at = at(last);
                    continue_with = Some(MoveTypeId(self.move_types.intern(text, at)));
                    pieces = before;
                }
            } else {
                self.arity(node, "a move type to continue with");
                return None;
            }
        }
        let promote: Option<Vec<PieceId>> = pieces
            .iter()
            .map(|p| self.lookup(p, NameKind::Piece).map(PieceId))
            .collect();
        Some(Stmt::Add {
            kind,
            promote: promote?,
            continue_with,
        })
    }

    fn create(&mut self, node: &ENode, rest: &[ENode]) -> Option<Stmt> {
        if rest.len() > 3 {
            return self.bad_arity(node, "an optional player, piece and position or direction");
        }
        let mut owner = None;
        let mut piece = None;
        let mut at_loc = None;
        let mut index = 0;
        if let Some(first) = rest.first() {
            if let Some(p) = first
                .as_atom()
                .and_then(|_| self.players.get(self.text(first)))
            {
                owner = Some(PlayerId(p));
                index = 1;
            }
        }
        if let Some(next) = rest.get(index) {
            if let Some(p) = next
                .as_atom()
                .and_then(|_| self.pieces.get(self.text(next)))
            {
                piece = Some(PieceId(p));
                index += 1;
            }
        }
        match &rest[index.min(rest.len())..] {
            [] => {}
            [loc] => at_loc = Some(self.loc(loc)?),
            [first, ..] => {
                let suggestion = self.pieces.closest(self.text(first));
                self.undefined(first, NameKind::Piece, suggestion);
                return None;
            }
        }
        Some(Stmt::Create {
            owner,
            piece,
            at: at_loc,
        })
    }

    fn opposite(&mut self, node: &ENode) -> Option<Dir> {
        match args(node) {
            [direction] => self
                .lookup(direction, NameKind::Direction)
                .map(|d| Dir::Opposite(DirectionId(d))),
            _ => self.bad_arity(node, "one direction"),
        }
    }

    /// A position or direction argument.
    fn loc(&mut self, node: &ENode) -> Option<Loc> {
        if node.head().map(|h| self.name(h)) == Some("opposite") {
            return self.opposite(node).map(Loc::Dir);
        }
        let Some(sym) = node.as_atom() else {
            self.malformed(node, "a position or direction");
            return None;
        };
        let name = self.name(sym);
        if let Some(d) = self.directions.get(name) {
            return Some(Loc::Dir(Dir::Named(DirectionId(d))));
        }
        if let Some(p) = self.positions.get(name) {
            return Some(Loc::Pos(PositionId(p)));
        }
        let candidates = self
            .directions
            .names
            .iter()
            .chain(&self.positions.names)
            .map(String::as_str);
        let suggestion = closest(name, candidates);
        self.undefined(node, NameKind::DirectionOrPosition, suggestion);
        None
    }

    /// Zero or one position-or-direction argument. `None` on error, `Some(None)` if absent.
    fn optional_loc(&mut self, node: &ENode, rest: &[ENode]) -> Option<Option<Loc>> {
        match rest {
            [] => Some(None),
            [loc] => self.loc(loc).map(Some),
            _ => self.bad_arity(node, "an optional position or direction"),
        }
    }

    fn flag(&mut self, node: &ENode) -> Option<FlagId> {
        self.atom(node)?;
        Some(FlagId(self.flags.intern(self.text(node), at(node))))
    }

    fn position_flag(&mut self, node: &ENode) -> Option<PositionFlagId> {
        self.atom(node)?;
        Some(PositionFlagId(
            self.position_flags.intern(self.text(node), at(node)),
        ))
    }

    pub(super) fn cond(&mut self, node: &ENode) -> Option<Cond> {
        let (name, rest) = match &node.kind {
            EKind::Atom(sym) => (self.name(*sym), &[][..]),
            EKind::List(items) => match items.split_first() {
                Some((head, rest)) if head.as_atom().is_some() => (self.text(head), rest),
                _ => {
                    self.malformed(node, "a condition");
                    return None;
                }
            },
            EKind::Str(_) => {
                self.malformed(node, "a condition");
                return None;
            }
        };
        match name {
            "true" if rest.is_empty() => return Some(Cond::Const(true)),
            "false" if rest.is_empty() => return Some(Cond::Const(false)),
            "and" | "or" => {
                if rest.is_empty() {
                    return self.bad_arity(node, "one or more conditions");
                }
                let parts: Option<Vec<Cond>> = rest.iter().map(|c| self.cond(c)).collect();
                let parts = parts?;
                return Some(if name == "and" {
                    Cond::And(parts)
                } else {
                    Cond::Or(parts)
                });
            }
            "not" => {
                return match rest {
                    [c] => self.cond(c).map(|c| Cond::Not(Box::new(c))),
                    _ => self.bad_arity(node, "one condition"),
                }
            }
            _ => {}
        }
        if let Some(positive) = self.predicate(node, name, rest) {
            return positive;
        }
        if let Some(base) = name.strip_prefix("not-") {
            if let Some(positive) = self.predicate(node, base, rest) {
                return positive.map(|c| match c {
                    Cond::Empty(loc) => Cond::Occupied(loc),
                    c => Cond::Not(Box::new(c)),
                });
            }
        }
        let candidates = PREDICATES
            .iter()
            .copied()
            .chain(self.attributes.names.iter().map(String::as_str));
        let suggestion = closest(name, candidates);
        self.err(CheckError::UnknownKeyword {
            at: at(node),
            context: "condition",
            found: name.to_string(),
            suggestion,
        });
        None
    }

    /// `Some(result)` when `name` is a predicate (or attribute); `None` when it is not.
    fn predicate(&mut self, node: &ENode, name: &str, rest: &[ENode]) -> Option<Option<Cond>> {
        if LOCATED_PREDICATES.contains(&name) {
            let loc = self.optional_loc(node, rest);
            return Some(loc.map(|loc| match name {
                "empty?" => Cond::Empty(loc),
                "friend?" => Cond::Friend(loc),
                "enemy?" => Cond::Enemy(loc),
                "neutral?" => Cond::Neutral(loc),
                "last-from?" => Cond::LastFrom(loc),
                "last-to?" => Cond::LastTo(loc),
                "marked?" => Cond::Marked(loc),
                "adjacent-to-enemy?" => Cond::AdjacentToEnemy(loc),
                _ => Cond::GoalPosition(loc),
            }));
        }
        if let Some(attribute) = self.attributes.get(name) {
            let loc = self.optional_loc(node, rest);
            return Some(loc.map(|loc| Cond::Attribute(AttributeId(attribute), loc)));
        }
        let result = match name {
            "piece?" => match rest {
                [piece, loc @ ..] => {
                    let piece = self.lookup(piece, NameKind::Piece).map(PieceId);
                    let loc = self.optional_loc(node, loc);
                    piece.zip(loc).map(|(p, l)| Cond::Piece(p, l))
                }
                [] => self.bad_arity(node, "a piece and an optional position or direction"),
            },
            "in-zone?" => match rest {
                [zone, loc @ ..] => {
                    let zone = self.lookup(zone, NameKind::Zone).map(ZoneId);
                    let loc = self.optional_loc(node, loc);
                    zone.zip(loc).map(|(z, l)| Cond::InZone(z, l))
                }
                [] => self.bad_arity(node, "a zone and an optional position or direction"),
            },
            "on-board?" => self.optional_loc(node, rest).map(Cond::OnBoard),
            "flag?" => match rest {
                [flag] => self.flag(flag).map(Cond::Flag),
                _ => self.bad_arity(node, "a flag"),
            },
            "position-flag?" => match rest {
                [flag, loc @ ..] => {
                    let flag = self.position_flag(flag);
                    let loc = self.optional_loc(node, loc);
                    flag.zip(loc).map(|(f, l)| Cond::PositionFlag(f, l))
                }
                [] => self.bad_arity(node, "a flag and an optional position or direction"),
            },
            "position?" => match rest {
                [position, loc @ ..] => {
                    let position = self.lookup(position, NameKind::Position);
                    let loc = self.optional_loc(node, loc);
                    position
                        .zip(loc)
                        .map(|(p, l)| Cond::AtPosition(PositionId(p), l))
                }
                [] => self.bad_arity(node, "a position and an optional position or direction"),
            },
            "attacked?" | "defended?" => {
                let (move_type, loc) = match rest {
                    [] => (None, None),
                    [one] => {
                        let text = self.text(one);
                        let is_loc = one.as_list().is_some()
                            || self.directions.get(text).is_some()
                            || self.positions.get(text).is_some();
                        if is_loc {
                            (None, Some(self.loc(one)?))
                        } else {
                            (
                                Some(MoveTypeId(self.move_types.intern(text, at(one)))),
                                None,
                            )
                        }
                    }
                    [move_type, loc] => {
                        let text = self.text(move_type);
                        (
                            Some(MoveTypeId(self.move_types.intern(text, at(move_type)))),
                            Some(self.loc(loc)?),
                        )
                    }
                    _ => {
                        return Some(
                            self.bad_arity(node, "an optional move type and position or direction"),
                        )
                    }
                };
                Some(if name == "attacked?" {
                    Cond::Attacked(move_type, loc)
                } else {
                    Cond::Defended(move_type, loc)
                })
            }
            _ => return None,
        };
        Some(result)
    }
}
