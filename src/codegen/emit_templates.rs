//! Move and drop templates as straight-line Rust: each template body becomes a method of
//! the game's `Rules` calling the runtime's [`zrf_runtime::Run`] primitives (the ones the
//! interpreter calls). The templates come folded ([`crate::ir::fold`]); the known
//! conditions left (a `verify` that always fails, a loop that never ends) print as such.

use crate::ir::{self, AddKind, Block, Cond, Dir, GoTarget, Stmt};

use super::writer::RustWriter;
use super::Names;

/// Emits one template body; returns nothing, the body ends in `Ok(())` when it can.
pub(super) fn emit_template_body(w: &mut RustWriter, block: &Block, names: &Names) {
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
    fn block(&mut self, w: &mut RustWriter, block: &Block) -> bool {
        block.iter().any(|stmt| self.stmt(w, stmt))
    }

    fn stmt(&mut self, w: &mut RustWriter, stmt: &Stmt) -> bool {
        let names = self.names;
        match stmt {
            Stmt::Step(Dir::Named(d)) => w.line(format!("run.step(dir::{})?;", names.dir(*d))),
            Stmt::Step(Dir::Opposite(d)) => {
                w.line(format!("run.step_opposite(dir::{})?;", names.dir(*d)))
            }
            Stmt::Jump(p) => w.line(format!("run.jump(pos::{});", names.pos(*p))),
            Stmt::Verify(c) => match c {
                Cond::Const(false) => {
                    w.line("return Err(Fail);");
                    return true;
                }
                c => w.block(format!("if {}", self.negated(c)), |w| {
                    w.line("return Err(Fail);")
                }),
            },
            Stmt::If(c, then, other) => {
                w.line(format!("if {} {{", self.expr(c).0));
                let mut diverges = self.indented(w, |e, w| e.block(w, then));
                let mut other = other;
                // An else branch that is one more test continues as `else if`, so that
                // long chains (a stacking game tests dozens of piece types) stay flat
                // instead of nesting ever deeper.
                while let [Stmt::If(next, then, rest)] = other.as_slice() {
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
            Stmt::While(c, body) => {
                let counter = self.counter();
                match c {
                    Cond::Const(true) => {
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
            Stmt::Mark(None) => w.line("run.mark();"),
            Stmt::Mark(at) => w.line(format!("run.mark_at({})?;", self.loc(*at))),
            Stmt::Back => w.line("run.back()?;"),
            Stmt::Go(target) => w.line(match target {
                GoTarget::From => "run.go_from()?;",
                GoTarget::To => "run.go_to()?;",
                GoTarget::Mark => "run.go_mark()?;",
                GoTarget::LastFrom => "run.go_last_from()?;",
                GoTarget::LastTo => "run.go_last_to()?;",
            }),
            Stmt::Capture(at) => w.line(format!("run.capture({})?;", self.loc(*at))),
            Stmt::Create { owner, piece, at } => {
                let owner = owner.map_or("None".to_string(), |p| {
                    format!("Some(player::{})", names.player(p))
                });
                let kind = piece.map_or("None".to_string(), |k| {
                    format!("Some(kind::{})", names.kind(k))
                });
                w.line(format!("run.create({owner}, {kind}, {})?;", self.loc(*at)));
            }
            Stmt::ChangeType(piece, at) => w.line(format!(
                "run.change_type(kind::{}, {})?;",
                names.kind(*piece),
                self.loc(*at)
            )),
            Stmt::ChangeOwner(at) => w.line(format!("run.change_owner({})?;", self.loc(*at))),
            Stmt::Flip(at) => w.line(format!("run.flip({})?;", self.loc(*at))),
            Stmt::SetAttribute(a, value) => w.line(format!(
                "run.set_attribute(attribute::{}, {});",
                names.attributes[a.index()],
                self.expr(value).0
            )),
            Stmt::SetFlag(f, value) => w.line(format!(
                "run.set_flag(flag::{}, {});",
                names.flags[f.index()],
                self.expr(value).0
            )),
            Stmt::SetPositionFlag(f, value, at) => w.line(format!(
                "run.set_position_flag(position_flag::{}, {}, {})?;",
                names.position_flags[f.index()],
                self.expr(value).0,
                self.loc(*at)
            )),
            Stmt::From => w.line("run.from()?;"),
            Stmt::To => w.line("run.to();"),
            Stmt::Cascade => w.line("run.cascade()?;"),
            Stmt::Add {
                kind,
                promote,
                continue_with,
            } => {
                let promote: Vec<String> = promote
                    .iter()
                    .map(|k| format!("kind::{}", names.kind(*k)))
                    .collect();
                let copy = matches!(kind, AddKind::AddCopy | AddKind::AddCopyPartial);
                let partial = if matches!(kind, AddKind::AddPartial | AddKind::AddCopyPartial) {
                    format!("Some({})", names.optional_move_type(*continue_with))
                } else {
                    "None".to_string()
                };
                w.line(format!(
                    "run.add(&[{}], {copy}, {partial});",
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

    fn loop_body(&mut self, w: &mut RustWriter, counter: &str, body: &Block) {
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

    fn loc(&self, at: Option<ir::Loc>) -> String {
        match at {
            None => "Loc::Here".to_string(),
            Some(ir::Loc::Pos(p)) => format!("Loc::Pos(pos::{})", self.names.pos(p)),
            Some(ir::Loc::Dir(Dir::Named(d))) => format!("Loc::Dir(dir::{})", self.names.dir(d)),
            Some(ir::Loc::Dir(Dir::Opposite(d))) => {
                format!("Loc::Opposite(dir::{})", self.names.dir(d))
            }
        }
    }

    /// `!cond`, parenthesised when needed.
    fn negated(&self, cond: &Cond) -> String {
        match cond {
            Cond::Not(inner) => self.expr(inner).0,
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
    fn expr(&self, cond: &Cond) -> (String, Precedence) {
        let names = self.names;
        let atom = |text: String| (text, Precedence::Atom);
        let at =
            |method: &str, loc: &Option<ir::Loc>| atom(format!("run.{method}({})", self.loc(*loc)));
        match cond {
            Cond::Const(b) => atom(b.to_string()),
            Cond::Not(c) => (self.negated(c), Precedence::Atom),
            Cond::And(cs) => (self.joined(cs, " && ", Precedence::And), Precedence::And),
            Cond::Or(cs) => (self.joined(cs, " || ", Precedence::Or), Precedence::Or),
            Cond::Empty(l) => at("empty", l),
            Cond::Friend(l) => at("friend", l),
            Cond::Enemy(l) => at("enemy", l),
            Cond::Neutral(l) => at("neutral", l),
            Cond::Piece(p, l) => atom(format!(
                "run.piece(kind::{}, {})",
                names.kind(*p),
                self.loc(*l)
            )),
            Cond::InZone(z, l) => atom(format!(
                "run.in_zone(zone::{}, {})",
                names.zones[z.index()],
                self.loc(*l)
            )),
            Cond::OnBoard(l) => at("on_board", l),
            Cond::Flag(f) => atom(format!("run.flag(flag::{})", names.flags[f.index()])),
            Cond::PositionFlag(f, l) => atom(format!(
                "run.position_flag(position_flag::{}, {})",
                names.position_flags[f.index()],
                self.loc(*l)
            )),
            Cond::Attribute(a, l) => atom(format!(
                "run.attribute(attribute::{}, {})",
                names.attributes[a.index()],
                self.loc(*l)
            )),
            Cond::LastFrom(l) => at("last_from", l),
            Cond::LastTo(l) => at("last_to", l),
            Cond::AtPosition(p, at) => atom(format!(
                "run.at_position(pos::{}, {})",
                names.pos(*p),
                self.loc(*at)
            )),
            Cond::Marked(l) => at("marked", l),
            Cond::AdjacentToEnemy(l) => at("adjacent_to_enemy", l),
            Cond::GoalPosition(l) => at("goal_position", l),
            Cond::Attacked(t, l) => atom(format!(
                "self.attack_guard.attacked(self, run, {}, {}, false)",
                names.optional_move_type(*t),
                self.loc(*l)
            )),
            Cond::Defended(t, l) => atom(format!(
                "self.attack_guard.attacked(self, run, {}, {}, true)",
                names.optional_move_type(*t),
                self.loc(*l)
            )),
        }
    }

    fn joined(&self, cs: &[Cond], separator: &str, outer: Precedence) -> String {
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
