//! Stage 4a: the reference interpreter. It turns an [`ir::Game`] into the runtime's
//! [`Tables`] and runs its templates by walking the IR, driving the runtime's [`Run`]:
//! every rule primitive is the runtime's, shared with generated code.

use std::cell::Cell;

use zrf_runtime::{
    Engine, Fail, Filter, Gen, Goal, GoalCond, GoalKind, Kind, Loc, Options, PassTurn, PieceInfo,
    PieceRef, Place, Player, Pos, Run, Setup, State, Step, StepResult, Tables, Templates, Turn,
    NO_POS,
};

use crate::ir::{self, AddKind, Block, Cond, Dir, GoTarget, Stmt};

/// Most attributes a game may declare (they are bits of a `u32` per piece).
pub const MAX_ATTRIBUTES: usize = 32;

/// Why a lowered game cannot be interpreted.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum InterpError {
    #[error("the game declares {0} attributes; at most {MAX_ATTRIBUTES} are supported")]
    TooManyAttributes(usize),
    #[error("the game has no turns (no players)")]
    NoTurns,
}

/// An interpreted game, ready to play.
pub type Interpreted = Engine<Interpreter>;

/// Builds an engine for a lowered game.
pub fn engine(game: ir::Game) -> Result<Interpreted, InterpError> {
    let tables = tables(&game)?;
    Ok(Engine::new(
        tables,
        Interpreter {
            game,
            attack_depth: Cell::new(0),
        },
    ))
}

/// The templates of a game, run by walking the IR.
pub struct Interpreter {
    game: ir::Game,
    /// Nesting of `attacked?` queries: one inside another answers false instead of
    /// recursing forever (two kings each asking whether the other attacks).
    attack_depth: Cell<u8>,
}

impl Templates for Interpreter {
    fn piece_moves(
        &self,
        tables: &Tables,
        state: &State,
        turn: Turn,
        pos: Pos,
        filter: Filter,
        out: &mut Vec<Step>,
    ) {
        let Some(piece) = state.at(pos) else { return };
        // One run for the piece, restarted for each template.
        let mut run = Run::for_move(tables, state, turn, pos, None, out);
        for template in &self.game.pieces[piece.kind as usize].moves {
            let move_type = template.move_type.map(|t| t.0 as u16);
            if !filter.allows(move_type) {
                continue;
            }
            run.restart(move_type);
            let _ = self.block(&self.game.templates[template.template.index()], &mut run);
        }
    }

    fn drops(
        &self,
        tables: &Tables,
        state: &State,
        turn: Turn,
        kind: Kind,
        filter: Filter,
        out: &mut Vec<Step>,
    ) {
        let mut run = Run::for_drop(tables, state, turn, 0, kind, None, out);
        for template in &self.game.pieces[kind as usize].drops {
            let move_type = template.move_type.map(|t| t.0 as u16);
            if !filter.allows(move_type) {
                continue;
            }
            for pos in 0..tables.positions.len() as Pos {
                run.restart_drop_at(pos, move_type);
                let _ = self.block(&self.game.templates[template.template.index()], &mut run);
            }
        }
    }

    fn has_drops(&self, kind: Kind) -> bool {
        !self.game.pieces[kind as usize].drops.is_empty()
    }
}

fn loc(at: Option<ir::Loc>) -> Loc {
    match at {
        None => Loc::Here,
        Some(ir::Loc::Pos(p)) => Loc::Pos(p.0),
        Some(ir::Loc::Dir(Dir::Named(d))) => Loc::Dir(d.0 as u16),
        Some(ir::Loc::Dir(Dir::Opposite(d))) => Loc::Opposite(d.0 as u16),
    }
}

impl Interpreter {
    fn block(&self, block: &Block, run: &mut Run<'_>) -> StepResult {
        for stmt in block {
            self.stmt(stmt, run)?;
        }
        Ok(())
    }

    fn stmt(&self, stmt: &Stmt, run: &mut Run<'_>) -> StepResult {
        match stmt {
            Stmt::Step(Dir::Named(d)) => run.step(d.0 as u16)?,
            Stmt::Step(Dir::Opposite(d)) => run.step_opposite(d.0 as u16)?,
            Stmt::Jump(p) => run.jump(p.0),
            Stmt::Verify(c) => {
                if !self.cond(c, run) {
                    return Err(Fail);
                }
            }
            Stmt::If(c, then, other) => {
                if self.cond(c, run) {
                    self.block(then, run)?;
                } else {
                    self.block(other, run)?;
                }
            }
            Stmt::While(c, body) => {
                let mut iteration = 0;
                while self.cond(c, run) {
                    Run::loop_guard(&mut iteration)?;
                    self.block(body, run)?;
                }
            }
            Stmt::Mark => run.mark(),
            Stmt::Back => run.back()?,
            Stmt::Go(target) => match target {
                GoTarget::From => run.go_from()?,
                GoTarget::To => run.go_to()?,
                GoTarget::Mark => run.go_mark()?,
                GoTarget::LastFrom => run.go_last_from()?,
                GoTarget::LastTo => run.go_last_to()?,
            },
            Stmt::Capture(at) => run.capture(loc(*at))?,
            Stmt::Create { owner, piece, at } => run.create(
                owner.map(|p| p.0 as u8),
                piece.map(|p| p.0 as u16),
                loc(*at),
            )?,
            Stmt::ChangeType(piece, at) => run.change_type(piece.0 as u16, loc(*at))?,
            Stmt::ChangeOwner(at) => run.change_owner(loc(*at))?,
            Stmt::Flip(at) => run.flip(loc(*at))?,
            Stmt::SetAttribute(a, value) => {
                let value = self.cond(value, run);
                run.set_attribute(a.0 as u8, value);
            }
            Stmt::SetFlag(f, value) => {
                let value = self.cond(value, run);
                run.set_flag(f.index(), value);
            }
            Stmt::SetPositionFlag(f, value, at) => {
                let value = self.cond(value, run);
                run.set_position_flag(f.index(), value, loc(*at))?;
            }
            Stmt::From => run.from()?,
            Stmt::To => run.to(),
            Stmt::Cascade => run.cascade()?,
            Stmt::Add {
                kind,
                promote,
                continue_with,
            } => {
                let promote: Vec<Kind> = promote.iter().map(|p| p.0 as u16).collect();
                let copy = matches!(kind, AddKind::AddCopy | AddKind::AddCopyPartial);
                let partial = matches!(kind, AddKind::AddPartial | AddKind::AddCopyPartial)
                    .then(|| continue_with.map(|t| t.0 as u16));
                run.add(&promote, copy, partial);
            }
        }
        Ok(())
    }

    fn cond(&self, cond: &Cond, run: &Run<'_>) -> bool {
        match cond {
            Cond::Const(b) => *b,
            Cond::Not(c) => !self.cond(c, run),
            Cond::And(cs) => cs.iter().all(|c| self.cond(c, run)),
            Cond::Or(cs) => cs.iter().any(|c| self.cond(c, run)),
            Cond::Empty(at) => run.empty(loc(*at)),
            Cond::Friend(at) => run.friend(loc(*at)),
            Cond::Enemy(at) => run.enemy(loc(*at)),
            Cond::Neutral(at) => run.neutral(loc(*at)),
            Cond::Piece(p, at) => run.piece(p.0 as u16, loc(*at)),
            Cond::InZone(z, at) => run.in_zone(z.0 as u16, loc(*at)),
            Cond::OnBoard(at) => run.on_board(loc(*at)),
            Cond::Flag(f) => run.flag(f.index()),
            Cond::PositionFlag(f, at) => run.position_flag(f.index(), loc(*at)),
            Cond::Attribute(a, at) => run.attribute(a.0 as u8, loc(*at)),
            Cond::LastFrom(at) => run.last_from(loc(*at)),
            Cond::LastTo(at) => run.last_to(loc(*at)),
            Cond::AtPosition(p) => run.at_position(p.0),
            Cond::Marked(at) => run.marked(loc(*at)),
            Cond::AdjacentToEnemy(at) => run.adjacent_to_enemy(loc(*at)),
            Cond::GoalPosition(at) => run.goal_position(loc(*at)),
            Cond::Attacked(t, at) => self.attacked(run, *t, loc(*at), false),
            Cond::Defended(t, at) => self.attacked(run, *t, loc(*at), true),
        }
    }

    /// `attacked?` (by an enemy) or `defended?` (by a friend): could some move of that
    /// side (of the given move type) capture a piece standing on the square?
    fn attacked(
        &self,
        run: &Run<'_>,
        move_type: Option<ir::MoveTypeId>,
        at: Loc,
        by_friend: bool,
    ) -> bool {
        let target = run.resolve(at);
        if target == NO_POS || self.attack_depth.get() > 0 {
            return false;
        }
        let tables = run.tables;
        let mover = run.turn.move_as;
        let sides: Vec<u8> = (0..tables.players.len() as u8)
            .filter(|&p| {
                if by_friend {
                    p == mover
                } else {
                    p != mover && tables.is_active(p)
                }
            })
            .collect();
        // "Could capture a piece standing on the square": on an empty square, stand one
        // of the mover's pieces there, so that moves that only capture (pawns) count.
        let mut board = run.state.clone();
        if board.at(target).is_none() {
            board.board[target as usize] = Some(zrf_runtime::Piece {
                kind: 0,
                owner: mover,
                attributes: 0,
            });
        }
        self.attack_depth.set(1);
        let gen = Gen {
            tables,
            templates: self,
        };
        let found = sides.iter().any(|&side| {
            let turn = Turn {
                player: side,
                move_as: side,
                move_type: move_type.map(|t| t.0 as u16),
            };
            gen.captures_any_of(&board, turn, &[target], &[])
        });
        self.attack_depth.set(0);
        found
    }
}

/// The runtime tables of a lowered game.
pub fn tables(game: &ir::Game) -> Result<Tables, InterpError> {
    if game.attributes.len() > MAX_ATTRIBUTES {
        return Err(InterpError::TooManyAttributes(game.attributes.len()));
    }
    if game.turn_order.turns.is_empty() {
        return Err(InterpError::NoTurns);
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
                players: goal.players.iter().map(|p| p.0 as u8).collect(),
                condition,
            }
        })
        .collect();
    Ok(Tables {
        title: game.title.clone(),
        positions: board.positions.iter().map(|p| p.name.clone()).collect(),
        directions: board.directions.clone(),
        links,
        zones,
        zone_names: board.zones.iter().map(|z| z.name.clone()).collect(),
        symmetry: board
            .symmetry
            .iter()
            .map(|map| map.iter().map(|d| d.0 as u16).collect())
            .collect(),
        opposite: board
            .opposite
            .iter()
            .map(|o| o.map(|d| d.0 as u16))
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
                player: t.player.0 as u8,
                move_as: t.move_as.0 as u8,
                move_type: t.move_type.map(|m| m.0 as u16),
            })
            .collect(),
        repeat_from: game.turn_order.repeat_from,
        pieces: game
            .pieces
            .iter()
            .map(|p| PieceInfo {
                name: p.name.clone(),
                default_attributes: p
                    .attributes
                    .iter()
                    .filter(|(_, value)| *value)
                    .fold(0, |bits, (a, _)| bits | 1 << a.0),
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
                player: s.player.0 as u8,
                kind: s.piece.0 as u16,
                positions: s.positions.iter().map(|p| p.0).collect(),
                off_board: s.off_board,
            })
            .collect(),
        goals,
        priorities: game.move_priorities.iter().map(|t| t.0 as u16).collect(),
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
    })
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
        ir::PieceRef::Own(p) => PieceRef::Own(p.0 as u16),
        ir::PieceRef::Opponent(p) => PieceRef::Opponent(p.0 as u16),
        ir::PieceRef::AnyOwner(p) => PieceRef::AnyOwner(p.0 as u16),
        ir::PieceRef::Absent(p) => PieceRef::Absent(p.0 as u16),
    }
}

fn goal_cond(cond: &ir::GoalCond) -> GoalCond {
    let kinds = |ps: &[ir::PieceId]| ps.iter().map(|p| p.0 as u16).collect();
    match cond {
        ir::GoalCond::PiecesRemaining { count, piece } => GoalCond::PiecesRemaining {
            count: *count,
            kind: piece.map(|p| p.0 as u16),
        },
        ir::GoalCond::TotalPieceCount { count, piece } => GoalCond::TotalPieceCount {
            count: *count,
            kind: piece.map(|p| p.0 as u16),
        },
        ir::GoalCond::Stalemated => GoalCond::Stalemated,
        ir::GoalCond::Repetition => GoalCond::Repetition,
        ir::GoalCond::AbsoluteConfig { pieces, places } => GoalCond::AbsoluteConfig {
            pieces: pieces.iter().map(piece_ref).collect(),
            places: places
                .iter()
                .map(|p| match *p {
                    ir::Place::Position(p) => Place::Position(p.0),
                    ir::Place::Zone(z) => Place::Zone(z.0 as u16),
                })
                .collect(),
        },
        ir::GoalCond::RelativeConfig { first, steps } => GoalCond::RelativeConfig {
            first: piece_ref(first),
            steps: steps
                .iter()
                .map(|(d, r)| (d.0 as u16, piece_ref(r)))
                .collect(),
        },
        ir::GoalCond::Checkmated(ps) => GoalCond::Checkmated(kinds(ps)),
        ir::GoalCond::Captured(ps) => GoalCond::Captured(kinds(ps)),
        ir::GoalCond::And(cs) => GoalCond::And(cs.iter().map(goal_cond).collect()),
        ir::GoalCond::Or(cs) => GoalCond::Or(cs.iter().map(goal_cond).collect()),
        ir::GoalCond::Not(c) => GoalCond::Not(Box::new(goal_cond(c))),
    }
}
