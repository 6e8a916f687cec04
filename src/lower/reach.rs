//! The reach of each piece type's move templates ([`Reach`]): where a move of a piece
//! standing on a square could remove a piece, found by running the templates over sets
//! of abstract run states (current square, mark, `from`, `to`) with every condition taken
//! both ways. The attack test skips pieces whose reach misses the royal squares, so the
//! analysis must over-approximate: whatever it cannot follow makes the type unbounded.

use rustc_hash::FxHashSet;
use zrf_runtime::{Reach, Tables, NO_POS};

use crate::ir::{self, AddKind, Block, Dir, GoTarget, Stmt};

/// Most bitset words worth emitting and keeping (a 512 KiB table); larger games get no
/// reach and test every piece.
const MAX_WORDS: usize = 1 << 16;

/// Most abstract steps for a whole game before giving up on it.
const MAX_WORK: usize = 20_000_000;

/// The reach of every piece type of `game`, and of each of its move templates where
/// that table is small enough; `None` if the game never asks whether a piece is attacked
/// (no `checkmated` goal, no `attacked?` or `defended?`), or is too large.
pub fn reach(game: &ir::Game, tables: &Tables) -> Option<Reach> {
    if !tables.has_royal_kinds() && !ir::visit::asks_attacked(&game.templates) {
        return None;
    }
    let players = tables.players.len();
    let kinds = tables.kinds();
    let positions = tables.positions.len();
    let words = positions.div_ceil(64);
    if players * kinds * positions * words > MAX_WORDS {
        return None;
    }
    let counts: Vec<u32> = game.pieces.iter().map(|p| p.moves.len() as u32).collect();
    let total: usize = counts.iter().map(|&c| c as usize).sum();
    // Each template's reach where it fits (each type's is then their union), else
    // each type's.
    let keep_templates = players * positions * total * words <= MAX_WORDS;
    let mut bounded = vec![true; players * kinds];
    let mut bits = vec![
        0u64;
        if keep_templates {
            players * positions * total * words
        } else {
            players * kinds * positions * words
        }
    ];
    let mut work = 0;
    for player in 0..players {
        let mut first_template = 0;
        for (kind, piece) in game.pieces.iter().enumerate() {
            let slot = player * kinds + kind;
            let mut walker = Walker {
                tables,
                player,
                hits: Vec::new(),
                unbounded: false,
                work: &mut work,
            };
            'squares: for from in 0..positions as u32 {
                for (number, template) in piece.moves.iter().enumerate() {
                    walker.hits.clear();
                    let start = AbstractRun {
                        pos: from,
                        mark: NO_POS,
                        from,
                        to: NO_POS,
                    };
                    walker.block(&game.templates[template.template.index()], vec![start]);
                    if walker.unbounded {
                        break 'squares;
                    }
                    let set = if keep_templates {
                        (player * positions + from as usize) * total + first_template + number
                    } else {
                        slot * positions + from as usize
                    } * words;
                    for &hit in &walker.hits {
                        bits[set + hit as usize / 64] |= 1 << (hit % 64);
                    }
                }
            }
            if walker.unbounded {
                bounded[slot] = false;
            }
            if work > MAX_WORK {
                return None;
            }
            first_template += piece.moves.len();
        }
    }
    Some(if keep_templates {
        Reach::from_templates(players, kinds, positions, bounded, counts, bits)
    } else {
        Reach::new(players, kinds, positions, bounded, bits)
    })
}

/// What a run knows about positions at one point of a template.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct AbstractRun {
    pos: u32,
    mark: u32,
    from: u32,
    to: u32,
}

struct Walker<'a> {
    tables: &'a Tables,
    player: usize,
    /// Squares an effect of the runs so far may land on.
    hits: Vec<u32>,
    unbounded: bool,
    work: &'a mut usize,
}

impl Walker<'_> {
    /// The runs that get through `block` from `runs` (failed ones are dropped).
    fn block(&mut self, block: &Block, mut runs: Vec<AbstractRun>) -> Vec<AbstractRun> {
        for stmt in block {
            if runs.is_empty() || self.unbounded {
                return Vec::new();
            }
            runs = self.stmt(stmt, runs);
        }
        runs
    }

    fn stmt(&mut self, stmt: &Stmt, runs: Vec<AbstractRun>) -> Vec<AbstractRun> {
        *self.work += runs.len();
        if *self.work > MAX_WORK {
            self.unbounded = true;
            return Vec::new();
        }
        match stmt {
            Stmt::Step(dir) => runs
                .into_iter()
                .filter_map(|r| {
                    let pos = self.resolve(r.pos, Some(ir::Loc::Dir(*dir)));
                    (pos != NO_POS).then_some(AbstractRun { pos, ..r })
                })
                .collect(),
            Stmt::Jump(p) => with_each(runs, |r| Some(AbstractRun { pos: p.0, ..r })),
            Stmt::Verify(_)
            | Stmt::ChangeType(..)
            | Stmt::ChangeOwner(_)
            | Stmt::Flip(_)
            | Stmt::SetAttribute(..)
            | Stmt::SetFlag(..)
            | Stmt::SetPositionFlag(..) => runs,
            Stmt::If(_, then, other) => {
                let mut out = self.block(then, runs.clone());
                out.extend(self.block(other, runs));
                dedup(out)
            }
            Stmt::While(_, body) => {
                let mut seen: FxHashSet<AbstractRun> = runs.iter().copied().collect();
                let mut frontier = runs;
                while !frontier.is_empty() && !self.unbounded {
                    frontier = self
                        .block(body, frontier)
                        .into_iter()
                        .filter(|r| seen.insert(*r))
                        .collect();
                }
                seen.into_iter().collect()
            }
            Stmt::Mark(at) => with_each(runs, |r| {
                let mark = self.resolve(r.pos, *at);
                (mark != NO_POS).then_some(AbstractRun { mark, ..r })
            }),
            Stmt::Back | Stmt::Go(GoTarget::Mark) => with_each(runs, |r| {
                (r.mark != NO_POS).then_some(AbstractRun { pos: r.mark, ..r })
            }),
            Stmt::Go(GoTarget::From) => with_each(runs, |r| {
                (r.from != NO_POS).then_some(AbstractRun { pos: r.from, ..r })
            }),
            Stmt::Go(GoTarget::To) => with_each(runs, |r| {
                (r.to != NO_POS).then_some(AbstractRun { pos: r.to, ..r })
            }),
            Stmt::Go(GoTarget::LastFrom | GoTarget::LastTo) => {
                self.unbounded = true;
                Vec::new()
            }
            Stmt::Capture(at) | Stmt::Create { at, .. } => {
                for r in &runs {
                    let pos = self.resolve(r.pos, *at);
                    self.hit(pos);
                }
                runs.into_iter()
                    .filter(|r| self.resolve(r.pos, *at) != NO_POS)
                    .collect()
            }
            Stmt::From => with_each(runs, |r| Some(AbstractRun { from: r.pos, ..r })),
            Stmt::To => {
                for r in &runs {
                    self.hit(r.pos);
                }
                with_each(runs, |r| Some(AbstractRun { to: r.pos, ..r }))
            }
            // `to` only if a piece is held (which the walk does not follow), then `from`.
            Stmt::Cascade => {
                let mut out = Vec::with_capacity(runs.len() * 2);
                for r in runs {
                    self.hit(r.pos);
                    out.push(AbstractRun { from: r.pos, ..r });
                    out.push(AbstractRun {
                        from: r.pos,
                        to: r.pos,
                        ..r
                    });
                }
                dedup(out)
            }
            Stmt::Add { kind, .. } => {
                if matches!(kind, AddKind::AddPartial | AddKind::AddCopyPartial) {
                    self.unbounded = true;
                    return Vec::new();
                }
                for r in &runs {
                    self.hit(r.pos);
                }
                runs
            }
        }
    }

    fn hit(&mut self, pos: u32) {
        if pos != NO_POS && !self.hits.contains(&pos) {
            self.hits.push(pos);
        }
    }

    /// The square `at` names from `pos`, as [`zrf_runtime::Run::resolve`] finds it.
    fn resolve(&self, pos: u32, at: Option<ir::Loc>) -> u32 {
        let symmetry = self
            .tables
            .symmetry
            .get(self.player)
            .map_or(&[][..], Vec::as_slice);
        let turned = |d: ir::DirectionId| {
            symmetry
                .get(d.index())
                .copied()
                .unwrap_or(d.narrow::<u16>())
        };
        match at {
            None => pos,
            Some(ir::Loc::Pos(p)) => p.0,
            Some(ir::Loc::Dir(Dir::Named(d))) => self.tables.link(pos, turned(d)),
            Some(ir::Loc::Dir(Dir::Opposite(d))) => self
                .tables
                .opposite
                .get(turned(d) as usize)
                .copied()
                .flatten()
                .map_or(NO_POS, |o| self.tables.link(pos, o)),
        }
    }
}

fn with_each(
    runs: Vec<AbstractRun>,
    f: impl FnMut(AbstractRun) -> Option<AbstractRun>,
) -> Vec<AbstractRun> {
    dedup(runs.into_iter().filter_map(f).collect())
}

fn dedup(mut runs: Vec<AbstractRun>) -> Vec<AbstractRun> {
    let mut seen = FxHashSet::default();
    runs.retain(|r| seen.insert(*r));
    runs
}
