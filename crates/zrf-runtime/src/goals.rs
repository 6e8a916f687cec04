//! Goals: evaluated after every complete turn, on the new position, in file order; the
//! first that holds decides. Conditions about the next turn (`stalemated`, `checkmated`,
//! `repetition`) hold only for the player now to move. A third repetition ends the game
//! even without a `repetition` goal (a draw, then), and so does a player with no legal
//! move for whom no goal fires. Before the first turn only that last rule applies (with
//! the goals about having no move): a setup that already meets a goal does not end the
//! game before it starts. A goal of a player whose pieces another moved in the last
//! turn is credited to the one who moved them.

use std::cell::OnceCell;

use crate::engine::Engine;
use crate::state::State;
use crate::tables::{GoalCond, GoalKind, PieceRef, Place, Tables, NO_POS};
use crate::templates::Templates;
use crate::turn::Move;
use crate::{PlayerIx, Pos};

/// How a game ended, from the first goal that holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// This player wins (and, with two sides, the other loses).
    Win(PlayerIx),
    /// This player loses.
    Loss(PlayerIx),
    /// Nobody wins.
    Draw,
}

impl Outcome {
    /// The result in words, with player names: `White wins`, `Black loses`, `draw`.
    pub fn describe(self, tables: &Tables) -> String {
        let name = |p: PlayerIx| {
            tables
                .players
                .get(p as usize)
                .map_or("?", |p| p.name.as_str())
        };
        match self {
            Outcome::Win(p) => format!("{} wins", name(p)),
            Outcome::Loss(p) => format!("{} loses", name(p)),
            Outcome::Draw => "draw".to_string(),
        }
    }
}

impl<T: Templates> Engine<T> {
    /// The result of the game in `state`, if it is over. `moves` are the legal moves of
    /// the player to move (computed by the caller, who usually needs them anyway).
    pub fn outcome(&self, state: &State, moves: &[Move]) -> Option<Outcome> {
        outcome(self, state, !moves.is_empty())
    }

    /// [`Engine::outcome`] where the player to move has a legal move (whichever: only
    /// whether there is one matters), without listing them.
    pub fn outcome_with_a_move(&self, state: &State) -> Option<Outcome> {
        let supposed = outcome(self, state, true);
        // The invariant: wherever the player has a move, the result is the listed one.
        debug_assert!(
            {
                let moves = self.legal_moves(state);
                moves.is_empty() || supposed == self.outcome(state, &moves)
            },
            "the result supposing a move differs from the listed moves' result"
        );
        supposed
    }
}

fn outcome<T: Templates>(engine: &Engine<T>, state: &State, has_moves: bool) -> Option<Outcome> {
    let tables = &engine.tables;
    let at_start = state.turn == 0;
    if at_start && has_moves {
        return None;
    }
    // The goals about having no move cannot hold while there is one, those about having
    // no piece left while the players have some, and the rest hold only on a third
    // occurrence, which also ends the game without them.
    if let (true, Some(bare)) = (has_moves, tables.goals_wait()) {
        if bare.iter().all(|&player| state.has_pieces(player)) && !state.occurs_at_least(tables, 3)
        {
            debug_assert_eq!(by_goals(engine, state, has_moves), None);
            return None;
        }
    }
    by_goals(engine, state, has_moves)
}

/// [`outcome`] by the goals in file order, then the draws without a goal. Out of line:
/// most positions of a search are told by the test before it.
#[inline(never)]
fn by_goals<T: Templates>(engine: &Engine<T>, state: &State, has_moves: bool) -> Option<Outcome> {
    let tables = &engine.tables;
    let at_start = state.turn == 0;
    let to_move = engine.turn(state).player;
    let view = View {
        engine,
        state,
        has_moves,
        to_move,
        third_occurrence: OnceCell::new(),
    };
    // A goal of the player whose pieces the last turn moved for another (`(X N)` in the
    // turn order) is that other player's: X moving N's man to N's goal wins for X.
    let just_played = (!at_start).then(|| tables.turn(state.turn - 1));
    let credited = |player: PlayerIx| match just_played {
        Some(turn) if turn.move_as == player => turn.player,
        _ => player,
    };
    for goal in &tables.goals {
        if at_start && !goal.condition.is_about_having_no_move() {
            continue;
        }
        for &player in &goal.players {
            if !view.holds(&goal.condition, player) {
                continue;
            }
            return Some(match goal.kind {
                GoalKind::Win => Outcome::Win(credited(player)),
                GoalKind::Loss => Outcome::Loss(credited(player)),
                GoalKind::Draw => Outcome::Draw,
                GoalKind::Count => count_outcome(tables, state),
            });
        }
    }
    if !has_moves || view.third_occurrence() {
        return Some(Outcome::Draw);
    }
    None
}

/// `count-condition`: the player with the most pieces on the board wins.
fn count_outcome(tables: &Tables, state: &State) -> Outcome {
    let counts: Vec<usize> = (0..tables.players.len() as PlayerIx)
        .map(|player| state.count_of(player))
        .collect();
    let best = counts.iter().copied().max().unwrap_or(0);
    let leaders: Vec<usize> = (0..counts.len()).filter(|&p| counts[p] == best).collect();
    match leaders.as_slice() {
        [one] => Outcome::Win(*one as PlayerIx),
        _ => Outcome::Draw,
    }
}

struct View<'a, T> {
    engine: &'a Engine<T>,
    state: &'a State,
    /// Whether the player to move has a legal move.
    has_moves: bool,
    to_move: PlayerIx,
    /// Whether the position occurs for the third time: asked by a `repetition` goal
    /// and again by the rule that a third repetition ends the game.
    third_occurrence: OnceCell<bool>,
}

impl<T: Templates> View<'_, T> {
    fn tables(&self) -> &Tables {
        &self.engine.tables
    }

    fn third_occurrence(&self) -> bool {
        *(self.third_occurrence).get_or_init(|| self.state.occurs_at_least(self.tables(), 3))
    }

    /// The usual conditions, tested after every move, inline in the loop over the goals;
    /// the others out of line.
    #[inline]
    fn holds(&self, cond: &GoalCond, player: PlayerIx) -> bool {
        match cond {
            GoalCond::PiecesRemaining { count, kind } => {
                self.piece_count_is(self.state, Some(player), *kind, *count as usize)
            }
            GoalCond::Stalemated => player == self.to_move && !self.has_moves,
            _ => self.holds_otherwise(cond, player),
        }
    }

    #[inline(never)]
    fn holds_otherwise(&self, cond: &GoalCond, player: PlayerIx) -> bool {
        let state = self.state;
        match cond {
            GoalCond::PiecesRemaining { .. } | GoalCond::Stalemated => self.holds(cond, player),
            GoalCond::TotalPieceCount { count, kind } => {
                self.piece_count_is(state, None, *kind, *count as usize)
            }
            GoalCond::Repetition => player == self.to_move && self.third_occurrence(),
            GoalCond::Checkmated(kinds) => {
                player == self.to_move && !self.has_moves && self.attacked(player, kinds)
            }
            GoalCond::Captured(kinds) => state
                .last_captured
                .iter()
                .any(|p| p.owner == player && kinds.contains(&p.kind)),
            GoalCond::AbsoluteConfig { pieces, places } => {
                places.iter().all(|place| match *place {
                    Place::Position(pos) => self.matches_any(pieces, player, pos),
                    Place::Zone(zone) => (0..state.board().len() as Pos)
                        .filter(|&pos| self.tables().in_zone(zone, player, pos))
                        .any(|pos| self.matches_any(pieces, player, pos)),
                })
            }
            GoalCond::RelativeConfig { first, steps } => {
                (0..state.board().len() as Pos).any(|start| {
                    if !self.matches(*first, player, start) {
                        return false;
                    }
                    let mut pos = start;
                    steps.iter().all(|&(dir, piece)| {
                        let dir = self.tables().symmetry[player as usize][dir as usize];
                        pos = self.tables().link(pos, dir);
                        pos != NO_POS && self.matches(piece, player, pos)
                    })
                })
            }
            GoalCond::And(parts) => parts.iter().all(|c| self.holds(c, player)),
            GoalCond::Or(parts) => parts.iter().any(|c| self.holds(c, player)),
            GoalCond::Not(inner) => !self.holds(inner, player),
        }
    }

    fn matches_any(&self, pieces: &[PieceRef], player: PlayerIx, pos: Pos) -> bool {
        pieces.iter().any(|&p| self.matches(p, player, pos))
    }

    fn matches(&self, piece: PieceRef, player: PlayerIx, pos: Pos) -> bool {
        piece.holds(self.state.at(pos), player)
    }

    /// Whether [`View::piece_count`] is `count`.
    #[inline]
    fn piece_count_is(
        &self,
        state: &State,
        owner: Option<PlayerIx>,
        kind: Option<crate::Kind>,
        count: usize,
    ) -> bool {
        // The usual goal, a player with no pieces left, needs no counting.
        if let (0, Some(player), None, false) =
            (count, owner, kind, self.tables().options.include_off_pieces)
        {
            return !state.has_pieces(player);
        }
        self.piece_count(state, owner, kind) == count
    }

    /// Pieces of `owner` (any owner when `None`) and of `kind` (any when `None`) on the
    /// board, and off it too under `include off-pieces` (DarkRiders.zsg: with that
    /// option North, whose pieces all start off the board, has not lost at the start).
    #[inline(never)]
    fn piece_count(
        &self,
        state: &State,
        owner: Option<PlayerIx>,
        kind: Option<crate::Kind>,
    ) -> usize {
        let players = match owner {
            Some(player) => player..player + 1,
            None => 0..self.tables().players.len() as PlayerIx,
        };
        let on_board: usize = players
            .map(|player| match kind {
                None => state.count_of(player),
                Some(kind) => state.count_of_kind(player, kind),
            })
            .sum();
        if !self.tables().options.include_off_pieces {
            return on_board;
        }
        let kinds = self.tables().kinds();
        let off_board: u32 = state
            .stock
            .iter()
            .enumerate()
            .filter(|&(slot, _)| {
                owner.is_none_or(|o| slot / kinds == o as usize)
                    && kind.is_none_or(|k| slot % kinds == k as usize)
            })
            .map(|(_, &n)| n)
            .sum();
        on_board + off_board as usize
    }

    /// Whether another player could capture one of `player`'s pieces of these kinds.
    fn attacked(&self, player: PlayerIx, kinds: &[crate::Kind]) -> bool {
        let tables = self.tables();
        let mut royal = vec![false; tables.kinds()];
        for &k in kinds {
            royal[k as usize] = true;
        }
        (0..tables.players.len() as PlayerIx)
            .filter(|&p| p != player && tables.is_active(p))
            .any(|opponent| {
                let turn = tables.turns.iter().copied().find(|t| t.player == opponent);
                turn.is_some_and(|turn| self.engine.attacks(self.state, turn, player, &royal))
            })
    }
}
