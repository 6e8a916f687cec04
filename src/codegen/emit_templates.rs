//! Move and drop templates as straight-line Rust: each template body becomes a method of
//! the game's `Rules`, its operations ([`crate::lower::Op`]) printed as the calls of the
//! runtime's [`zrf_runtime::Run`] primitives that the interpreter performs. The templates
//! come folded ([`crate::ir::fold`]); the known conditions left (a `verify` that always
//! fails, a loop that never ends) print as such.

use zrf_runtime::{Attackers, Continuation, Loc, Placement};

use crate::lower::{GoTarget, Op, Test};

use super::writer::RustWriter;
use super::Names;

/// Emits one template body; returns nothing, the body ends in `Ok(())` when it can.
pub(super) fn emit_template_body(w: &mut RustWriter, block: &[Op], names: &Names) {
    let mut emitter = Emitter { names, loops: 0 };
    if !emitter.block(w, block) {
        w.line("Ok(())");
    }
}

struct Emitter<'a> {
    names: &'a Names,
    /// Loops opened so far, for distinct iteration counters.
    loops: usize,
}

impl Emitter<'_> {
    /// Emits the statements of `block`; true if control never leaves its end (every
    /// path fails), so nothing may follow.
    fn block(&mut self, w: &mut RustWriter, block: &[Op]) -> bool {
        block.iter().any(|stmt| self.stmt(w, stmt))
    }

    fn stmt(&mut self, w: &mut RustWriter, stmt: &Op) -> bool {
        let names = self.names;
        match stmt {
            Op::Step(d) => w.line(format!("run.step(dir::{})?;", names.dir(*d))),
            Op::StepOpposite(d) => w.line(format!("run.step_opposite(dir::{})?;", names.dir(*d))),
            Op::Jump(p) => w.line(format!("run.jump(pos::{});", names.pos(*p))),
            Op::Verify(c) => match c {
                Test::Const(false) => {
                    w.line("return Err(Fail);");
                    return true;
                }
                c => w.block(format!("if {}", self.negated(c)), |w| {
                    w.line("return Err(Fail);")
                }),
            },
            Op::If(c, then, other) => {
                w.line(format!("if {} {{", self.expr(c).0));
                let mut diverges = self.indented(w, |e, w| e.block(w, then));
                let mut other = other;
                // An else branch that is one more test continues as `else if`, so that
                // long chains (a stacking game tests dozens of piece types) stay flat
                // instead of nesting ever deeper.
                while let [Op::If(next, then, rest)] = other.as_slice() {
                    w.line(format!("}} else if {} {{", self.expr(next).0));
                    diverges &= self.indented(w, |e, w| e.block(w, then));
                    other = rest;
                }
                if other.is_empty() {
                    w.line("}");
                    return false;
                }
                w.line("} else {");
                diverges &= self.indented(w, |e, w| e.block(w, other));
                w.line("}");
                return diverges;
            }
            Op::While(c, body) => {
                let counter = self.counter();
                match c {
                    Test::Const(true) => {
                        w.line(format!("let mut {counter} = 0;"));
                        w.line("loop {");
                        self.loop_body(w, &counter, body);
                        w.line("}");
                        return true;
                    }
                    c => {
                        w.line(format!("let mut {counter} = 0;"));
                        w.line(format!("while {} {{", self.expr(c).0));
                        self.loop_body(w, &counter, body);
                        w.line("}");
                    }
                }
            }
            Op::Mark => w.line("run.mark();"),
            Op::MarkAt(at) => w.line(format!("run.mark_at({})?;", self.loc(*at))),
            Op::Back => w.line("run.back()?;"),
            Op::Go(target) => w.line(match target {
                GoTarget::From => "run.go_from()?;",
                GoTarget::To => "run.go_to();",
                GoTarget::Mark => "run.go_mark()?;",
                GoTarget::LastFrom => "run.go_last_from()?;",
                GoTarget::LastTo => "run.go_last_to()?;",
            }),
            Op::Capture(at) => w.line(format!("run.capture({})?;", self.loc(*at))),
            Op::Create { owner, kind, at } => {
                let owner = owner.map_or("None".to_string(), |p| {
                    format!("Some(player::{})", names.player(p))
                });
                let kind = kind.map_or("None".to_string(), |k| {
                    format!("Some(kind::{})", names.kind(k))
                });
                w.line(format!("run.create({owner}, {kind}, {})?;", self.loc(*at)));
            }
            Op::ChangeType(piece, at) => w.line(format!(
                "run.change_type(kind::{}, {})?;",
                names.kind(*piece),
                self.loc(*at)
            )),
            Op::ChangeOwner(at) => w.line(format!("run.change_owner({})?;", self.loc(*at))),
            Op::Flip(at) => w.line(format!("run.flip({})?;", self.loc(*at))),
            Op::SetAttribute(a, value) => w.line(format!(
                "run.set_attribute(attribute::{}, {});",
                names.attributes[usize::from(*a)],
                self.expr(value).0
            )),
            Op::SetFlag(f, value) => w.line(format!(
                "run.set_flag(flag::{}, {});",
                names.flags[*f],
                self.expr(value).0
            )),
            Op::SetPositionFlag(f, value, at) => w.line(format!(
                "run.set_position_flag(position_flag::{}, {}, {})?;",
                names.position_flags[*f],
                self.expr(value).0,
                self.loc(*at)
            )),
            Op::From => w.line("run.from();"),
            Op::To => w.line("run.to();"),
            Op::Cascade => w.line("run.cascade();"),
            Op::Add {
                promote,
                placement,
                continuation,
            } => {
                let promote: Vec<String> = promote
                    .iter()
                    .map(|k| format!("kind::{}", names.kind(*k)))
                    .collect();
                let placement = match placement {
                    Placement::Move => "Placement::Move",
                    Placement::Copy => "Placement::Copy",
                };
                let continuation = match continuation {
                    Continuation::Complete => "Continuation::Complete".to_string(),
                    Continuation::Partial(move_type) => format!(
                        "Continuation::Partial({})",
                        names.optional_move_type(*move_type)
                    ),
                };
                w.line(format!(
                    "run.add(&[{}], {placement}, {continuation});",
                    promote.join(", ")
                ));
            }
        }
        false
    }

    /// Runs `emit` one indentation level deeper (the branches of an `if` need `self`,
    /// which the writer's closure-taking blocks cannot lend).
    fn indented<R>(
        &mut self,
        w: &mut RustWriter,
        emit: impl FnOnce(&mut Self, &mut RustWriter) -> R,
    ) -> R {
        w.indent();
        let result = emit(self, w);
        w.dedent();
        result
    }

    fn loop_body(&mut self, w: &mut RustWriter, counter: &str, body: &[Op]) {
        self.indented(w, |e, w| {
            w.line(format!("run.loop_guard(&mut {counter})?;"));
            e.block(w, body)
        });
    }

    fn counter(&mut self) -> String {
        self.loops += 1;
        match self.loops {
            1 => "iterations".to_string(),
            n => format!("iterations_{n}"),
        }
    }

    fn loc(&self, at: Loc) -> String {
        match at {
            Loc::Here => "Loc::Here".to_string(),
            Loc::Pos(p) => format!("Loc::Pos(pos::{})", self.names.pos(p)),
            Loc::Dir(d) => format!("Loc::Dir(dir::{})", self.names.dir(d)),
            Loc::Opposite(d) => format!("Loc::Opposite(dir::{})", self.names.dir(d)),
        }
    }

    /// `!cond`, parenthesised when needed.
    fn negated(&self, cond: &Test) -> String {
        match cond {
            Test::Not(inner) => self.expr(inner).0,
            c => {
                let (text, precedence) = self.expr(c);
                if precedence == Precedence::Atom {
                    format!("!{text}")
                } else {
                    format!("!({text})")
                }
            }
        }
    }

    /// A folded condition as a Rust expression, with its precedence.
    fn expr(&self, cond: &Test) -> (String, Precedence) {
        let names = self.names;
        let atom = |text: String| (text, Precedence::Atom);
        let at = |method: &str, loc: &Loc| atom(format!("run.{method}({})", self.loc(*loc)));
        match cond {
            Test::Const(b) => atom(b.to_string()),
            Test::Not(c) => (self.negated(c), Precedence::Atom),
            Test::And(cs) => (self.joined(cs, " && ", Precedence::And), Precedence::And),
            Test::Or(cs) => (self.joined(cs, " || ", Precedence::Or), Precedence::Or),
            Test::Empty(l) => at("empty", l),
            Test::Occupied(l) => at("occupied", l),
            Test::Friend(l) => at("friend", l),
            Test::Enemy(l) => at("enemy", l),
            Test::Neutral(l) => at("neutral", l),
            Test::Piece(p, l) => atom(format!(
                "run.piece(kind::{}, {})",
                names.kind(*p),
                self.loc(*l)
            )),
            Test::InZone(z, l) => atom(format!(
                "run.in_zone(zone::{}, {})",
                names.zones[usize::from(*z)],
                self.loc(*l)
            )),
            Test::OnBoard(l) => at("on_board", l),
            Test::Flag(f) => atom(format!("run.flag(flag::{})", names.flags[*f])),
            Test::PositionFlag(f, l) => atom(format!(
                "run.position_flag(position_flag::{}, {})",
                names.position_flags[*f],
                self.loc(*l)
            )),
            Test::Attribute(a, l) => atom(format!(
                "run.attribute(attribute::{}, {})",
                names.attributes[usize::from(*a)],
                self.loc(*l)
            )),
            Test::LastFrom(l) => at("last_from", l),
            Test::LastTo(l) => at("last_to", l),
            Test::AtPosition(p, at) => atom(format!(
                "run.at_position(pos::{}, {})",
                names.pos(*p),
                self.loc(*at)
            )),
            Test::Marked(l) => at("marked", l),
            Test::AdjacentToEnemy(l) => at("adjacent_to_enemy", l),
            Test::GoalPosition(l) => at("goal_position", l),
            Test::Attacked { move_type, at, by } => atom(format!(
                "self.attack_guard.attacked(self, run, {}, {}, Attackers::{})",
                names.optional_move_type(*move_type),
                self.loc(*at),
                match by {
                    Attackers::Enemy => "Enemy",
                    Attackers::Friends => "Friends",
                }
            )),
        }
    }

    fn joined(&self, cs: &[Test], separator: &str, outer: Precedence) -> String {
        let parts: Vec<String> = cs
            .iter()
            .map(|c| {
                let (text, precedence) = self.expr(c);
                if precedence < outer {
                    format!("({text})")
                } else {
                    text
                }
            })
            .collect();
        parts.join(separator)
    }
}

/// How tightly an expression binds: `||` < `&&` < a call or literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Precedence {
    Or,
    And,
    Atom,
}
