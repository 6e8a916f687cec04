//! Templates as operations of the runtime's [`zrf_runtime::Run`]: each [`Op`] and
//! [`Test`] is one call, with its arguments already in the runtime's types (narrowed
//! indices, [`Loc`]s). The decisions of how a statement of the IR maps onto the runtime
//! are taken here once; the interpreter then only performs the calls and the code
//! generator only prints them.

use zrf_runtime::{Attackers, Continuation, Dir, Kind, Loc, MoveType, Placement, PlayerIx, Pos};

use crate::ir::{self, AddKind, Block, Cond, GoTarget, Stmt};

/// The operations of one template body, in order.
pub type Ops = Vec<Op>;

/// One statement of a template as the runtime performs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// `run.step(dir)`: fails off the board.
    Step(Dir),
    /// `run.step_opposite(dir)`.
    StepOpposite(Dir),
    /// `run.jump(pos)`.
    Jump(Pos),
    /// Fails the run unless the test holds.
    Verify(Test),
    If(Test, Ops, Ops),
    /// A loop, bounded by the runtime's `loop_guard` on each iteration.
    While(Test, Ops),
    /// `run.mark()`.
    Mark,
    /// `run.mark_at(loc)`.
    MarkAt(Loc),
    /// `run.back()`.
    Back,
    /// `run.go_from()`, `run.go_to()`, ...
    Go(GoTarget),
    Capture(Loc),
    Create {
        owner: Option<PlayerIx>,
        kind: Option<Kind>,
        at: Loc,
    },
    ChangeType(Kind, Loc),
    ChangeOwner(Loc),
    Flip(Loc),
    SetAttribute(u8, Test),
    SetFlag(usize, Test),
    SetPositionFlag(usize, Test, Loc),
    /// `run.from()`: picks up the piece here.
    From,
    /// `run.to()`: sets the piece down here.
    To,
    Cascade,
    /// `run.add(...)`: one step per promotion choice.
    Add {
        promote: Vec<Kind>,
        placement: Placement,
        continuation: Continuation,
    },
}

/// A condition as the runtime tests it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Test {
    /// Left by constant folding where a statement needs a value.
    Const(bool),
    Not(Box<Test>),
    And(Vec<Test>),
    Or(Vec<Test>),
    Empty(Loc),
    Occupied(Loc),
    Friend(Loc),
    Enemy(Loc),
    Neutral(Loc),
    Piece(Kind, Loc),
    InZone(u16, Loc),
    OnBoard(Loc),
    Flag(usize),
    PositionFlag(usize, Loc),
    Attribute(u8, Loc),
    LastFrom(Loc),
    LastTo(Loc),
    AtPosition(Pos, Loc),
    Marked(Loc),
    AdjacentToEnemy(Loc),
    GoalPosition(Loc),
    Attacked {
        move_type: Option<MoveType>,
        at: Loc,
        by: Attackers,
    },
}

/// The operations of a (folded) template body.
pub fn lower_block(block: &Block) -> Ops {
    block.iter().map(lower_stmt).collect()
}

fn lower_stmt(stmt: &Stmt) -> Op {
    match stmt {
        Stmt::Step(ir::Dir::Named(d)) => Op::Step(d.narrow()),
        Stmt::Step(ir::Dir::Opposite(d)) => Op::StepOpposite(d.narrow()),
        Stmt::Jump(p) => Op::Jump(p.0),
        Stmt::Verify(c) => Op::Verify(lower_cond(c)),
        Stmt::If(c, then, other) => Op::If(lower_cond(c), lower_block(then), lower_block(other)),
        Stmt::While(c, body) => Op::While(lower_cond(c), lower_block(body)),
        Stmt::Mark(None) => Op::Mark,
        Stmt::Mark(Some(at)) => Op::MarkAt(loc(Some(*at))),
        Stmt::Back => Op::Back,
        Stmt::Go(target) => Op::Go(*target),
        Stmt::Capture(at) => Op::Capture(loc(*at)),
        Stmt::Create { owner, piece, at } => Op::Create {
            owner: owner.map(|p| p.narrow()),
            kind: piece.map(|p| p.narrow()),
            at: loc(*at),
        },
        Stmt::ChangeType(piece, at) => Op::ChangeType(piece.narrow(), loc(*at)),
        Stmt::ChangeOwner(at) => Op::ChangeOwner(loc(*at)),
        Stmt::Flip(at) => Op::Flip(loc(*at)),
        Stmt::SetAttribute(a, value) => Op::SetAttribute(a.narrow(), lower_cond(value)),
        Stmt::SetFlag(f, value) => Op::SetFlag(f.index(), lower_cond(value)),
        Stmt::SetPositionFlag(f, value, at) => {
            Op::SetPositionFlag(f.index(), lower_cond(value), loc(*at))
        }
        Stmt::From => Op::From,
        Stmt::To => Op::To,
        Stmt::Cascade => Op::Cascade,
        Stmt::Add {
            kind,
            promote,
            continue_with,
        } => {
            let placement = match kind {
                AddKind::Add | AddKind::AddPartial => Placement::Move,
                AddKind::AddCopy | AddKind::AddCopyPartial => Placement::Copy,
            };
            let continuation = match kind {
                AddKind::Add | AddKind::AddCopy => Continuation::Complete,
                AddKind::AddPartial | AddKind::AddCopyPartial => {
                    Continuation::Partial(continue_with.map(|t| t.narrow()))
                }
            };
            Op::Add {
                promote: promote.iter().map(|p| p.narrow()).collect(),
                placement,
                continuation,
            }
        }
    }
}

fn lower_cond(cond: &Cond) -> Test {
    match cond {
        Cond::Const(b) => Test::Const(*b),
        Cond::Not(c) => Test::Not(Box::new(lower_cond(c))),
        Cond::And(cs) => Test::And(cs.iter().map(lower_cond).collect()),
        Cond::Or(cs) => Test::Or(cs.iter().map(lower_cond).collect()),
        Cond::Empty(at) => Test::Empty(loc(*at)),
        Cond::Occupied(at) => Test::Occupied(loc(*at)),
        Cond::Friend(at) => Test::Friend(loc(*at)),
        Cond::Enemy(at) => Test::Enemy(loc(*at)),
        Cond::Neutral(at) => Test::Neutral(loc(*at)),
        Cond::Piece(p, at) => Test::Piece(p.narrow(), loc(*at)),
        Cond::InZone(z, at) => Test::InZone(z.narrow(), loc(*at)),
        Cond::OnBoard(at) => Test::OnBoard(loc(*at)),
        Cond::Flag(f) => Test::Flag(f.index()),
        Cond::PositionFlag(f, at) => Test::PositionFlag(f.index(), loc(*at)),
        Cond::Attribute(a, at) => Test::Attribute(a.narrow(), loc(*at)),
        Cond::LastFrom(at) => Test::LastFrom(loc(*at)),
        Cond::LastTo(at) => Test::LastTo(loc(*at)),
        Cond::AtPosition(p, at) => Test::AtPosition(p.0, loc(*at)),
        Cond::Marked(at) => Test::Marked(loc(*at)),
        Cond::AdjacentToEnemy(at) => Test::AdjacentToEnemy(loc(*at)),
        Cond::GoalPosition(at) => Test::GoalPosition(loc(*at)),
        Cond::Attacked(t, at) => Test::Attacked {
            move_type: t.map(|t| t.narrow()),
            at: loc(*at),
            by: Attackers::Enemy,
        },
        Cond::Defended(t, at) => Test::Attacked {
            move_type: t.map(|t| t.narrow()),
            at: loc(*at),
            by: Attackers::Friends,
        },
    }
}

/// Where a statement looks or acts: here when the rules name no place.
fn loc(at: Option<ir::Loc>) -> Loc {
    match at {
        None => Loc::Here,
        Some(ir::Loc::Pos(p)) => Loc::Pos(p.0),
        Some(ir::Loc::Dir(ir::Dir::Named(d))) => Loc::Dir(d.narrow()),
        Some(ir::Loc::Dir(ir::Dir::Opposite(d))) => Loc::Opposite(d.narrow()),
    }
}
