//! Stage 5a: the reference interpreter. It performs a [`lower::Program`]'s operations on
//! the runtime's [`zrf_runtime::Run`]: every rule primitive is the runtime's, shared with
//! generated code, and how each statement maps onto it was decided by [`lower`].

use zrf_runtime::{
    AttackGuard, Engine, Fail, Filter, Kind, KnownSizes, MayNote, Pos, Run, StepResult, Templates,
};

use crate::ir;
use crate::lower::{self, GoTarget, Op, Ops, Program, TablesError, Test};

/// An interpreted game, ready to play.
pub type Interpreted = Engine<Interpreter>;

/// Builds an engine for a lowered game.
pub fn engine(game: ir::Game) -> Result<Interpreted, TablesError> {
    let Program {
        tables,
        templates,
        pieces,
    } = lower::lower(&game)?;
    Ok(Engine::new(
        tables,
        Interpreter {
            templates,
            pieces,
            attack_guard: AttackGuard::default(),
        },
    ))
}

/// An interpreted game as data that threads can share: each thread makes its own
/// engine from it ([`Blueprint::engine`]), since an engine keeps state of its own runs.
pub struct Blueprint {
    tables: zrf_runtime::Tables,
    templates: Vec<Ops>,
    pieces: Vec<lower::PieceTemplates>,
}

impl Blueprint {
    pub fn of(engine: &Interpreted) -> Blueprint {
        Blueprint {
            tables: engine.tables.clone(),
            templates: engine.templates.templates.clone(),
            pieces: engine.templates.pieces.clone(),
        }
    }

    /// A new engine of the same game.
    pub fn engine(&self) -> Interpreted {
        Engine::new(
            self.tables.clone(),
            Interpreter {
                templates: self.templates.clone(),
                pieces: self.pieces.clone(),
                attack_guard: AttackGuard::default(),
            },
        )
    }
}

/// The templates of a game, run by performing their operations.
pub struct Interpreter {
    templates: Vec<Ops>,
    pieces: Vec<lower::PieceTemplates>,
    attack_guard: AttackGuard,
}

/// One interpreter serves every game: the sizes are read from the position.
impl KnownSizes for Interpreter {}

impl Templates for Interpreter {
    /// One interpreter serves every game, `checkmated` or not.
    type Noting = MayNote;

    fn piece_moves(&self, run: &mut Run<'_>, kind: Kind, filter: Filter) {
        for (number, template) in (0..).zip(&self.pieces[kind as usize].moves) {
            if !filter.allows(template.move_type) || !run.start_template(number, template.move_type)
            {
                continue;
            }
            let _ = self.ops(&self.templates[template.template], run);
        }
    }

    fn drops(&self, run: &mut Run<'_>, kind: Kind, filter: Filter) {
        for template in &self.pieces[kind as usize].drops {
            if !filter.allows(template.move_type) {
                continue;
            }
            for pos in 0..run.tables.positions.len() as Pos {
                run.restart_drop_at(pos, template.move_type);
                let _ = self.ops(&self.templates[template.template], run);
            }
        }
    }

    fn has_drops(&self, kind: Kind) -> bool {
        !self.pieces[kind as usize].drops.is_empty()
    }
}

impl Interpreter {
    fn ops(&self, ops: &[Op], run: &mut Run<'_>) -> StepResult {
        for op in ops {
            self.op(op, run)?;
        }
        Ok(())
    }

    fn op(&self, op: &Op, run: &mut Run<'_>) -> StepResult {
        match op {
            Op::Step(d) => run.step(*d)?,
            Op::StepOpposite(d) => run.step_opposite(*d)?,
            Op::Jump(p) => run.jump(*p),
            Op::Verify(test) => {
                if !self.test(test, run) {
                    return Err(Fail);
                }
            }
            Op::If(test, then, other) => {
                if self.test(test, run) {
                    self.ops(then, run)?;
                } else {
                    self.ops(other, run)?;
                }
            }
            Op::While(test, body) => {
                let mut iteration = 0;
                while self.test(test, run) {
                    run.loop_guard(&mut iteration)?;
                    self.ops(body, run)?;
                }
            }
            Op::Mark => run.mark(),
            Op::MarkAt(at) => run.mark_at(*at)?,
            Op::Back => run.back()?,
            Op::Go(target) => match target {
                GoTarget::From => run.go_from()?,
                GoTarget::To => run.go_to(),
                GoTarget::Mark => run.go_mark()?,
                GoTarget::LastFrom => run.go_last_from()?,
                GoTarget::LastTo => run.go_last_to()?,
            },
            Op::Capture(at) => run.capture(*at)?,
            Op::Create { owner, kind, at } => run.create(*owner, *kind, *at)?,
            Op::ChangeType(kind, at) => run.change_type(*kind, *at)?,
            Op::ChangeOwner(at) => run.change_owner(*at)?,
            Op::Flip(at) => run.flip(*at)?,
            Op::SetAttribute(attribute, value) => {
                let value = self.test(value, run);
                run.set_attribute(*attribute, value);
            }
            Op::SetFlag(flag, value) => {
                let value = self.test(value, run);
                run.set_flag(*flag, value);
            }
            Op::SetPositionFlag(flag, value, at) => {
                let value = self.test(value, run);
                run.set_position_flag(*flag, value, *at)?;
            }
            Op::From => run.from(),
            Op::To => run.to(),
            Op::Cascade => run.cascade(),
            Op::Add {
                promote,
                placement,
                continuation,
            } => run.add(promote, *placement, *continuation),
        }
        Ok(())
    }

    fn test(&self, test: &Test, run: &Run<'_>) -> bool {
        match test {
            Test::Const(b) => *b,
            Test::Not(t) => !self.test(t, run),
            Test::And(ts) => ts.iter().all(|t| self.test(t, run)),
            Test::Or(ts) => ts.iter().any(|t| self.test(t, run)),
            Test::Empty(at) => run.empty(*at),
            Test::Occupied(at) => run.occupied(*at),
            Test::Friend(at) => run.friend(*at),
            Test::Enemy(at) => run.enemy(*at),
            Test::Neutral(at) => run.neutral(*at),
            Test::Piece(kind, at) => run.piece(*kind, *at),
            Test::InZone(zone, at) => run.in_zone(*zone, *at),
            Test::OnBoard(at) => run.on_board(*at),
            Test::Flag(flag) => run.flag(*flag),
            Test::PositionFlag(flag, at) => run.position_flag(*flag, *at),
            Test::Attribute(attribute, at) => run.attribute(*attribute, *at),
            Test::LastFrom(at) => run.last_from(*at),
            Test::LastTo(at) => run.last_to(*at),
            Test::AtPosition(pos, at) => run.at_position(*pos, *at),
            Test::Marked(at) => run.marked(*at),
            Test::AdjacentToEnemy(at) => run.adjacent_to_enemy(*at),
            Test::GoalPosition(at) => run.goal_position(*at),
            Test::Attacked { move_type, at, by } => {
                self.attack_guard.attacked(self, run, *move_type, *at, *by)
            }
        }
    }
}
