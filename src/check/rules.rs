//! Players, turn order, board setup, goals, move priorities, options and engines.

use super::{args, at, closest, CheckError, Lower, NameKind};
use crate::expand::{EKind, ENode};
use crate::ir::{
    self, DirectionId, GoalCond, GoalKind, MaximalCaptures, MoveTypeId, PassTurn, PieceId,
    PieceRef, Place, PlayerId, PositionId, Turn, ZoneId,
};

/// Options with no effect on the rules.
const UI_OPTIONS: &[&str] = &[
    "animate captures",
    "animate drops",
    "smart moves",
    "prevent flipping",
    "allow flipping",
    "highlight goals",
    "show moves list",
    "silent ? moves",
    "progressive levels",
    "discard cascades",
    "recycle promotions",
];

/// Dagaz-only option names (besides the `-extension`, `-invariant`, ... families).
const DAGAZ_OPTIONS: &[&str] = &[
    "sliding puzzle",
    "deferred captures",
    "shared pieces",
    "show hints",
    "ko",
    "show captures",
    "show blink",
    "board model",
    "zrf advanced",
];

const DAGAZ_OPTION_SUFFIXES: &[&str] = &[" extension", " invariant", " restrictions", " setup"];

impl Lower<'_> {
    pub(super) fn players_section(&mut self, players: &ENode) {
        if args(players).is_empty() {
            self.arity(players, "one or more players");
        }
        for name in args(players) {
            if self.atom(name).is_none() {
                continue;
            }
            let text = self.text(name);
            if let Err((_, previous)) = self.players.declare(text, at(name)) {
                self.err(CheckError::Duplicate {
                    at: at(name),
                    kind: NameKind::Player,
                    name: text.to_string(),
                    previous: previous.span,
                });
            }
        }
    }

    pub(super) fn turn_order(&mut self, section: Option<&ENode>) -> ir::TurnOrder {
        let Some(section) = section else {
            // Without a turn order, players move in `players` order.
            let turns = (0..self.players.len() as u32)
                .map(|p| Turn {
                    player: PlayerId(p),
                    move_as: PlayerId(p),
                    move_type: None,
                })
                .collect();
            return ir::TurnOrder {
                turns,
                repeat_from: 0,
            };
        };
        let mut turns = Vec::new();
        let mut repeat_from = 0;
        for entry in args(section) {
            if entry.as_atom().is_some_and(|a| self.name(a) == "repeat") {
                repeat_from = turns.len();
                continue;
            }
            if let Some(turn) = self.turn(entry) {
                turns.push(turn);
            }
        }
        if turns.is_empty() {
            self.arity(section, "one or more turns");
        }
        ir::TurnOrder { turns, repeat_from }
    }

    fn turn(&mut self, entry: &ENode) -> Option<Turn> {
        let Some(items) = entry.as_list() else {
            let player = PlayerId(self.lookup(entry, NameKind::Player)?);
            return Some(Turn {
                player,
                move_as: player,
                move_type: None,
            });
        };
        let player = PlayerId(self.lookup(items.first()?, NameKind::Player)?);
        let mut turn = Turn {
            player,
            move_as: player,
            move_type: None,
        };
        match &items[1..] {
            [second] => match self.players.get(self.text(second)) {
                Some(p) if second.as_atom().is_some() => turn.move_as = PlayerId(p),
                _ => turn.move_type = Some(self.move_type_name(second)?),
            },
            [move_as, move_type] => {
                turn.move_as = PlayerId(self.lookup(move_as, NameKind::Player)?);
                turn.move_type = Some(self.move_type_name(move_type)?);
            }
            _ => return self.bad_turn(entry),
        }
        Some(turn)
    }

    fn bad_turn(&mut self, entry: &ENode) -> Option<Turn> {
        self.malformed(
            entry,
            "PLAYER, (PLAYER TYPE), (PLAYER AS-PLAYER) or (PLAYER AS-PLAYER TYPE)",
        );
        None
    }

    fn move_type_name(&mut self, node: &ENode) -> Option<MoveTypeId> {
        self.atom(node)?;
        Some(MoveTypeId(
            self.move_types.intern(self.text(node), at(node)),
        ))
    }

    pub(super) fn setup_section(&mut self, setup: &ENode) -> Vec<ir::Setup> {
        let mut result = Vec::new();
        for entry in args(setup) {
            let Some((player, pieces)) = entry.as_list().and_then(|l| l.split_first()) else {
                self.malformed(entry, "(PLAYER (PIECE position... [off N])...)");
                continue;
            };
            let Some(player) = self.lookup(player, NameKind::Player) else {
                continue;
            };
            for piece_entry in pieces {
                let Some((piece, places)) = piece_entry.as_list().and_then(|l| l.split_first())
                else {
                    self.malformed(piece_entry, "(PIECE position... [off N])");
                    continue;
                };
                let Some(piece) = self.lookup(piece, NameKind::Piece) else {
                    continue;
                };
                let mut setup = ir::Setup {
                    player: PlayerId(player),
                    piece: PieceId(piece),
                    positions: Vec::new(),
                    off_board: 0,
                };
                let mut rest = places.iter();
                while let Some(place) = rest.next() {
                    if place.as_atom().is_some_and(|a| self.name(a) == "off") {
                        match rest.next().and_then(|n| self.number(n)) {
                            Some(n) if (0..=u32::MAX as i64).contains(&n) => {
                                setup.off_board += n as u32
                            }
                            Some(_) => self.malformed(place, "a stock count of 0 or more"),
                            None => {}
                        }
                        continue;
                    }
                    if let Some(position) = self.lookup(place, NameKind::Position) {
                        setup.positions.push(PositionId(position));
                    }
                }
                result.push(setup);
            }
        }
        result
    }

    pub(super) fn goal_section(&mut self, section: &ENode) -> Option<ir::Goal> {
        let kind = match section.head().map(|h| self.name(h))? {
            "win-condition" => GoalKind::Win,
            "loss-condition" => GoalKind::Loss,
            "draw-condition" => GoalKind::Draw,
            "count-condition" => GoalKind::Count,
            _ => return None,
        };
        let (players, condition) = match args(section) {
            [players, condition] => {
                let Some(player_list) = players.as_list() else {
                    self.malformed(players, "a list of players");
                    return None;
                };
                let players: Vec<PlayerId> = player_list
                    .iter()
                    .filter_map(|p| self.lookup(p, NameKind::Player).map(PlayerId))
                    .collect();
                (players, condition)
            }
            // The reference lets `count-condition` omit its players: it is about all.
            [condition] if kind == GoalKind::Count => {
                let everyone = (0..self.players.names.len() as u32).map(PlayerId);
                (everyone.collect(), condition)
            }
            _ => {
                self.arity(section, "a list of players and one condition");
                return None;
            }
        };
        let condition = self.goal_cond(condition)?;
        Some(ir::Goal {
            kind,
            players,
            condition,
        })
    }

    fn goal_cond(&mut self, node: &ENode) -> Option<GoalCond> {
        let (name, rest) = match &node.kind {
            EKind::Atom(sym) => (self.name(*sym), &[][..]),
            EKind::List(items) if items.first().is_some_and(|h| h.as_atom().is_some()) => {
                (self.text(&items[0]), &items[1..])
            }
            _ => {
                self.malformed(node, "a goal condition");
                return None;
            }
        };
        let count = |this: &mut Self| -> Option<(u32, Option<PieceId>)> {
            let (n, piece) = match rest {
                [n] => (n, None),
                [n, piece] => (n, Some(piece)),
                _ => return this.bad_arity(node, "a count and an optional piece"),
            };
            let n = this.number(n).and_then(|n| u32::try_from(n).ok())?;
            let piece = match piece {
                Some(piece) => Some(PieceId(this.lookup(piece, NameKind::Piece)?)),
                None => None,
            };
            Some((n, piece))
        };
        Some(match name {
            "stalemated" if rest.is_empty() => GoalCond::Stalemated,
            "repetition" if rest.is_empty() => GoalCond::Repetition,
            "pieces-remaining" => {
                let (count, piece) = count(self)?;
                GoalCond::PiecesRemaining { count, piece }
            }
            "total-piece-count" => {
                let (count, piece) = count(self)?;
                GoalCond::TotalPieceCount { count, piece }
            }
            "checkmated" | "captured" => {
                if rest.is_empty() {
                    return self.bad_arity(node, "one or more pieces");
                }
                let pieces: Option<Vec<PieceId>> = rest
                    .iter()
                    .map(|p| self.lookup(p, NameKind::Piece).map(PieceId))
                    .collect();
                let pieces = pieces?;
                if name == "checkmated" {
                    GoalCond::Checkmated(pieces)
                } else {
                    GoalCond::Captured(pieces)
                }
            }
            "absolute-config" => {
                let Some((places, pieces)) = rest.split_last() else {
                    return self.bad_arity(node, "pieces and a list of positions or zones");
                };
                let pieces: Option<Vec<PieceRef>> =
                    pieces.iter().map(|p| self.piece_ref(p)).collect();
                let place_nodes = places.as_list().unwrap_or(std::slice::from_ref(places));
                let places: Option<Vec<Place>> =
                    place_nodes.iter().map(|p| self.place(p)).collect();
                let (pieces, places) = (pieces?, places?);
                if pieces.is_empty() {
                    return self.bad_arity(node, "pieces and a list of positions or zones");
                }
                GoalCond::AbsoluteConfig { pieces, places }
            }
            "relative-config" => {
                let Some((first, steps)) = rest.split_first() else {
                    return self.bad_arity(node, "a piece, then direction and piece pairs");
                };
                if steps.len() % 2 != 0 || steps.is_empty() {
                    return self.bad_arity(node, "a piece, then direction and piece pairs");
                }
                let first = self.piece_ref(first)?;
                let steps: Option<Vec<(DirectionId, PieceRef)>> = steps
                    .chunks(2)
                    .map(|pair| {
                        let direction = self.lookup(&pair[0], NameKind::Direction).map(DirectionId);
                        let piece = self.piece_ref(&pair[1]);
                        direction.zip(piece)
                    })
                    .collect();
                GoalCond::RelativeConfig {
                    first,
                    steps: steps?,
                }
            }
            "and" | "or" => {
                if rest.is_empty() {
                    return self.bad_arity(node, "one or more conditions");
                }
                let parts: Option<Vec<GoalCond>> = rest.iter().map(|c| self.goal_cond(c)).collect();
                if name == "and" {
                    GoalCond::And(parts?)
                } else {
                    GoalCond::Or(parts?)
                }
            }
            "not" => match rest {
                [c] => GoalCond::Not(Box::new(self.goal_cond(c)?)),
                _ => return self.bad_arity(node, "one condition"),
            },
            other => {
                let known = [
                    "stalemated",
                    "repetition",
                    "pieces-remaining",
                    "total-piece-count",
                    "checkmated",
                    "captured",
                    "absolute-config",
                    "relative-config",
                    "and",
                    "or",
                    "not",
                ];
                let suggestion = closest(other, known.into_iter());
                self.err(CheckError::UnknownKeyword {
                    at: at(node),
                    context: "goal condition",
                    found: other.to_string(),
                    suggestion,
                });
                return None;
            }
        })
    }

    /// `TYPE`, `(opponent TYPE)`, `(any-owner TYPE)`, or `(not ...)` of one of those.
    fn piece_ref(&mut self, node: &ENode) -> Option<PieceRef> {
        if let Some([qualifier, inner]) = node.as_list() {
            if self.text(qualifier) == "not" {
                return self.owned_piece(inner).map(|owned| match owned {
                    PieceRef::Own(piece) => PieceRef::NotOwn(piece),
                    PieceRef::Opponent(piece) => PieceRef::NotOpponent(piece),
                    PieceRef::AnyOwner(piece) => PieceRef::NotAnyOwner(piece),
                    // `owned_piece` gives none of these.
                    negated => negated,
                });
            }
        }
        self.owned_piece(node)
    }

    /// `TYPE`, `(opponent TYPE)` or `(any-owner TYPE)`.
    fn owned_piece(&mut self, node: &ENode) -> Option<PieceRef> {
        if let Some([qualifier, piece]) = node.as_list() {
            let make = match self.text(qualifier) {
                "opponent" => PieceRef::Opponent,
                "any-owner" => PieceRef::AnyOwner,
                _ => {
                    self.malformed(qualifier, "opponent, any-owner or not");
                    return None;
                }
            };
            return Some(make(PieceId(self.lookup(piece, NameKind::Piece)?)));
        }
        self.lookup(node, NameKind::Piece)
            .map(|p| PieceRef::Own(PieceId(p)))
    }

    fn place(&mut self, node: &ENode) -> Option<Place> {
        let text = self.text(node);
        if node.as_atom().is_some() {
            if let Some(p) = self.positions.get(text) {
                return Some(Place::Position(PositionId(p)));
            }
            if let Some(z) = self.zones.get(text) {
                return Some(Place::Zone(ZoneId(z)));
            }
        }
        let candidates = self
            .positions
            .names
            .iter()
            .chain(&self.zones.names)
            .map(String::as_str);
        let suggestion = closest(text, candidates);
        self.err(CheckError::Undefined {
            at: at(node),
            kind: NameKind::Position,
            name: text.to_string(),
            suggestion,
            directions: Vec::new(),
        });
        None
    }

    pub(super) fn move_priorities(&mut self, section: &ENode) -> Vec<MoveTypeId> {
        args(section)
            .iter()
            .filter_map(|t| self.lookup(t, NameKind::MoveType).map(MoveTypeId))
            .collect()
    }

    pub(super) fn options(&mut self, sections: &[&ENode]) -> ir::Options {
        let mut options = ir::Options::default();
        for section in sections {
            let head = section.head().map(|h| self.name(h));
            let (name_node, value) = match (head, args(section)) {
                (Some("option"), [name, value]) => (name, value),
                (Some("option"), _) => {
                    self.arity(section, "a name and a value");
                    continue;
                }
                (Some(keyword), [value])
                    if crate::expand::OPTION_KEYWORDS
                        .iter()
                        .any(|(known, _)| *known == keyword) =>
                {
                    (*section, value)
                }
                _ => continue,
            };
            let name = if name_node.as_list().is_some() {
                head.unwrap_or_default().replace('-', " ")
            } else {
                crate::expand::normalise_option(self.text(name_node))
            };
            let value_text = self.text(value).to_string();
            let flag = |this: &mut Self| -> bool {
                match value_text.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        this.malformed(value, "true or false");
                        false
                    }
                }
            };
            match name.as_str() {
                "pass turn" => {
                    options.pass_turn = match value_text.as_str() {
                        "true" => PassTurn::Always,
                        "false" => PassTurn::Never,
                        // `2` appears in three files; read as `forced` (see docs/semantics.md).
                        "forced" | "2" => PassTurn::Forced,
                        _ => {
                            self.malformed(value, "true, false or forced");
                            PassTurn::Never
                        }
                    }
                }
                "pass partial" => options.pass_partial = flag(self),
                "maximal captures" => {
                    options.maximal_captures = match value_text.as_str() {
                        "true" => MaximalCaptures::On,
                        "false" => MaximalCaptures::Off,
                        "2" => MaximalCaptures::Two,
                        _ => {
                            self.malformed(value, "true, false or 2");
                            MaximalCaptures::Off
                        }
                    }
                }
                "recycle captures" => options.recycle_captures = flag(self),
                "include off pieces" => options.include_off_pieces = flag(self),
                ui if UI_OPTIONS.contains(&ui) => options.ui.push((name.clone(), value_text)),
                dagaz
                    if DAGAZ_OPTIONS.contains(&dagaz)
                        || DAGAZ_OPTION_SUFFIXES.iter().any(|s| dagaz.ends_with(s)) =>
                {
                    self.err(CheckError::DagazOption {
                        at: at(name_node),
                        name: self.text(name_node).to_string(),
                    });
                    options.dagaz_only.push((name.clone(), value_text));
                }
                _ => {
                    self.err(CheckError::UnknownOption {
                        at: at(name_node),
                        name: self.text(name_node).to_string(),
                    });
                    options.ui.push((name.clone(), value_text));
                }
            }
        }
        options
    }

    pub(super) fn engine(&mut self, engine: &ENode) -> Option<String> {
        let [dll] = args(engine) else {
            self.arity(engine, "the engine's file name");
            return None;
        };
        let dll = self.text(dll).to_string();
        self.err(CheckError::AxiomEngine {
            at: at(engine),
            dll: dll.clone(),
        });
        Some(dll)
    }
}
