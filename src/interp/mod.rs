//! Stage 4a: the reference interpreter. It turns an [`ir::Game`] into the runtime's
//! [`zrf_runtime::Tables`] and runs its templates by walking the IR, driving the runtime's [`zrf_runtime::Run`]:
//! every rule primitive is the runtime's, shared with generated code.

use zrf_runtime::{
    AttackGuard, Engine, Fail, Filter, Kind, Loc, MayNote, Pos, Run, StepResult, Templates,
};

use crate::ir::{self, AddKind, Block, Cond, Dir, GoTarget, Stmt, TablesError};

/// An interpreted game, ready to play.
pub type Interpreted = Engine<Interpreter>;

/// Builds an engine for a lowered game.
pub fn engine(game: ir::Game) -> Result<Interpreted, TablesError> {
    let tables = ir::runtime_tables(&game)?;
    Ok(Engine::new(
        tables,
        Interpreter {
            game,
            attack_guard: AttackGuard::default(),
        },
    ))
}

/// An interpreted game as data that threads can share: each thread makes its own
/// engine from it ([`Blueprint::engine`]), since an engine keeps state of its own runs.
pub struct Blueprint {
    tables: zrf_runtime::Tables,
    game: ir::Game,
}

impl Blueprint {
    pub fn of(engine: &Interpreted) -> Blueprint {
        Blueprint {
            tables: engine.tables.clone(),
            game: engine.templates.game.clone(),
        }
    }

    /// A new engine of the same game.
    pub fn engine(&self) -> Interpreted {
        Engine::new(
            self.tables.clone(),
            Interpreter {
                game: self.game.clone(),
                attack_guard: AttackGuard::default(),
            },
        )
    }
}

/// The templates of a game, run by walking the IR.
pub struct Interpreter {
    game: ir::Game,
    attack_guard: AttackGuard,
}

impl Templates for Interpreter {
    /// One interpreter serves every game, `checkmated` or not.
    type Noting = MayNote;

    fn piece_moves(&self, run: &mut Run<'_>, kind: Kind, filter: Filter) {
        for template in &self.game.pieces[kind as usize].moves {
            let move_type = template.move_type.map(|t| t.narrow::<u16>());
            if !filter.allows(move_type) {
                continue;
            }
            run.restart(move_type);
            let _ = self.block(&self.game.templates[template.template.index()], run);
        }
    }

    fn drops(&self, run: &mut Run<'_>, kind: Kind, filter: Filter) {
        for template in &self.game.pieces[kind as usize].drops {
            let move_type = template.move_type.map(|t| t.narrow::<u16>());
            if !filter.allows(move_type) {
                continue;
            }
            for pos in 0..run.tables.positions.len() as Pos {
                run.restart_drop_at(pos, move_type);
                let _ = self.block(&self.game.templates[template.template.index()], run);
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
        Some(ir::Loc::Dir(Dir::Named(d))) => Loc::Dir(d.narrow::<u16>()),
        Some(ir::Loc::Dir(Dir::Opposite(d))) => Loc::Opposite(d.narrow::<u16>()),
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
            Stmt::Step(Dir::Named(d)) => run.step(d.narrow::<u16>())?,
            Stmt::Step(Dir::Opposite(d)) => run.step_opposite(d.narrow::<u16>())?,
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
                    run.loop_guard(&mut iteration)?;
                    self.block(body, run)?;
                }
            }
            Stmt::Mark(None) => run.mark(),
            Stmt::Mark(Some(at)) => run.mark_at(loc(Some(*at)))?,
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
                owner.map(|p| p.narrow::<u8>()),
                piece.map(|p| p.narrow::<u16>()),
                loc(*at),
            )?,
            Stmt::ChangeType(piece, at) => run.change_type(piece.narrow::<u16>(), loc(*at))?,
            Stmt::ChangeOwner(at) => run.change_owner(loc(*at))?,
            Stmt::Flip(at) => run.flip(loc(*at))?,
            Stmt::SetAttribute(a, value) => {
                let value = self.cond(value, run);
                run.set_attribute(a.narrow::<u8>(), value);
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
                let promote: Vec<Kind> = promote.iter().map(|p| p.narrow::<u16>()).collect();
                let copy = matches!(kind, AddKind::AddCopy | AddKind::AddCopyPartial);
                let partial = matches!(kind, AddKind::AddPartial | AddKind::AddCopyPartial)
                    .then(|| continue_with.map(|t| t.narrow::<u16>()));
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
            Cond::Piece(p, at) => run.piece(p.narrow::<u16>(), loc(*at)),
            Cond::InZone(z, at) => run.in_zone(z.narrow::<u16>(), loc(*at)),
            Cond::OnBoard(at) => run.on_board(loc(*at)),
            Cond::Flag(f) => run.flag(f.index()),
            Cond::PositionFlag(f, at) => run.position_flag(f.index(), loc(*at)),
            Cond::Attribute(a, at) => run.attribute(a.narrow::<u8>(), loc(*at)),
            Cond::LastFrom(at) => run.last_from(loc(*at)),
            Cond::LastTo(at) => run.last_to(loc(*at)),
            Cond::AtPosition(p, at) => run.at_position(p.0, loc(*at)),
            Cond::Marked(at) => run.marked(loc(*at)),
            Cond::AdjacentToEnemy(at) => run.adjacent_to_enemy(loc(*at)),
            Cond::GoalPosition(at) => run.goal_position(loc(*at)),
            Cond::Attacked(t, at) => {
                let move_type = t.map(|t| t.narrow::<u16>());
                self.attack_guard
                    .attacked(self, run, move_type, loc(*at), false)
            }
            Cond::Defended(t, at) => {
                let move_type = t.map(|t| t.narrow::<u16>());
                self.attack_guard
                    .attacked(self, run, move_type, loc(*at), true)
            }
        }
    }
}
