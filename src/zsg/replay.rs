//! Replaying a saved game against an engine: every move record must be reproduced by one
//! of the engine's legal moves, or by a continuation of the partial move in progress.
//!
//! A record matches a generated step when both lead to the same position (zsg-format.md
//! §5.1): same type and owner on every square, same attribute values on occupied squares,
//! and the same "partial move continues" status. The record is applied with Zillions'
//! model (movements lifted and put down together, then changes in the order written),
//! the step with the runtime's. Attribute numbers in records are Zillions' internal
//! ones, so the mapping to the game's attributes is learned from the first records that
//! write each number (§3.5).
//!
//! Turns are tracked by the engine's turn order, not by the record's turn number (§5.2).

use rustc_hash::FxHashMap;
use zrf_runtime::{
    Change, Engine, Kind, Move, Outcome, Piece, PlayerIx, Pos, State, Step, Templates,
};

use super::{Effect, Record, RecordKind, SavedGame};
use crate::source::Span;

/// How far a replay got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// Records in the file (board edits included).
    pub records: usize,
    /// Records reproduced (or applied, for board edits) before the first divergence.
    pub replayed: usize,
    pub divergence: Option<Divergence>,
    /// Records that more than one distinct engine step reproduced.
    pub ambiguous: usize,
    /// Move records whose turn number is not the one the turn order gives (the first
    /// such record, and how many).
    pub turn_numbers_differ: Option<(usize, usize)>,
    /// Where the engine declared the game over while records continued, and its verdict.
    pub over_early: Option<(usize, Outcome)>,
    /// The result the engine gives after the last record, if the game is over there.
    pub outcome: Option<Outcome>,
    /// Zillions' attribute numbers and the attribute each was found to be.
    pub attributes: Vec<(u32, String)>,
}

/// The first record the engine cannot reproduce.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// Index into the saved game's records.
    pub record: usize,
    /// Where the record is in the file, and its text (records are read one at a time
    /// and not kept).
    pub span: Span,
    pub text: String,
    pub reason: String,
    /// The position the record was played from, one line per player.
    pub board: Vec<String>,
    /// The engine's moves (or continuations) there, in saved-game notation.
    pub candidates: Vec<String>,
    /// The candidate whose position comes closest to the record's, and the squares
    /// where they differ.
    pub closest: Option<(String, Vec<String>)>,
}

/// A divergence found while replaying a record, before it is placed in the file.
struct Diverged {
    record: usize,
    reason: String,
    board: Vec<String>,
    candidates: Vec<String>,
    closest: Option<(String, Vec<String>)>,
}

/// Replays `game` from the engine's start position.
pub fn replay<T: Templates>(engine: &Engine<T>, game: &SavedGame) -> Replay {
    replay_records(engine, game.records.iter().cloned(), game.records.len())
}

/// Replays records as they are read, `total` of them, from the engine's start
/// position: each is dropped once replayed, so memory does not grow with the file.
pub fn replay_records<T: Templates>(
    engine: &Engine<T>,
    records: impl Iterator<Item = Record>,
    total: usize,
) -> Replay {
    Replayer::new(engine).run(records, total, engine.start()).0
}

/// Whether the records the engine writes for `mv` in `state` replay, from `state`, to the
/// position `mv` leads to; why not, otherwise. Every move must survive this round trip
/// through its own notation.
pub fn turn_round_trips<T: Templates>(
    engine: &Engine<T>,
    state: &State,
    mv: &Move,
) -> Result<(), String> {
    let tables = &engine.tables;
    let records = zrf_runtime::turn_records(tables, state, mv);
    let text = zrf_runtime::saved_game(tables, "rules.zrf", &[], &records);
    let mut sources = crate::source::SourceMap::new();
    let file = sources.add("turn.zsg", text.into_bytes());
    let (saved, errors) = super::parse(file, sources.file(file), Some(&tables.player_names()));
    let saved = match (saved, errors.first()) {
        (Some(saved), None) => saved,
        (_, error) => return Err(format!("{records:?} do not parse: {error:?}")),
    };
    let total = saved.records.len();
    let (report, after) =
        Replayer::new(engine).run(saved.records.into_iter(), total, state.clone());
    if let Some(divergence) = report.divergence {
        let nearest = match &divergence.closest {
            Some((candidate, differences)) => {
                format!("; nearest `{candidate}`: {}", differences.join("; "))
            }
            None => String::new(),
        };
        return Err(format!(
            "{:?}: {}{nearest}",
            records.get(divergence.record),
            divergence.reason
        ));
    }
    let expected = engine.play(state, mv);
    if after.position_hash(tables) != expected.position_hash(tables) {
        let mut differences = differences(&after, &expected, tables);
        if differences.is_empty() {
            differences.push("the same board, other pieces in hand or turn".to_string());
        }
        return Err(format!(
            "{records:?} replay to another position: {}",
            differences.join("; ")
        ));
    }
    Ok(())
}

struct Replayer<'a, T> {
    engine: &'a Engine<T>,
    names: Names,
    attributes: AttributeMap,
    ambiguous: usize,
    over_early: Option<(usize, Outcome)>,
}

/// A turn whose steps are being matched one record at a time.
struct TurnInProgress {
    moves: Vec<Move>,
    /// Moves whose first `matched` steps reproduce the records so far.
    alive: Vec<usize>,
    matched: usize,
    /// The position after those steps.
    board: State,
}

impl<'a, T: Templates> Replayer<'a, T> {
    fn new(engine: &'a Engine<T>) -> Self {
        Replayer {
            engine,
            names: Names::new(engine),
            attributes: AttributeMap::default(),
            ambiguous: 0,
            over_early: None,
        }
    }

    /// The replay of `records` (`total` of them) from `state`, and the position it
    /// ended in.
    fn run(
        mut self,
        records: impl Iterator<Item = Record>,
        total: usize,
        mut state: State,
    ) -> (Replay, State) {
        let mut turn: Option<TurnInProgress> = None;
        let mut moves_seen = false;
        let mut divergence = None;
        let mut replayed = 0;
        let mut turn_numbers_differ: Option<(usize, usize)> = None;
        for (index, record) in records.enumerate() {
            let result = match &record.kind {
                RecordKind::Clear { .. } | RecordKind::Put { .. } if moves_seen => {
                    Err(self.diverge(index, "a board edit after the first move", &state, &[]))
                }
                RecordKind::Clear { pos } => self
                    .names
                    .position(pos)
                    .map(|pos| state.put(pos, None))
                    .map_err(|reason| self.diverge(index, &reason, &state, &[])),
                RecordKind::Put { player, piece, pos } => self
                    .names
                    .created(player, piece, pos)
                    .map(|(pos, piece)| state.put(pos, Some(piece)))
                    .map_err(|reason| self.diverge(index, &reason, &state, &[])),
                RecordKind::Move {
                    turn: number,
                    partial,
                    effects,
                } => {
                    moves_seen = true;
                    self.move_record(index, partial.is_some(), effects, &mut state, &mut turn)
                        .map(|played_in| {
                            if self.engine.tables.turn_number(played_in) != *number {
                                turn_numbers_differ.get_or_insert((index, 0)).1 += 1;
                            }
                        })
                }
            };
            match result {
                Ok(()) => replayed += 1,
                Err(diverged) => {
                    let Diverged {
                        record: index,
                        reason,
                        board,
                        candidates,
                        closest,
                    } = *diverged;
                    divergence = Some(Divergence {
                        record: index,
                        span: record.span,
                        text: super::record_text(&record.kind),
                        reason,
                        board,
                        candidates,
                        closest,
                    });
                    break;
                }
            }
        }
        if divergence.is_none() {
            if let Some(turn) = turn.take() {
                if let Some(&done) = turn
                    .alive
                    .iter()
                    .find(|&&i| turn.moves[i].steps.len() == turn.matched)
                {
                    state = self.engine.play(&state, &turn.moves[done]);
                }
            }
        }
        let outcome = if divergence.is_none() {
            let moves = self.engine.legal_moves(&state);
            self.engine.outcome(&state, &moves)
        } else {
            None
        };
        let report = Replay {
            records: total,
            replayed,
            divergence,
            ambiguous: self.ambiguous,
            turn_numbers_differ,
            over_early: self.over_early,
            outcome,
            attributes: self.attributes.learned(&self.engine.tables.attributes),
        };
        (report, state)
    }

    fn move_record(
        &mut self,
        index: usize,
        partial: bool,
        effects: &[Effect],
        state: &mut State,
        turn: &mut Option<TurnInProgress>,
    ) -> Result<u32, Box<Diverged>> {
        let effects = match self.names.resolve(effects) {
            Ok(effects) => effects,
            Err(reason) => {
                let board = turn.as_ref().map_or(&*state, |t| &t.board);
                return Err(self.diverge(index, &reason, board, &[]));
            }
        };
        if let Some(current) = turn.as_mut() {
            // With "pass partial" a player may stop a partial move: Zillions records that
            // as `Pass` (MancalaKnights.zsg record 60).
            if effects.as_slice() == [Resolved::Pass] {
                if let Some(&ended) = current
                    .alive
                    .iter()
                    .find(|&&i| current.moves[i].steps.len() == current.matched)
                {
                    let played_in = state.turn;
                    *state = self.engine.play(state, &current.moves[ended]);
                    *turn = None;
                    return Ok(played_in);
                }
            }
            let continuing: Vec<usize> = current
                .alive
                .iter()
                .copied()
                .filter(|&i| current.moves[i].steps.len() > current.matched)
                .collect();
            let steps: Vec<&Step> = continuing
                .iter()
                .map(|&i| &current.moves[i].steps[current.matched])
                .collect();
            match self.match_step(&current.board, &steps, &effects, partial) {
                Ok((hits, after)) => {
                    current.alive = hits.into_iter().map(|h| continuing[h]).collect();
                    current.matched += 1;
                    current.board = after;
                    let played_in = state.turn;
                    self.finish_if_complete(state, turn);
                    return Ok(played_in);
                }
                Err(mismatch) => {
                    let ended = current
                        .alive
                        .iter()
                        .copied()
                        .find(|&i| current.moves[i].steps.len() == current.matched);
                    let Some(ended) = ended else {
                        let reason = format!(
                            "no continuation of the partial move reproduces the record ({})",
                            mismatch.reason
                        );
                        let board = current.board.clone();
                        return Err(
                            self.diverge_with(index, &reason, &board, &steps, &steps, mismatch)
                        );
                    };
                    *state = self.engine.play(state, &current.moves[ended]);
                    *turn = None;
                }
            }
        }
        let moves = self.engine.legal_moves(state);
        if self.over_early.is_none() {
            if let Some(outcome) = self.engine.outcome(state, &moves) {
                self.over_early = Some((index, outcome));
            }
        }
        if effects.as_slice() == [Resolved::Pass] {
            return match moves.iter().find(|m| m.is_pass()) {
                Some(pass) => {
                    let played_in = state.turn;
                    *state = self.engine.play(state, pass);
                    Ok(played_in)
                }
                None => {
                    let firsts = first_steps(&moves);
                    Err(self.diverge(
                        index,
                        "the engine does not allow a pass here",
                        state,
                        &firsts,
                    ))
                }
            };
        }
        let playing: Vec<usize> = (0..moves.len()).filter(|&i| !moves[i].is_pass()).collect();
        let steps: Vec<&Step> = playing.iter().map(|&i| &moves[i].steps[0]).collect();
        match self.match_step(state, &steps, &effects, partial) {
            Ok((hits, after)) => {
                *turn = Some(TurnInProgress {
                    alive: hits.into_iter().map(|h| playing[h]).collect(),
                    moves,
                    matched: 1,
                    board: after,
                });
                let played_in = state.turn;
                self.finish_if_complete(state, turn);
                Ok(played_in)
            }
            Err(mismatch) => {
                let reason = format!("no legal move reproduces the record ({})", mismatch.reason);
                let firsts = first_steps(&moves);
                Err(self.diverge_with(index, &reason, state, &firsts, &steps, mismatch))
            }
        }
    }

    /// Ends the turn when no matching move has steps left.
    fn finish_if_complete(&self, state: &mut State, turn: &mut Option<TurnInProgress>) {
        let Some(current) = turn.as_ref() else {
            return;
        };
        let more = current
            .alive
            .iter()
            .any(|&i| current.moves[i].steps.len() > current.matched);
        if !more {
            *state = self.engine.play(state, &current.moves[current.alive[0]]);
            *turn = None;
        }
    }

    /// The indices of the steps that reproduce the record from `board`, and the position
    /// after them; or why none does.
    fn match_step(
        &mut self,
        board: &State,
        steps: &[&Step],
        effects: &[Resolved],
        partial: bool,
    ) -> Result<(Vec<usize>, State), Mismatch> {
        let tables = &self.engine.tables;
        check_movements(board, effects, tables)?;
        // Only steps that touch every square the record changes can leave its position:
        // the others are not tried (a copy of the board each) unless none matches and the
        // nearest is wanted for the report. Debug builds try them all and compare.
        let changed = squares_the_record_changes(board, effects, &self.attributes, tables);
        let could_match = |step: &Step| {
            let touched: Vec<Pos> = step_squares(step).collect();
            changed.iter().all(|p| touched.contains(p))
        };
        let filtered = self.try_steps(board, steps, effects, partial, Some(&could_match));
        let (mut hits, closest) = if filtered.0.is_empty() || cfg!(debug_assertions) {
            let all = self.try_steps(board, steps, effects, partial, None);
            debug_assert_eq!(
                all.0.iter().map(|h| h.0).collect::<Vec<_>>(),
                filtered.0.iter().map(|h| h.0).collect::<Vec<_>>(),
                "the steps that touch what a record changes are all that can match it"
            );
            all
        } else {
            filtered
        };
        // A piece put down and taken again in one step leaves no trace on the board:
        // among the steps that leave the record's board, those that put down the pieces
        // it names are the ones it means.
        if hits.len() > 1 {
            let named: Vec<_> = hits
                .iter()
                .filter(|(i, ..)| puts_down_the_named_pieces(steps[*i], effects))
                .cloned()
                .collect();
            if !named.is_empty() {
                hits = named;
            }
        }
        let Some((_, after, mapping)) = hits.first().cloned() else {
            return Err(Mismatch {
                reason: if steps.is_empty() {
                    "it has none".into()
                } else {
                    format!("{} candidates differ", steps.len())
                },
                closest,
            });
        };
        let mut unique: Vec<&Step> = hits.iter().map(|(h, ..)| steps[*h]).collect();
        unique.dedup();
        if unique.len() > 1 {
            self.ambiguous += 1;
        }
        self.attributes = mapping;
        Ok((hits.into_iter().map(|(h, ..)| h).collect(), after))
    }

    /// The steps (those `filter` lets through, when given) that leave the record's
    /// position, with the position and attribute mapping each gives; and the nearest of
    /// the others, with how it differs.
    fn try_steps(
        &self,
        board: &State,
        steps: &[&Step],
        effects: &[Resolved],
        partial: bool,
        filter: Option<&dyn Fn(&Step) -> bool>,
    ) -> Attempts {
        let tables = &self.engine.tables;
        let mut hits: Vec<(usize, State, AttributeMap)> = Vec::new();
        let mut closest: Option<(usize, Vec<String>)> = None;
        for (i, step) in steps.iter().enumerate() {
            if filter.is_some_and(|could_match| !could_match(step)) {
                continue;
            }
            let mut engine_after = board.clone();
            engine_after.apply_step(tables, step);
            let mapping = self.attributes.extended(effects, step);
            let written = apply_record(board, effects, &mapping, tables);
            let differences = record_differences(board, &written, step, &engine_after, tables);
            if differences.is_empty() && step.continue_with.is_some() == partial {
                hits.push((i, engine_after, mapping));
            } else if closest
                .as_ref()
                .is_none_or(|c| differences.len() < c.1.len())
            {
                let mut differences = differences;
                if step.continue_with.is_some() != partial {
                    differences.push(if partial {
                        "the record continues a partial move; this step ends the turn".into()
                    } else {
                        "this step continues a partial move; the record ends it".into()
                    });
                }
                closest = Some((i, differences));
            }
        }
        (hits, closest)
    }

    fn diverge(
        &self,
        record: usize,
        reason: &str,
        board: &State,
        candidates: &[&Step],
    ) -> Box<Diverged> {
        Box::new(Diverged {
            record,
            reason: reason.to_string(),
            board: describe(board, &self.engine.tables),
            candidates: candidates
                .iter()
                .map(|s| self.step_text(board, s))
                .collect(),
            closest: None,
        })
    }

    fn diverge_with(
        &self,
        record: usize,
        reason: &str,
        board: &State,
        candidates: &[&Step],
        matched_against: &[&Step],
        mismatch: Mismatch,
    ) -> Box<Diverged> {
        let mut divergence = self.diverge(record, reason, board, candidates);
        divergence.closest = mismatch.closest.and_then(|(i, differences)| {
            let step = matched_against.get(i)?;
            Some((self.step_text(board, step), differences))
        });
        divergence
    }

    fn step_text(&self, board: &State, step: &Step) -> String {
        let text = zrf_runtime::step_notation(&self.engine.tables, board, step);
        if step.continue_with.is_some() {
            format!("partial {text}")
        } else {
            text
        }
    }
}

/// Why no candidate reproduced a record.
struct Mismatch {
    reason: String,
    /// The nearest candidate (index) and how its position differs.
    closest: Option<(usize, Vec<String>)>,
}

/// The first step of every move, each distinct step once, passes left out.
fn first_steps(moves: &[Move]) -> Vec<&Step> {
    let mut firsts: Vec<&Step> = Vec::new();
    for step in moves.iter().filter_map(|m| m.steps.first()) {
        if !firsts.contains(&step) {
            firsts.push(step);
        }
    }
    firsts
}

/// A record's effects with names resolved against the game.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Resolved {
    Pass,
    Movement {
        kind: Kind,
        from: Pos,
        to: Pos,
        onto_occupied: bool,
    },
    Create {
        pos: Pos,
        piece: Piece,
    },
    Capture(Pos),
    ChangeType(Pos, Kind),
    ChangeOwner(Pos, PlayerIx),
    Flip(Pos),
    Attribute {
        pos: Pos,
        index: u32,
        value: bool,
    },
}

/// The record's movement flags must agree with the position: the piece named stands on
/// `from`, and `x` is written exactly when another piece stands on `to`.
fn check_movements(
    board: &State,
    effects: &[Resolved],
    tables: &zrf_runtime::Tables,
) -> Result<(), Mismatch> {
    for effect in effects {
        if let Resolved::Movement {
            kind,
            from,
            to,
            onto_occupied,
        } = *effect
        {
            let position = &tables.positions;
            let reason = match board.at(from) {
                None => Some(format!(
                    "it moves a {} from {}, which is empty here",
                    tables.pieces[kind as usize].name, position[from as usize]
                )),
                Some(p) if p.kind != kind => Some(format!(
                    "it moves a {} from {}, where a {} stands here",
                    tables.pieces[kind as usize].name,
                    position[from as usize],
                    tables.pieces[p.kind as usize].name
                )),
                // A piece moving onto its own square (to change its type, say) finds
                // it occupied by itself only.
                Some(_) if (to != from && board.at(to).is_some()) != onto_occupied => {
                    Some(format!(
                        "it says {} is {}, which it is not here",
                        position[to as usize],
                        if onto_occupied { "occupied" } else { "empty" }
                    ))
                }
                Some(_) => None,
            };
            if let Some(reason) = reason {
                return Err(Mismatch {
                    reason,
                    closest: None,
                });
            }
        }
    }
    Ok(())
}

/// Whether `step` puts down every piece the record says is put down (drops and
/// creations, with their owners and types).
fn puts_down_the_named_pieces(step: &Step, effects: &[Resolved]) -> bool {
    effects.iter().all(|effect| match *effect {
        Resolved::Create { pos, piece } => step.changes.iter().any(|c| match *c {
            Change::Place { pos: p, piece: q } | Change::Create { pos: p, piece: q } => {
                p == pos && q.kind == piece.kind && q.owner == piece.owner
            }
            _ => false,
        }),
        _ => true,
    })
}

/// What [`Replayer::try_steps`] found: the matching steps, and the nearest other.
type Attempts = (
    Vec<(usize, State, AttributeMap)>,
    Option<(usize, Vec<String>)>,
);

/// The squares whose content the record changes whatever Zillions' attribute numbers
/// turn out to mean: those it leaves otherwise than `board` has them, but for squares
/// an attribute write touches (their result depends on the mapping still being learned).
fn squares_the_record_changes(
    board: &State,
    effects: &[Resolved],
    mapping: &AttributeMap,
    tables: &zrf_runtime::Tables,
) -> Vec<Pos> {
    let written = apply_record(board, effects, mapping, tables);
    let attribute_written = |pos: Pos| {
        effects
            .iter()
            .any(|e| matches!(*e, Resolved::Attribute { pos: p, .. } if p == pos))
    };
    let mut changed: Vec<Pos> = written
        .0
        .iter()
        .map(|&(pos, _)| pos)
        .filter(|&pos| !attribute_written(pos) && written.at(board, pos) != board.at(pos))
        .collect();
    changed.sort_unstable();
    changed.dedup();
    changed
}

/// What a record leaves on the squares it writes, in the order written; every other
/// square keeps what it had.
struct Written(Vec<(Pos, Option<Piece>)>);

impl Written {
    fn at(&self, board: &State, pos: Pos) -> Option<Piece> {
        match self.0.iter().rev().find(|(p, _)| *p == pos) {
            Some(&(_, piece)) => piece,
            None => board.at(pos),
        }
    }

    fn put(&mut self, pos: Pos, piece: Option<Piece>) {
        self.0.push((pos, piece));
    }
}

/// What a record writes, by Zillions' model: every moving piece lifted, then put down
/// in the order written; then the changes in order (captures and attribute writes on
/// empty squares do nothing; creates replace).
fn apply_record(
    board: &State,
    effects: &[Resolved],
    mapping: &AttributeMap,
    tables: &zrf_runtime::Tables,
) -> Written {
    let mut after = Written(Vec::with_capacity(effects.len() * 2));
    let mut landing = Vec::new();
    for effect in effects {
        if let Resolved::Movement { from, to, .. } = *effect {
            landing.push((board.at(from), to));
            after.put(from, None);
        }
    }
    for (piece, to) in landing {
        after.put(to, piece);
    }
    for effect in effects {
        // Every effect but a creation or a capture rewrites the piece on its square.
        let rewrite = |after: &mut Written, pos: Pos, change: &dyn Fn(&mut Piece)| {
            if let Some(mut piece) = after.at(board, pos) {
                change(&mut piece);
                after.put(pos, Some(piece));
            }
        };
        match *effect {
            Resolved::Create { pos, piece } => after.put(pos, Some(piece)),
            Resolved::Capture(pos) => after.put(pos, None),
            Resolved::ChangeType(pos, kind) => rewrite(&mut after, pos, &|p| p.kind = kind),
            Resolved::ChangeOwner(pos, owner) => rewrite(&mut after, pos, &|p| p.owner = owner),
            Resolved::Flip(pos) => rewrite(&mut after, pos, &|p| {
                p.owner = tables.flipped_owner(p.owner)
            }),
            Resolved::Attribute { pos, index, value } => {
                if let Some(bit) = mapping.get(index) {
                    rewrite(&mut after, pos, &|p| {
                        if value {
                            p.attributes |= 1 << bit;
                        } else {
                            p.attributes &= !(1 << bit);
                        }
                    });
                }
            }
            Resolved::Pass | Resolved::Movement { .. } => {}
        }
    }
    after
}

/// The squares a step's changes name: the only ones where the position after it can
/// differ from the one before.
fn step_squares(step: &Step) -> impl Iterator<Item = Pos> + '_ {
    step.changes
        .iter()
        .flat_map(|change| match *change {
            Change::Move { from, to } => [Some(from), Some(to)],
            Change::Place { pos, .. }
            | Change::Create { pos, .. }
            | Change::Capture { pos }
            | Change::ChangeType { pos, .. }
            | Change::ChangeOwner { pos, .. }
            | Change::Flip { pos }
            | Change::SetAttribute { pos, .. } => [Some(pos), None],
            Change::TakeStock { .. } => [None, None],
        })
        .flatten()
}

/// The squares where the record's position (`written` over `board`) and the engine's
/// after `step` from `board` differ, described for a person. Only the squares either
/// one writes are compared: every other square holds what `board` holds in both, so
/// that a record costs what it writes, not the size of the board (debug builds check
/// this against the whole board).
fn record_differences(
    board: &State,
    written: &Written,
    step: &Step,
    engine: &State,
    tables: &zrf_runtime::Tables,
) -> Vec<String> {
    let mut squares: Vec<Pos> = written
        .0
        .iter()
        .map(|&(pos, _)| pos)
        .chain(step_squares(step))
        .collect();
    squares.sort_unstable();
    squares.dedup();
    let differing = squares
        .into_iter()
        .map(|pos| (pos, written.at(board, pos), engine.at(pos)))
        .filter(|(_, want, have)| want != have);
    let out: Vec<String> = differing
        .map(|(pos, want, have)| difference(tables, pos, want, have))
        .collect();
    #[cfg(debug_assertions)]
    {
        let mut recorded = board.clone();
        for &(pos, piece) in &written.0 {
            recorded.put(pos, piece);
        }
        debug_assert_eq!(out, differences(&recorded, engine, tables));
    }
    out
}

fn difference(
    tables: &zrf_runtime::Tables,
    pos: Pos,
    want: Option<Piece>,
    have: Option<Piece>,
) -> String {
    format!(
        "{}: the record leaves {}, the engine {}",
        tables.positions[pos as usize],
        piece_text(want, tables),
        piece_text(have, tables)
    )
}

/// The squares where two positions differ, described for a person.
fn differences(recorded: &State, engine: &State, tables: &zrf_runtime::Tables) -> Vec<String> {
    recorded
        .board()
        .iter()
        .zip(engine.board())
        .enumerate()
        .filter(|(_, (want, have))| want != have)
        .map(|(pos, (want, have))| difference(tables, pos as Pos, *want, *have))
        .collect()
}

fn piece_text(piece: Option<Piece>, tables: &zrf_runtime::Tables) -> String {
    let Some(piece) = piece else {
        return "nothing".into();
    };
    let mut text = format!(
        "{} {}",
        tables.players[piece.owner as usize].name, tables.pieces[piece.kind as usize].name
    );
    let set: Vec<&str> = (0..tables.attributes.len())
        .filter(|&a| piece.attributes >> a & 1 == 1)
        .map(|a| tables.attributes[a].as_str())
        .collect();
    if !set.is_empty() {
        text.push_str(&format!(" [{}]", set.join(" ")));
    }
    text
}

/// The position, one line per player: `White: Pawn a2, Pawn b2, ...`.
fn describe(state: &State, tables: &zrf_runtime::Tables) -> Vec<String> {
    let mut lines = Vec::new();
    for (owner, player) in tables.players.iter().enumerate() {
        let pieces: Vec<String> = state
            .board()
            .iter()
            .enumerate()
            .filter_map(|(pos, p)| p.filter(|p| p.owner as usize == owner).map(|p| (pos, p)))
            .map(|(pos, p)| {
                let text = piece_text(Some(p), tables);
                let kind = text.split_once(' ').map_or(text.as_str(), |(_, k)| k);
                format!("{kind} {}", tables.positions[pos])
            })
            .collect();
        if !pieces.is_empty() {
            lines.push(format!("{}: {}", player.name, pieces.join(", ")));
        }
    }
    if lines.is_empty() {
        lines.push("(empty board)".into());
    }
    lines
}

/// Record attribute numbers to the game's attribute indices, learned as records write
/// them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct AttributeMap {
    map: FxHashMap<u32, u8>,
}

impl AttributeMap {
    fn get(&self, index: u32) -> Option<u8> {
        self.map.get(&index).copied()
    }

    /// This map plus, for each number the record writes that is not known yet, the
    /// attribute the step writes with the same value on the same square.
    fn extended(&self, effects: &[Resolved], step: &Step) -> AttributeMap {
        let mut extended = self.clone();
        for effect in effects {
            let Resolved::Attribute { pos, index, value } = *effect else {
                continue;
            };
            if extended.map.contains_key(&index) {
                continue;
            }
            let guess = step.changes.iter().find_map(|c| match *c {
                Change::SetAttribute {
                    pos: p,
                    attribute,
                    value: v,
                } if p == pos && v == value && !extended.map.values().any(|&a| a == attribute) => {
                    Some(attribute)
                }
                _ => None,
            });
            if let Some(attribute) = guess {
                extended.map.insert(index, attribute);
            }
        }
        extended
    }

    fn learned(&self, names: &[String]) -> Vec<(u32, String)> {
        let mut learned: Vec<(u32, String)> = self
            .map
            .iter()
            .map(|(&i, &a)| (i, names.get(a as usize).cloned().unwrap_or_default()))
            .collect();
        learned.sort();
        learned
    }
}

/// Name lookups for one game.
struct Names {
    pieces: FxHashMap<String, Kind>,
    players: FxHashMap<String, PlayerIx>,
    positions: FxHashMap<String, Pos>,
    default_attributes: Vec<u32>,
}

impl Names {
    fn new<T>(engine: &Engine<T>) -> Names {
        let tables = &engine.tables;
        let index = |names: Vec<&String>| -> FxHashMap<String, usize> {
            names
                .into_iter()
                .enumerate()
                .map(|(i, n)| (n.clone(), i))
                .collect()
        };
        Names {
            pieces: index(tables.pieces.iter().map(|p| &p.name).collect())
                .into_iter()
                .map(|(n, i)| (n, i as Kind))
                .collect(),
            players: index(tables.players.iter().map(|p| &p.name).collect())
                .into_iter()
                .map(|(n, i)| (n, i as PlayerIx))
                .collect(),
            positions: index(tables.positions.iter().collect())
                .into_iter()
                .map(|(n, i)| (n, i as Pos))
                .collect(),
            default_attributes: tables.pieces.iter().map(|p| p.default_attributes).collect(),
        }
    }

    fn position(&self, name: &str) -> Result<Pos, String> {
        self.positions
            .get(name)
            .copied()
            .ok_or_else(|| format!("the rules have no position `{name}`"))
    }

    fn piece(&self, name: &str) -> Result<Kind, String> {
        self.pieces
            .get(name)
            .copied()
            .ok_or_else(|| format!("the rules have no piece type `{name}`"))
    }

    fn player(&self, name: &str) -> Result<PlayerIx, String> {
        self.players
            .get(name)
            .copied()
            .ok_or_else(|| format!("the rules have no player `{name}`"))
    }

    fn created(&self, player: &str, piece: &str, pos: &str) -> Result<(Pos, Piece), String> {
        let kind = self.piece(piece)?;
        Ok((
            self.position(pos)?,
            Piece {
                kind,
                owner: self.player(player)?,
                attributes: self.default_attributes[kind as usize],
            },
        ))
    }

    fn resolve(&self, effects: &[Effect]) -> Result<Vec<Resolved>, String> {
        let mut resolved = Vec::new();
        let mut last_destination = None;
        for effect in effects {
            let destination = match effect {
                Effect::Movement {
                    piece,
                    from,
                    onto_occupied,
                    to,
                } => {
                    let to = self.position(to)?;
                    resolved.push(Resolved::Movement {
                        kind: self.piece(piece)?,
                        from: self.position(from)?,
                        to,
                        onto_occupied: *onto_occupied,
                    });
                    Some(to)
                }
                Effect::Pass => {
                    resolved.push(Resolved::Pass);
                    None
                }
                Effect::Create { player, piece, pos } => {
                    let (pos, piece) = self.created(player, piece, pos)?;
                    resolved.push(Resolved::Create { pos, piece });
                    None
                }
                Effect::Capture { pos } => {
                    resolved.push(Resolved::Capture(self.position(pos)?));
                    None
                }
                Effect::Retype { name, on } => {
                    let squares = if on.is_empty() {
                        vec![last_destination.ok_or_else(|| {
                            format!("`= {name}` without `on` must follow a movement")
                        })?]
                    } else {
                        on.iter()
                            .map(|p| self.position(p))
                            .collect::<Result<_, _>>()?
                    };
                    for pos in squares {
                        resolved.push(match self.players.get(name.as_str()) {
                            Some(&owner) => Resolved::ChangeOwner(pos, owner),
                            None => Resolved::ChangeType(pos, self.piece(name)?),
                        });
                    }
                    None
                }
                Effect::Flip { pos } => {
                    resolved.push(Resolved::Flip(self.position(pos)?));
                    None
                }
                Effect::Attribute { pos, index, value } => {
                    resolved.push(Resolved::Attribute {
                        pos: self.position(pos)?,
                        index: *index,
                        value: *value,
                    });
                    None
                }
            };
            last_destination = destination;
        }
        Ok(resolved)
    }
}
