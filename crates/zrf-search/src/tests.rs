//! Search on small games written here, whose values are known exactly.

use std::sync::atomic::AtomicBool;

use zrf_runtime::{Game, MoveTraits, Outcome, PlayerIx};

use crate::{
    alpha_beta, mcts, Ai, Algorithm, AlphaBetaOptions, Evaluator, Even, Limits, MctsOptions,
    Settings, TranspositionTable, WIN,
};

/// Subtraction game: take 1 to 3 from a pile; whoever takes the last wins. The players
/// move in `order` (cycling), which need not alternate.
struct Nim {
    pile: u32,
    order: Vec<PlayerIx>,
    /// How often a search asked for a pass (null move).
    passes: std::cell::Cell<u32>,
}

#[derive(Clone, Debug, PartialEq)]
struct Heap {
    left: u32,
    turn: usize,
    /// Who took last.
    last: Option<PlayerIx>,
}

impl Game for Nim {
    type State = Heap;
    type Move = u32;
    type Undo = Heap;

    fn start(&self) -> Heap {
        Heap {
            left: self.pile,
            turn: 0,
            last: None,
        }
    }

    fn legal_moves(&self, state: &Heap) -> Vec<u32> {
        (1..=3).filter(|&n| n <= state.left).collect()
    }

    fn play(&self, state: &Heap, mv: &u32) -> Heap {
        Heap {
            left: state.left - mv,
            turn: state.turn + 1,
            last: Some(self.to_move(state)),
        }
    }

    fn make(&self, state: &mut Heap, mv: &u32) -> Heap {
        let after = self.play(state, mv);
        std::mem::replace(state, after)
    }

    fn unmake(&self, state: &mut Heap, before: Heap) {
        *state = before;
    }

    fn outcome(&self, state: &Heap, _: &[u32]) -> Option<Outcome> {
        (state.left == 0).then(|| Outcome::Win(state.last.unwrap_or(0)))
    }

    fn notation(&self, _: &Heap, mv: &u32) -> String {
        format!("take {mv}")
    }

    fn players(&self) -> usize {
        2
    }

    fn to_move(&self, state: &Heap) -> PlayerIx {
        self.order[state.turn % self.order.len()]
    }

    fn search_key(&self, state: &Heap) -> u64 {
        u64::from(state.left) << 32 | (state.turn % self.order.len()) as u64
    }

    fn move_traits(&self, _state: &Self::State, mv: &u32) -> MoveTraits {
        MoveTraits {
            to: Some(*mv),
            ..MoveTraits::default()
        }
    }

    /// Every Nim position with a multiple of four left is a zugzwang: the mover loses,
    /// and would win if it could pass.
    fn null_move(&self, state: &Heap) -> Option<Heap> {
        self.passes.set(self.passes.get() + 1);
        Some(Heap {
            turn: state.turn + 1,
            ..state.clone()
        })
    }
}

/// Even, but allowing null moves everywhere (as no real evaluation should in Nim).
struct PassingAllowed;

impl Evaluator<Nim> for PassingAllowed {
    type Summary = ();

    fn evaluate(&self, _: &Nim, _: &Heap, _: PlayerIx) -> i32 {
        0
    }

    fn null_move_allowed(&self, _: &Nim, _: &Heap) -> bool {
        true
    }
}

/// Whether the player to move in `state` wins with best play, by trying everything.
fn wins(game: &Nim, state: &Heap) -> bool {
    let mover = game.to_move(state);
    game.legal_moves(state).iter().any(|mv| {
        let next = game.play(state, mv);
        match game.outcome(&next, &[]) {
            Some(Outcome::Win(p)) => p == mover,
            _ => (game.to_move(&next) == mover) == wins(game, &next),
        }
    })
}

fn best_move(game: &Nim, state: &Heap, depth: u32) -> (u32, i32) {
    let table = TranspositionTable::with_megabytes(1);
    let options = AlphaBetaOptions {
        limits: Limits::depth(depth),
        ..AlphaBetaOptions::default()
    };
    let found = alpha_beta(game, &Even, &table, state, &options, |_| {});
    let found = found.unwrap_or_else(|| panic!("pile {} has moves", state.left));
    let moves = game.legal_moves(state);
    (moves[found.index], found.iteration.score)
}

#[test]
fn alpha_beta_solves_alternating_nim_from_every_pile() {
    let game = Nim {
        pile: 0,
        order: vec![0, 1],
        passes: Default::default(),
    };
    for pile in 1..=14 {
        let state = Heap {
            left: pile,
            turn: 0,
            last: None,
        };
        let (taken, score) = best_move(&game, &state, 16);
        // Piles that are multiples of four are lost; the others are won by leaving one.
        if pile % 4 == 0 {
            assert!(score < 0, "pile {pile}: {score}");
        } else {
            assert_eq!((pile - taken) % 4, 0, "pile {pile}");
            assert!(score > 0, "pile {pile}: {score}");
        }
        assert_eq!(score > 0, wins(&game, &state), "pile {pile}");
    }
}

#[test]
fn the_nearest_win_scores_highest() {
    let game = Nim {
        pile: 3,
        order: vec![0, 1],
        passes: Default::default(),
    };
    // Taking all three wins at once: one ply.
    assert_eq!(best_move(&game, &game.start(), 8), (3, WIN - 1));
}

#[test]
fn a_turn_order_that_does_not_alternate_is_searched_by_side() {
    // Player 0 moves twice in a row, then player 1 once.
    let game = Nim {
        pile: 0,
        order: vec![0, 0, 1],
        passes: Default::default(),
    };
    for pile in 1..=12 {
        for turn in 0..3 {
            let state = Heap {
                left: pile,
                turn,
                last: None,
            };
            let (_, score) = best_move(&game, &state, 16);
            assert_eq!(
                score > 0,
                wins(&game, &state),
                "pile {pile}, turn {turn}: score {score}"
            );
        }
    }
}

#[test]
fn a_node_limit_gives_the_same_search_every_time() {
    let game = Nim {
        pile: 30,
        order: vec![0, 1],
        passes: Default::default(),
    };
    let run = || {
        let table = TranspositionTable::with_megabytes(1);
        let options = AlphaBetaOptions {
            limits: Limits::nodes(500),
            seed: 9,
            ..AlphaBetaOptions::default()
        };
        alpha_beta(&game, &Even, &table, &game.start(), &options, |_| {})
    };
    let first = run().map(|f| (f.index, f.iteration.depth, f.iteration.nodes));
    assert_eq!(
        first,
        run().map(|f| (f.index, f.iteration.depth, f.iteration.nodes))
    );
}

#[test]
fn a_stop_flag_set_before_the_search_still_gives_a_move() {
    let game = Nim {
        pile: 30,
        order: vec![0, 1],
        passes: Default::default(),
    };
    let stop = AtomicBool::new(true);
    let table = TranspositionTable::with_megabytes(1);
    let options = AlphaBetaOptions {
        limits: Limits::nodes(5_000),
        stop: Some(&stop),
        ..AlphaBetaOptions::default()
    };
    let found = alpha_beta(&game, &Even, &table, &game.start(), &options, |_| {});
    assert!(found.is_some_and(|f| f.index < 3));
}

#[test]
fn monte_carlo_finds_the_winning_take() {
    let game = Nim {
        pile: 0,
        order: vec![0, 1],
        passes: Default::default(),
    };
    for pile in [5, 6, 7] {
        let state = Heap {
            left: pile,
            turn: 0,
            last: None,
        };
        let options = MctsOptions {
            limits: Limits::nodes(3_000),
            seed: 3,
            ..MctsOptions::default()
        };
        let found = mcts(&game, None::<&Even>, &state, &options);
        let moves = game.legal_moves(&state);
        let taken = found.map(|f| moves[f.index]);
        assert_eq!(taken, Some(pile - 4), "pile {pile}");
    }
}

/// Scores a pile by how far it is from a multiple of four: a heuristic that is right.
struct Fours;

impl Evaluator<Nim> for Fours {
    type Summary = ();

    fn evaluate(&self, game: &Nim, state: &Heap, player: PlayerIx) -> i32 {
        let good_for_mover = if state.left % 4 == 0 { -50 } else { 50 };
        if game.to_move(state) == player {
            good_for_mover
        } else {
            -good_for_mover
        }
    }
}

#[test]
fn a_shallow_search_follows_the_evaluation() {
    let game = Nim {
        pile: 0,
        order: vec![0, 1],
        passes: Default::default(),
    };
    let state = Heap {
        left: 23,
        turn: 0,
        last: None,
    };
    let settings = Settings {
        algorithm: Some(Algorithm::AlphaBeta),
        limits: Limits::depth(1),
        ..Settings::default()
    };
    let mut ai = Ai::new(&game, Fours, Algorithm::AlphaBeta, settings);
    let choice = ai.choose(&state, None, |_| {});
    assert_eq!(choice.map(|c| game.legal_moves(&state)[c.index]), Some(3));
}

#[test]
fn null_moves_are_tried_only_where_the_evaluation_allows_them() {
    let game = Nim {
        pile: 11,
        order: vec![0, 1],
        passes: Default::default(),
    };
    let state = game.start();
    let table = TranspositionTable::with_megabytes(1);
    let options = AlphaBetaOptions {
        limits: Limits::depth(12),
        ..AlphaBetaOptions::default()
    };
    // Even allows none: the search never passes, and solves the pile (take 3, leaving 8).
    let found = alpha_beta(&game, &Even, &table, &state, &options, |_| {}).expect("a move");
    assert_eq!(game.passes.get(), 0);
    assert_eq!(game.legal_moves(&state)[found.index], 3);
    // Where the evaluation allows them, scout nodes whose evaluation reaches beta pass.
    let table = TranspositionTable::with_megabytes(1);
    alpha_beta(&game, &PassingAllowed, &table, &state, &options, |_| {}).expect("a move");
    assert!(game.passes.get() > 0);
}
