//! The engine: a game's tables and templates, and what is asked of them — the legal
//! turns of a position, the position after a turn, and the result.
//!
//! A turn is a chain of steps: a step made with `add-partial` is applied, and the same
//! piece continues from its landing square with the templates of the named move type;
//! it must continue while it can (unless `pass partial`) ([`crate::Gen`] lists them).
//! Then `move-priorities` keep only the turns of the highest-priority move type present,
//! `checkmated` goals remove turns that leave a royal piece capturable (`guard`), and a
//! pass is added when the options allow. The random draw (`draw`) and the search's view
//! ([`crate::Game`]) are written beside it.

use crate::gen::Gen;
use crate::inconsistency::Inconsistency;
use crate::run::Steps;
use crate::state::changed::changed_squares;
use crate::state::{State, Undo};
use crate::tables::{PassTurn, Tables, Turn};
use crate::templates::Templates;
use crate::turn::{drop_repeated_turns, Move};
use crate::MoveType;

/// A playable game: its tables and its templates.
pub struct Engine<T> {
    /// The static description of the game.
    pub tables: Tables,
    /// The code of its move and drop templates.
    pub templates: T,
}

impl<T: Templates> Engine<T> {
    /// A game of these tables and templates. The tables must pass [`Tables::check`] (the
    /// compiler's lowering checks those it builds; debug builds check again here): use
    /// [`Engine::try_new`] for tables from anywhere else.
    /// Templates that know their game's sizes ([`crate::KnownSizes`]) must be given
    /// tables of those sizes: every bitset index is worked out from them.
    pub fn new(tables: Tables, templates: T) -> Engine<T> {
        debug_assert_eq!(tables.check(), Ok(()));
        if let Err(wrong) = Inconsistency::expect_sizes(T::SIZES, tables.layout()) {
            panic!("{wrong}");
        }
        Engine { tables, templates }
    }

    /// A game of these tables and templates, once the tables pass [`Tables::check`] and
    /// are of the sizes the templates know.
    pub fn try_new(tables: Tables, templates: T) -> Result<Engine<T>, Inconsistency> {
        tables.check()?;
        Inconsistency::expect_sizes(T::SIZES, tables.layout())?;
        Ok(Engine { tables, templates })
    }

    /// The position before the first turn: the board setup and the stocks off the board.
    pub fn start(&self) -> State {
        State::start(&self.tables)
    }

    /// The entry of the turn order that plays next in `state`.
    pub fn turn(&self, state: &State) -> Turn {
        self.tables.turn(state.turn)
    }

    /// Every legal complete turn for the player to move.
    pub fn legal_moves(&self, state: &State) -> Vec<Move> {
        let mut moves = Vec::new();
        self.legal_moves_into(state, &mut moves);
        moves
    }

    /// [`Engine::legal_moves`] into `moves` (emptied first), reusing its buffer.
    pub fn legal_moves_into(&self, state: &State, moves: &mut Vec<Move>) {
        moves.clear();
        let turn = self.turn(state);
        let routes_differ = match self.tables.royal_kinds(turn.player) {
            Some(royal) => self.legal_turns_guarded(state, turn, royal, moves, false),
            None => {
                // Priorities are to drop every other turn once one of the first type
                // listed is found (with a legality filter, that might drop all of those).
                let first = match self.tables.priorities.first() {
                    Some(&top) => Steps::narrowing_to(top, std::mem::take(moves)),
                    None => Steps::appending_to(std::mem::take(moves)),
                };
                self.gen()
                    .turns_into(state, turn, first, moves)
                    .routes_differ
            }
        };
        self.prioritise(moves);
        drop_repeated_turns(moves, routes_differ);
        if self.tables.options.maximal_captures {
            let most = moves.iter().map(Move::captures).max().unwrap_or(0);
            moves.retain(|m| m.captures() == most);
        }
        match self.tables.options.pass_turn {
            PassTurn::Always => moves.push(Move::pass()),
            PassTurn::Forced if moves.is_empty() => moves.push(Move::pass()),
            _ => {}
        }
    }

    /// How many legal turns the player to move has: the length of
    /// [`Engine::legal_moves_into`]'s list (`moves` is a buffer, left unspecified). Where
    /// no `maximal captures` weighs turns against each other, the turns of one plain
    /// movement that need no test are counted as they are generated, without being made
    /// (what a perft's last ply wants): without royal pieces, all of them (ranked by
    /// `move-priorities` with the turns listed, where they are of one type); with them,
    /// where each turn's legality is its own, those the attack test on the position
    /// before decides.
    pub fn legal_move_count(&self, state: &State, moves: &mut Vec<Move>) -> usize {
        let count = self.count_legal(state, moves);
        // The shortcut's invariant: counting the plain turns unmade finds as many as the
        // general path lists.
        debug_assert_eq!(
            count,
            self.legal_moves(state).len(),
            "the legal turns counted differ from those listed"
        );
        count
    }

    fn count_legal(&self, state: &State, moves: &mut Vec<Move>) -> usize {
        let turn = self.turn(state);
        let tables = &self.tables;
        let pass = |count: usize| match tables.options.pass_turn {
            PassTurn::Always => count + 1,
            PassTurn::Forced if count == 0 => 1,
            _ => count,
        };
        match tables.royal_kinds(turn.player) {
            _ if tables.options.maximal_captures => {}
            Some(royal) if tables.turns_judged_alone() => {
                moves.clear();
                return pass(self.count_guarded(state, turn, royal, moves));
            }
            Some(_) => {}
            None => {
                // Most positions of a game of men are counted whole from the bulk
                // targets, steps and chains of jumps alike: nothing need run.
                if let Some(count) = self.gen().count_before_runs(state, turn) {
                    return pass(count);
                }
                moves.clear();
                // Priorities are to drop every other turn once one of the first type
                // listed is found (counted ones too), as the list does.
                let mut first = match tables.priorities.first() {
                    Some(&top) => Steps::narrowing_to(top, std::mem::take(moves)),
                    None => Steps::appending_to(std::mem::take(moves)),
                };
                first.count_plain();
                let listed = self.gen().turns_into(state, turn, first, moves);
                let ranked = self.rank_counted(listed.counted, moves);
                if let (false, Some(counted)) = (listed.count_needs_list, ranked) {
                    drop_repeated_turns(moves, listed.routes_differ);
                    return pass(moves.len() + counted);
                }
            }
        }
        self.legal_moves_into(state, moves);
        moves.len()
    }

    /// `move-priorities` over the turns listed in `moves` and the `counted` ones (how
    /// many, and their type where they have one): those of the best rank present are
    /// left in `moves`, and how many counted ones are among them is told; `None` where
    /// counted turns of several types leave that unknown.
    fn rank_counted(
        &self,
        counted: (usize, Option<Option<MoveType>>),
        moves: &mut Vec<Move>,
    ) -> Option<usize> {
        let (count, counted_type) = counted;
        if self.tables.priorities.is_empty() || count == 0 {
            self.prioritise(moves);
            return Some(count);
        }
        let ranks = self.tables.priority_ranks();
        let counted_rank = ranks.of(counted_type?);
        let best_listed = moves.iter().map(|m| ranks.of(m.move_type())).min();
        match best_listed {
            Some(best) if best < counted_rank => {
                self.prioritise(moves);
                Some(0)
            }
            Some(best) if best > counted_rank => {
                moves.clear();
                Some(count)
            }
            _ => {
                self.prioritise(moves);
                Some(count)
            }
        }
    }

    /// The legal turns that remove a piece or promote one
    /// ([`crate::MoveTraits::is_loud`]), in the order [`Engine::legal_moves_into`] lists
    /// them, into `moves`. Where each turn's legality is its own (no `move-priorities`,
    /// `maximal captures` or pass allowed only without another turn) and the mover has a
    /// royal piece, the first steps that only move onto an empty square are dropped as
    /// they are generated and only the others are tested; elsewhere the whole list is
    /// filtered.
    pub fn legal_loud_moves_into(&self, state: &State, moves: &mut Vec<Move>) {
        let turn = self.turn(state);
        let royal = self.tables.royal_kinds(turn.player);
        let Some(royal) = royal.filter(|_| self.tables.turns_judged_alone()) else {
            self.legal_moves_into(state, moves);
            moves.retain(|m| m.traits(state).is_loud());
            return;
        };
        moves.clear();
        let routes_differ = self.legal_turns_guarded(state, turn, royal, moves, true);
        drop_repeated_turns(moves, routes_differ);
        // The shortcut's invariant: with each turn judged alone, generating and testing
        // the loud turns alone keeps what filtering the whole legal list keeps, in the
        // same order (a pass is never loud).
        debug_assert!(
            *moves == {
                let mut all = self.legal_moves(state);
                all.retain(|m| m.traits(state).is_loud());
                all
            },
            "the loud legal turns differ from the legal turns filtered"
        );
    }

    pub(crate) fn gen(&self) -> Gen<'_, T> {
        Gen {
            tables: &self.tables,
            templates: &self.templates,
        }
    }

    /// The turns of `turn` in `state` before the legality filters (the royal guard,
    /// `move-priorities`, repeated turns) apply.
    pub fn pseudo_legal(&self, state: &State, turn: Turn) -> Vec<Move> {
        self.gen().pseudo_legal(state, turn)
    }

    /// `move-priorities`: only the turns of the first listed move type that has any;
    /// unlisted types rank below every listed one.
    fn prioritise(&self, moves: &mut Vec<Move>) {
        if self.tables.priorities.is_empty() || moves.is_empty() {
            return;
        }
        // Most positions offer moves of one type only: nothing to rank or drop.
        let first = moves[0].move_type();
        if moves.iter().all(|m| m.move_type() == first) {
            return;
        }
        let ranks = self.tables.priority_ranks();
        let rank = |m: &Move| ranks.of(m.move_type());
        let best = moves.iter().map(rank).min().unwrap_or(0);
        moves.retain(|m| rank(m) == best);
    }

    /// Writes the position after a turn into `next`, reusing its buffers, without
    /// recording history (for look-ahead).
    pub(crate) fn apply_into(&self, state: &State, mv: &Move, next: &mut State) {
        next.copy_position_from(state);
        for step in &mv.steps {
            next.apply_step(&self.tables, step);
        }
        next.turn += 1;
    }

    /// The position after a turn.
    pub fn play(&self, state: &State, mv: &Move) -> State {
        let hash = state.hash(&self.tables);
        let mut next = state.successor(hash);
        self.finish_play(state, hash, mv, &mut next);
        next
    }

    /// [`Engine::play`], written into `next`, reusing its buffers: a search keeps one
    /// position per depth instead of allocating one per move.
    pub fn play_into(&self, state: &State, mv: &Move, next: &mut State) {
        let hash = state.hash(&self.tables);
        state.successor_into(hash, next);
        self.finish_play(state, hash, mv, next);
    }

    /// Plays `mv` on `next`, a successor of `state` (whose hash is `hash`).
    fn finish_play(&self, state: &State, hash: u64, mv: &Move, next: &mut State) {
        for step in &mv.steps {
            next.apply_step(&self.tables, step);
        }
        if mv.is_pass() {
            next.last_from = None;
            next.last_to = None;
        }
        next.turn += 1;
        self.set_hash_after(state, hash, mv, next);
    }

    /// Plays `mv`, a turn legal in `state`, on `state` itself: it becomes the position
    /// [`Engine::play`] returns. What it was is returned, for [`Engine::unmake`].
    pub fn make(&self, state: &mut State, mv: &Move) -> Undo {
        state.make::<T>(&self.tables, &mv.steps)
    }

    /// Takes back the turn [`Engine::make`] played on `state`, which returned `undo`.
    pub fn unmake(&self, state: &mut State, undo: Undo) {
        state.unmake::<T>(undo);
    }

    /// Sets the hash of `next`, the position after `mv` from `state` (whose hash is `hash`).
    pub(crate) fn set_hash_after(&self, state: &State, hash: u64, mv: &Move, next: &mut State) {
        let next_hash = next.hash_from(&self.tables, state, hash, &changed_squares(&mv.steps));
        next.set_hash(next_hash);
    }
}
