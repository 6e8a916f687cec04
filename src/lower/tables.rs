//! The runtime's [`Tables`] of a lowered game: the static data both the interpreter and
//! generated code play with (generated code embeds them as literals), built in one place
//! so that the two cannot disagree.

use zrf_runtime::{
    Derived, Fnv1a, Goal, GoalCond, GoalKind, Inconsistency, MoveType, Options, PassTurn,
    PieceInfo, PieceRef, Place, Player, Setup, Shape, Tables, Turn, Zobrist, ZobristData, NO_POS,
};

use crate::ir;
use crate::lower::shape::shape_of;

use zrf_runtime::limits::MAX_ATTRIBUTES;

/// Why a lowered game cannot be played: limits of the runtime.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TablesError {
    #[error("the game declares {0} attributes; at most {MAX_ATTRIBUTES} are supported")]
    TooManyAttributes(usize),
    #[error("the game has no turns (no players)")]
    NoTurns,
    /// A mistake of the lowering: the tables it built do not hold together.
    #[error("{0}")]
    Inconsistent(#[from] Inconsistency),
}

/// The shapes of `piece`'s move templates (see [`shape_of`]) and the move types they are
/// listed under, none when no template has a shape.
fn shapes_of(game: &ir::Game, piece: &ir::Piece) -> (Vec<Option<Shape>>, Vec<Option<MoveType>>) {
    let shapes: Vec<_> = (piece.moves.iter())
        .map(|m| shape_of(&game.templates[m.template.index()]))
        .collect();
    match shapes.iter().any(Option::is_some) {
        true => {
            let types = (piece.moves.iter())
                .map(|m| m.move_type.map(|t| t.narrow::<u16>()))
                .collect();
            (shapes, types)
        }
        false => (Vec::new(), Vec::new()),
    }
}

/// The runtime tables of a lowered game.
pub fn runtime_tables(game: &ir::Game) -> Result<Tables, TablesError> {
    if game.attributes.len() > MAX_ATTRIBUTES {
        return Err(TablesError::TooManyAttributes(game.attributes.len()));
    }
    if game.turn_order.turns.is_empty() {
        return Err(TablesError::NoTurns);
    }
    let board = &game.board;
    let directions = board.directions.len();
    let positions = board.positions.len();
    let mut links = vec![NO_POS; positions * directions];
    for (p, row) in board.links.iter().enumerate() {
        for (d, target) in row.iter().enumerate() {
            if let Some(target) = target {
                links[p * directions + d] = target.0;
            }
        }
    }
    let words = positions.div_ceil(64);
    let zones = board
        .zones
        .iter()
        .map(|zone| {
            zone.positions
                .iter()
                .map(|members| {
                    let mut bits = vec![0u64; words];
                    for p in members {
                        bits[p.index() / 64] |= 1 << (p.0 % 64);
                    }
                    bits
                })
                .collect()
        })
        .collect();
    let players = game.players.len();
    let mut royal = vec![vec![false; game.pieces.len()]; players];
    let goals = game
        .goals
        .iter()
        .map(|goal| {
            let condition = goal_cond(&goal.condition);
            for &player in &goal.players {
                mark_royal(&condition, &mut royal[player.index()]);
            }
            Goal {
                kind: match goal.kind {
                    ir::GoalKind::Win => GoalKind::Win,
                    ir::GoalKind::Loss => GoalKind::Loss,
                    ir::GoalKind::Draw => GoalKind::Draw,
                    ir::GoalKind::Count => GoalKind::Count,
                },
                players: goal.players.iter().map(|p| p.narrow::<u8>()).collect(),
                condition,
            }
        })
        .collect();
    let mut tables = Tables {
        title: game.title.clone(),
        about: owned_prose(&game.about),
        positions: board.positions.iter().map(|p| p.name.clone()).collect(),
        rects: board.positions.iter().map(|p| p.rect).collect(),
        directions: board.directions.clone(),
        links,
        zones,
        zone_names: board.zones.iter().map(|z| z.name.clone()).collect(),
        symmetry: board
            .symmetry
            .iter()
            .map(|map| map.iter().map(|d| d.narrow::<u16>()).collect())
            .collect(),
        opposite: board
            .opposite
            .iter()
            .map(|o| o.map(|d| d.narrow::<u16>()))
            .collect(),
        players: game
            .players
            .iter()
            .map(|p| Player {
                name: p.name.clone(),
                random: p.random,
            })
            .collect(),
        turns: game
            .turn_order
            .turns
            .iter()
            .map(|t| Turn {
                player: t.player.narrow::<u8>(),
                move_as: t.move_as.narrow::<u8>(),
                move_type: t.move_type.map(|m| m.narrow::<u16>()),
            })
            .collect(),
        repeat_from: game.turn_order.repeat_from,
        pieces: game
            .pieces
            .iter()
            .map(|p| {
                let (shapes, template_types) = shapes_of(game, p);
                PieceInfo {
                    name: p.name.clone(),
                    default_attributes: p
                        .attributes
                        .iter()
                        .filter(|(_, value)| *value)
                        .fold(0, |bits, (a, _)| bits | 1 << a.0),
                    dummy: p.dummy,
                    about: owned_prose(&p.about),
                    notation: p.notation.clone(),
                    shapes,
                    template_types,
                }
            })
            .collect(),
        attributes: game.attributes.clone(),
        move_types: game.move_types.clone(),
        flags: game.flags.len(),
        position_flags: game.position_flags.len(),
        setup: game
            .setup
            .iter()
            .map(|s| Setup {
                player: s.player.narrow::<u8>(),
                kind: s.piece.narrow::<u16>(),
                positions: s.positions.iter().map(|p| p.0).collect(),
                off_board: s.off_board,
            })
            .collect(),
        goals,
        priorities: game
            .move_priorities
            .iter()
            .map(|t| t.narrow::<u16>())
            .collect(),
        options: Options {
            pass_turn: match game.options.pass_turn {
                ir::PassTurn::Never => PassTurn::Never,
                ir::PassTurn::Always => PassTurn::Always,
                ir::PassTurn::Forced => PassTurn::Forced,
            },
            pass_partial: game.options.pass_partial,
            recycle_captures: game.options.recycle_captures,
            include_off_pieces: game.options.include_off_pieces,
            maximal_captures: game.options.maximal_captures != ir::MaximalCaptures::Off,
        },
        royal,
        zobrist: Zobrist::new(ZobristData {
            seed: zobrist_seed(&game.title),
            positions: board.positions.len(),
            players: game.players.len(),
            kinds: game.pieces.len(),
            attributes: game.attributes.len(),
        }),
        reach: None,
        evaluation: None,
        derived: Derived::default(),
    };
    tables.reach = super::reach::reach(game, &tables)?;
    tables.check()?;
    Ok(tables)
}

/// Sections of prose (`description`, `help`, ...) with their names owned.
fn owned_prose(about: &[(&'static str, String)]) -> Vec<(String, String)> {
    about
        .iter()
        .map(|(section, words)| (section.to_string(), words.clone()))
        .collect()
}

/// Each game draws its own hash keys, from its title.
fn zobrist_seed(title: &str) -> u64 {
    let mut hash = Fnv1a::new();
    hash.write(title.as_bytes());
    hash.finish()
}

/// Marks the piece types a `checkmated` condition protects.
fn mark_royal(cond: &GoalCond, royal: &mut [bool]) {
    match cond {
        GoalCond::Checkmated(kinds) => {
            for &k in kinds {
                royal[k as usize] = true;
            }
        }
        GoalCond::And(parts) | GoalCond::Or(parts) => {
            parts.iter().for_each(|c| mark_royal(c, royal))
        }
        _ => {}
    }
}

fn piece_ref(r: &ir::PieceRef) -> PieceRef {
    match *r {
        ir::PieceRef::Own(p) => PieceRef::Own(p.narrow::<u16>()),
        ir::PieceRef::Opponent(p) => PieceRef::Opponent(p.narrow::<u16>()),
        ir::PieceRef::AnyOwner(p) => PieceRef::AnyOwner(p.narrow::<u16>()),
        ir::PieceRef::NotOwn(p) => PieceRef::NotOwn(p.narrow::<u16>()),
        ir::PieceRef::NotOpponent(p) => PieceRef::NotOpponent(p.narrow::<u16>()),
        ir::PieceRef::NotAnyOwner(p) => PieceRef::NotAnyOwner(p.narrow::<u16>()),
    }
}

fn goal_cond(cond: &ir::GoalCond) -> GoalCond {
    let kinds = |ps: &[ir::PieceId]| ps.iter().map(|p| p.narrow::<u16>()).collect();
    match cond {
        ir::GoalCond::PiecesRemaining { count, piece } => GoalCond::PiecesRemaining {
            count: *count,
            kind: piece.map(|p| p.narrow::<u16>()),
        },
        ir::GoalCond::TotalPieceCount { count, piece } => GoalCond::TotalPieceCount {
            count: *count,
            kind: piece.map(|p| p.narrow::<u16>()),
        },
        ir::GoalCond::Stalemated => GoalCond::Stalemated,
        ir::GoalCond::Repetition => GoalCond::Repetition,
        ir::GoalCond::AbsoluteConfig { pieces, places } => GoalCond::AbsoluteConfig {
            pieces: pieces.iter().map(piece_ref).collect(),
            places: places
                .iter()
                .map(|p| match *p {
                    ir::Place::Position(p) => Place::Position(p.0),
                    ir::Place::Zone(z) => Place::Zone(z.narrow::<u16>()),
                })
                .collect(),
        },
        ir::GoalCond::RelativeConfig { first, steps } => GoalCond::RelativeConfig {
            first: piece_ref(first),
            steps: steps
                .iter()
                .map(|(d, r)| (d.narrow::<u16>(), piece_ref(r)))
                .collect(),
        },
        ir::GoalCond::Checkmated(ps) => GoalCond::Checkmated(kinds(ps)),
        ir::GoalCond::Captured(ps) => GoalCond::Captured(kinds(ps)),
        ir::GoalCond::And(cs) => GoalCond::And(cs.iter().map(goal_cond).collect()),
        ir::GoalCond::Or(cs) => GoalCond::Or(cs.iter().map(goal_cond).collect()),
        ir::GoalCond::Not(c) => GoalCond::Not(Box::new(goal_cond(c))),
    }
}
