//! The reach of each piece type's move templates ([`Reach`]): where a move of a piece
//! standing on a square could remove a piece, found by running the templates over sets
//! of abstract run states (current square, mark, `from`, `to`) with every condition taken
//! both ways. The attack test skips pieces whose reach misses the royal squares, so the
//! analysis must over-approximate: whatever it cannot follow makes the type unbounded.

use rustc_hash::FxHashMap;
use zrf_runtime::{Inconsistency, PieceSquares, Reach, ReachData, Tables, NO_POS};

use crate::ir::{self, AddKind, Block, Cond, Dir, GoTarget, Stmt};

/// Most bitset words worth emitting and keeping (a 512 KiB table); larger games get no
/// reach and test every piece.
const MAX_WORDS: usize = 1 << 16;

/// Most abstract steps for a whole game before giving up on it.
const MAX_WORK: usize = 20_000_000;

/// The reach of every piece type of `game`, and of each of its move templates where
/// that table is small enough; `None` if the game never asks whether a piece is attacked
/// (no `checkmated` goal, no `attacked?` or `defended?`), or is too large. An error is
/// a table of the wrong size: a mistake of this module.
pub fn reach(game: &ir::Game, tables: &Tables) -> Result<Option<Reach>, Inconsistency> {
    if !tables.has_royal_kinds() && !ir::visit::asks_attacked(&game.templates) {
        return Ok(None);
    }
    let players = tables.players.len();
    let kinds = tables.kinds();
    let positions = tables.positions.len();
    let layout = PieceSquares::new(players, kinds, positions);
    let words = layout.words();
    if layout.rows() > MAX_WORDS {
        return Ok(None);
    }
    let counts: Vec<u32> = game.pieces.iter().map(|p| p.moves.len() as u32).collect();
    let total: usize = counts.iter().map(|&c| c as usize).sum();
    // Each template's reach where it fits (each type's is then their union), else
    // each type's.
    let keep_templates = layout.template_rows(total) <= MAX_WORDS;
    let mut bounded = vec![true; layout.pairs()];
    let mut bits = vec![
        0u64;
        if keep_templates {
            layout.template_rows(total)
        } else {
            layout.rows()
        }
    ];
    // The most steps a piece could add from each square: the sum over its templates of
    // the most each could add (see `Walker::adds`).
    let mut step_bounds = vec![u16::MAX; layout.squares()];
    // Whether every step of the type starts from the square the piece stood on.
    let mut anchored = vec![true; layout.pairs()];
    // The other squares a step of a piece standing on each square may start on (the
    // piece a `cascade` picks up): a bitset per player, type and square.
    let mut starts_elsewhere = vec![0u64; layout.rows()];
    let mut work = 0;
    for player in 0..players {
        let mut first_template = 0;
        for (kind, piece) in game.pieces.iter().enumerate() {
            let slot = layout.pair(player, kind);
            let mut walker = Walker {
                tables,
                player,
                hits: Vec::new(),
                adds: 0,
                loose: false,
                starts: Vec::new(),
                unbounded: false,
                work: &mut work,
            };
            'squares: for from in 0..positions as u32 {
                let mut steps = 0usize;
                walker.starts.clear();
                for (number, template) in piece.moves.iter().enumerate() {
                    walker.hits.clear();
                    walker.adds = 0;
                    let start = AbstractRun {
                        start: from,
                        pos: from,
                        mark: NO_POS,
                        from,
                        to: NO_POS,
                        here_empty: false,
                        to_empty: false,
                        found_empty: [NO_POS; FOUND_EMPTY],
                    };
                    walker.block(&game.templates[template.template.index()], vec![(start, 0)]);
                    if walker.unbounded {
                        break 'squares;
                    }
                    steps = steps.saturating_add(walker.adds);
                    let set = if keep_templates {
                        layout.template_row(player, from as usize, first_template + number, total)
                    } else {
                        layout.row(player, kind, from as usize)
                    };
                    for &hit in &walker.hits {
                        bits[set + hit as usize / 64] |= 1 << (hit % 64);
                    }
                }
                step_bounds[layout.square(player, kind, from as usize)] =
                    u16::try_from(steps).unwrap_or(u16::MAX);
                let starts = &mut starts_elsewhere[layout.row(player, kind, from as usize)..];
                for &start in &walker.starts {
                    match starts.get_mut(start as usize / 64) {
                        Some(word) if (start as usize) < positions => *word |= 1 << (start % 64),
                        // Not a square: anywhere.
                        _ => starts[..words].fill(u64::MAX),
                    }
                }
            }
            anchored[slot] = !walker.loose;
            if walker.unbounded {
                bounded[slot] = false;
                step_bounds[layout.square(player, kind, 0)..][..positions].fill(u16::MAX);
                starts_elsewhere[layout.row(player, kind, 0)..][..positions * words].fill(u64::MAX);
            }
            if work > MAX_WORK {
                return Ok(None);
            }
            first_template += piece.moves.len();
        }
    }
    // Only loose types have starts elsewhere; without any, the table says nothing.
    let any_loose = starts_elsewhere.iter().any(|&bits| bits != 0);
    // Per type, its templates that may change a type (the 64th and later share bit 63).
    let promoting_templates: Vec<u64> = (game.pieces.iter())
        .map(|piece| {
            (piece.moves.iter().enumerate())
                .filter(|(_, m)| ir::visit::may_change_type(&game.templates[m.template.index()]))
                .fold(0, |bits, (number, _)| bits | 1 << number.min(63))
        })
        .collect();
    Reach::from_data(ReachData {
        players,
        kinds,
        positions,
        bounded: &bounded,
        templates_per_kind: keep_templates.then_some(&counts[..]),
        hits: &bits,
        step_bounds: &step_bounds,
        anchored: &anchored,
        starts_elsewhere: if any_loose { &starts_elsewhere } else { &[] },
        promoting_templates: if keep_templates {
            &promoting_templates
        } else {
            &[]
        },
    })
    .map(Some)
}

/// What a run knows about positions at one point of a template.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct AbstractRun {
    /// Where the run started: the piece's square.
    start: u32,
    pos: u32,
    mark: u32,
    from: u32,
    to: u32,
    /// Whether a test passed on the way here found the current square empty: a piece
    /// landing on it removes none (tests read the position before the move).
    here_empty: bool,
    /// The same of `to`, when it was set.
    to_empty: bool,
    /// The first few squares the run found empty (`NO_POS` after them): coming back to
    /// one, it knows it empty again (a castling's rook set down beside the king).
    found_empty: [u32; FOUND_EMPTY],
}

/// Squares found empty that a run remembers ([`AbstractRun::found_empty`]).
const FOUND_EMPTY: usize = 4;

impl AbstractRun {
    /// The run moved to `pos`: empty if the run found it so, else unknown.
    fn at(self, pos: u32) -> AbstractRun {
        AbstractRun {
            pos,
            here_empty: pos != NO_POS && self.found_empty.contains(&pos),
            ..self
        }
    }
}

/// An abstract run, with the most steps a concrete run in it may have added so far.
type Counted = (AbstractRun, usize);

struct Walker<'a> {
    tables: &'a Tables,
    player: usize,
    /// Squares from which an effect of the runs so far may remove a piece.
    hits: Vec<u32>,
    /// The most steps one concrete run of the template may add: the largest count an
    /// `add` reached, counting its promotion choices (or one).
    adds: usize,
    /// Whether some `add` may make a step that starts elsewhere than where the run
    /// started (after `from` or `cascade`).
    loose: bool,
    /// Where those steps may start, for the square walked from.
    starts: Vec<u32>,
    unbounded: bool,
    work: &'a mut usize,
}

impl Walker<'_> {
    /// The runs that get through `block` from `runs` (failed ones are dropped).
    fn block(&mut self, block: &Block, mut runs: Vec<Counted>) -> Vec<Counted> {
        for stmt in block {
            if runs.is_empty() || self.unbounded {
                return Vec::new();
            }
            runs = self.stmt(stmt, runs);
        }
        runs
    }

    fn stmt(&mut self, stmt: &Stmt, mut runs: Vec<Counted>) -> Vec<Counted> {
        *self.work += runs.len();
        if *self.work > MAX_WORK {
            self.unbounded = true;
            return Vec::new();
        }
        match stmt {
            Stmt::Step(dir) => with_each(runs, |r| {
                let pos = self.resolve(r.pos, Some(ir::Loc::Dir(*dir)));
                (pos != NO_POS).then_some(r.at(pos))
            }),
            Stmt::Jump(p) => with_each(runs, |r| Some(r.at(p.0))),
            Stmt::Verify(cond) => {
                runs.retain(|(r, _)| self.known(cond, r.pos) != Some(false));
                with_each(runs, |r| Some(tested(r, cond)))
            }
            Stmt::ChangeType(..)
            | Stmt::ChangeOwner(_)
            | Stmt::Flip(_)
            | Stmt::SetAttribute(..)
            | Stmt::SetFlag(..)
            | Stmt::SetPositionFlag(..) => runs,
            Stmt::If(cond, then, other) => {
                let (mut yes, mut no) = (Vec::new(), Vec::new());
                for run in runs {
                    match self.known(cond, run.0.pos) {
                        Some(true) => yes.push(run),
                        Some(false) => no.push(run),
                        None => {
                            yes.push(run);
                            no.push(run);
                        }
                    }
                }
                let yes = with_each(yes, |r| Some(tested(r, cond)));
                let mut out = self.block(then, yes);
                out.extend(self.block(other, no));
                merge(out)
            }
            Stmt::While(cond, body) => self.while_loop(cond, body, runs),
            Stmt::Mark(at) => with_each(runs, |r| {
                let mark = self.resolve(r.pos, *at);
                (mark != NO_POS).then_some(AbstractRun { mark, ..r })
            }),
            Stmt::Back | Stmt::Go(GoTarget::Mark) => {
                with_each(runs, |r| (r.mark != NO_POS).then_some(r.at(r.mark)))
            }
            Stmt::Go(GoTarget::From) => {
                with_each(runs, |r| (r.from != NO_POS).then_some(r.at(r.from)))
            }
            // Before any `to`, `(go to)` stays.
            Stmt::Go(GoTarget::To) => with_each(runs, |r| {
                Some(match r.to {
                    NO_POS => r,
                    to => {
                        let there = r.at(to);
                        AbstractRun {
                            here_empty: r.to_empty || there.here_empty,
                            ..there
                        }
                    }
                })
            }),
            Stmt::Go(GoTarget::LastFrom | GoTarget::LastTo) => {
                self.unbounded = true;
                Vec::new()
            }
            Stmt::Capture(at) | Stmt::Create { at, .. } => {
                for (r, _) in &runs {
                    let pos = self.resolve(r.pos, *at);
                    self.hit(pos);
                }
                runs.retain(|(r, _)| self.resolve(r.pos, *at) != NO_POS);
                runs
            }
            Stmt::From => with_each(runs, |r| Some(AbstractRun { from: r.pos, ..r })),
            Stmt::To => {
                for (r, _) in &runs {
                    if !r.here_empty {
                        self.hit(r.pos);
                    }
                }
                with_each(runs, |r| {
                    Some(AbstractRun {
                        to: r.pos,
                        to_empty: r.here_empty,
                        ..r
                    })
                })
            }
            // The held piece is set down at `to` (else here), removing what stands
            // there unless the run found the square empty; then `from` here, no `to`.
            Stmt::Cascade => {
                for (r, _) in &runs {
                    match r.to {
                        NO_POS if !r.here_empty => self.hit(r.pos),
                        NO_POS => {}
                        to if !r.to_empty => self.hit(to),
                        _ => {}
                    }
                }
                let out = runs
                    .into_iter()
                    .map(|(r, count)| {
                        let picked = AbstractRun {
                            from: r.pos,
                            to: NO_POS,
                            to_empty: false,
                            ..r
                        };
                        (picked, count)
                    })
                    .collect();
                merge(out)
            }
            Stmt::Add { kind, promote, .. } => {
                if matches!(kind, AddKind::AddPartial | AddKind::AddCopyPartial) {
                    self.unbounded = true;
                    return Vec::new();
                }
                for (r, count) in &mut runs {
                    // The piece lands at `to` when one was set, else here; on a square
                    // found empty it removes nothing.
                    if !r.here_empty {
                        self.hit(r.pos);
                    }
                    if !r.to_empty {
                        self.hit(r.to);
                    }
                    if r.from != r.start {
                        self.loose = true;
                        self.starts.push(r.from);
                    }
                    *count = count.saturating_add(promote.len().max(1));
                    self.adds = self.adds.max(*count);
                }
                runs
            }
        }
    }

    /// A `while` loop: its body from every run the test may let in, until no run comes
    /// back new (or with more steps than before); the runs the test may let out. A loop
    /// that may come back to a run with more steps each time (one that adds without
    /// moving) could add without end: its steps are not bounded.
    fn while_loop(&mut self, cond: &Cond, body: &Block, runs: Vec<Counted>) -> Vec<Counted> {
        let mut seen: FxHashMap<AbstractRun, usize> = FxHashMap::default();
        let mut frontier = merge(runs);
        seen.extend(frontier.iter().copied());
        let mut rounds = 0;
        while !frontier.is_empty() && !self.unbounded {
            frontier.retain(|(r, _)| self.known(cond, r.pos) != Some(false));
            let entering = with_each(frontier, |r| Some(tested(r, cond)));
            rounds += 1;
            // More rounds than runs: some run comes back with more steps.
            let counting = rounds <= seen.len() + 1;
            if !counting {
                self.adds = usize::MAX;
            }
            frontier = self
                .block(body, entering)
                .into_iter()
                .filter(|&(r, count)| match seen.get(&r) {
                    Some(&before) if !counting || before >= count => false,
                    _ => {
                        seen.insert(r, count);
                        true
                    }
                })
                .collect();
        }
        seen.into_iter()
            .filter(|(r, _)| self.known(cond, r.pos) != Some(true))
            .collect()
    }

    /// The value of `cond` at `pos`, when the board alone decides it (zones, edges).
    fn known(&self, cond: &Cond, pos: u32) -> Option<bool> {
        match cond {
            Cond::Const(value) => Some(*value),
            Cond::Not(inner) => self.known(inner, pos).map(|value| !value),
            Cond::And(all) => self.known_unless(all, pos, false),
            Cond::Or(any) => self.known_unless(any, pos, true),
            Cond::InZone(zone, at) => {
                let at = self.resolve(pos, *at);
                Some(self.tables.in_zone(zone.narrow(), self.player as u8, at))
            }
            Cond::OnBoard(at) => Some(self.resolve(pos, *at) != NO_POS),
            _ => None,
        }
    }

    /// `and` (`decisive` false) or `or` (true) of `conds` at `pos`: decided by any one
    /// known to be `decisive`, else known when all are.
    fn known_unless(&self, conds: &[Cond], pos: u32, decisive: bool) -> Option<bool> {
        let mut value = Some(!decisive);
        for cond in conds {
            match self.known(cond, pos) {
                Some(known) if known == decisive => return Some(decisive),
                Some(_) => {}
                None => value = None,
            }
        }
        value
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

/// `run` after `cond` was found true: it knows its square empty if `cond` says so, and
/// remembers it while it has room.
fn tested(run: AbstractRun, cond: &Cond) -> AbstractRun {
    let mut found_empty = run.found_empty;
    let newly_empty = !run.here_empty && says_empty_here(cond);
    if newly_empty {
        if let Some(slot) = found_empty.iter_mut().find(|p| **p == NO_POS) {
            *slot = run.pos;
        }
    }
    AbstractRun {
        here_empty: run.here_empty || newly_empty,
        found_empty,
        ..run
    }
}

/// Whether `cond`, when true, says the current square is empty.
fn says_empty_here(cond: &Cond) -> bool {
    match cond {
        Cond::Empty(None) => true,
        Cond::And(all) => all.iter().any(says_empty_here),
        _ => false,
    }
}

/// `runs` mapped through `f`, merged ([`merge`]); runs `f` drops fail.
fn with_each(
    runs: Vec<Counted>,
    mut f: impl FnMut(AbstractRun) -> Option<AbstractRun>,
) -> Vec<Counted> {
    merge(
        runs.into_iter()
            .filter_map(|(r, count)| Some((f(r)?, count)))
            .collect(),
    )
}

/// One entry per abstract run, with the most steps of its entries.
///
/// Runs that differ only in the squares they found empty merge into one that knows
/// only the squares all of them found empty: the number of runs stays that of the
/// places they can be in.
fn merge(runs: Vec<Counted>) -> Vec<Counted> {
    let place = |r: AbstractRun| AbstractRun {
        found_empty: [NO_POS; FOUND_EMPTY],
        ..r
    };
    let mut best: FxHashMap<AbstractRun, (AbstractRun, usize)> = FxHashMap::default();
    let mut order = Vec::with_capacity(runs.len());
    for (r, count) in runs {
        match best.get_mut(&place(r)) {
            Some((known, before)) => {
                *before = (*before).max(count);
                for square in &mut known.found_empty {
                    if !r.found_empty.contains(square) {
                        *square = NO_POS;
                    }
                }
            }
            None => {
                best.insert(place(r), (r, count));
                order.push(place(r));
            }
        }
    }
    order.into_iter().map(|key| best[&key]).collect()
}
