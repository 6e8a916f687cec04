//! What search algorithms need from a game ([`Game`]), and the engine's answers.

use smallvec::{smallvec, SmallVec};

use crate::engine::Engine;
use crate::goals::Outcome;
use crate::state::{State, Undo};
use crate::templates::Templates;
use crate::turn::{Move, MoveTraits};
use crate::{PlayerIx, Pos};

/// What search algorithms need from a game, whatever executes its templates.
pub trait Game {
    /// A position, with everything the rules look at (history included).
    type State: Clone;
    /// A complete turn.
    type Move: Clone;
    /// What [`Game::make`] changed in a position, for [`Game::unmake`].
    type Undo;

    /// The position before the first turn.
    fn start(&self) -> Self::State;
    /// The distinct legal turns of the player to move, in generation order.
    fn legal_moves(&self, state: &Self::State) -> Vec<Self::Move>;
    /// [`Game::legal_moves`] into `moves` (emptied first), so that a search can keep
    /// one buffer per depth instead of allocating a list per position.
    fn legal_moves_into(&self, state: &Self::State, moves: &mut Vec<Self::Move>) {
        *moves = self.legal_moves(state);
    }
    /// How many legal turns the player to move has in `state`: the length of
    /// [`Game::legal_moves_into`]'s list, which engines may count without making every
    /// turn (a perft's last ply); `moves` is a buffer, left unspecified.
    fn legal_move_count(&self, state: &Self::State, moves: &mut Vec<Self::Move>) -> usize {
        self.legal_moves_into(state, moves);
        moves.len()
    }
    /// The position after `mv`, a turn legal in `state`.
    fn play(&self, state: &Self::State, mv: &Self::Move) -> Self::State;
    /// Plays `mv`, a turn legal in `state`, on `state` itself (no copy of the position):
    /// it becomes what [`Game::play`] returns. What it was is returned, for
    /// [`Game::unmake`].
    fn make(&self, state: &mut Self::State, mv: &Self::Move) -> Self::Undo;
    /// Takes back the turn [`Game::make`] played on `state`, which returned `undo`: the
    /// turns taken back are the last ones made, in the reverse order.
    fn unmake(&self, state: &mut Self::State, undo: Self::Undo);
    /// The result if the game is over in `state`, given its legal moves (which matter
    /// only through whether there are any: one legal move stands for all).
    fn outcome(&self, state: &Self::State, moves: &[Self::Move]) -> Option<Outcome>;
    /// The legal moves that remove a piece or promote one ([`MoveTraits::is_loud`]),
    /// in the order [`Game::legal_moves_into`] lists them: a quiescence search's moves.
    /// Engines may find them without listing and testing the others.
    fn legal_loud_moves_into(&self, state: &Self::State, moves: &mut Vec<Self::Move>) {
        self.legal_moves_into(state, moves);
        moves.retain(|m| self.move_traits(state, m).is_loud());
    }
    /// [`Game::outcome`] supposing the player to move has a legal move, answered
    /// without listing them where the game can (by default it lists them, and answers
    /// for what it finds): a search that stands on its evaluation without looking at
    /// the moves asks this, and takes a position without moves for one that has some.
    fn outcome_with_a_move(&self, state: &Self::State) -> Option<Outcome> {
        self.outcome(state, &self.legal_moves(state))
    }
    /// Whether the rules may force a capture on the player to move (`move-priorities`,
    /// `maximal captures`), so that a search may not stand on its evaluation without
    /// first seeing whether every move captures. True where the game cannot tell.
    fn captures_may_be_forced(&self) -> bool {
        true
    }
    /// A legal move of `state` chosen uniformly at random with `rng`, played on `state`
    /// in place (as [`Game::make`] plays it, for good: nothing takes it back); `None`,
    /// `state` untouched, when there is none; `moves` is a buffer. Engines may find it
    /// without listing every legal move, testing drawn candidates on `state` itself
    /// (what random playouts need).
    fn make_random_move(
        &self,
        state: &mut Self::State,
        rng: &mut crate::SplitMix64,
        moves: &mut Vec<Self::Move>,
    ) -> Option<Self::Move> {
        self.legal_moves_into(state, moves);
        let drawn = rng.take_one(moves)?;
        drop(self.make(state, &drawn));
        Some(drawn)
    }
    /// The move in saved-game notation.
    fn notation(&self, state: &Self::State, mv: &Self::Move) -> String;
    /// How many players the game lists (neutral ones included).
    fn players(&self) -> usize;
    /// The player whose turn it is in `state`.
    fn to_move(&self, state: &Self::State) -> PlayerIx;
    /// Whether `player` chooses its moves uniformly at random, as Zillions' players
    /// whose names start with `?` do.
    fn plays_at_random(&self, _player: PlayerIx) -> bool {
        false
    }
    /// A hash of everything the legal moves and the result in `state` depend on, for a
    /// search's transposition table: the position, the player to move, and the last
    /// move's squares (which `last-from?`, `last-to?` and en passant read).
    fn search_key(&self, state: &Self::State) -> u64;
    /// What a search's move ordering asks of `mv`, a move in `state`.
    fn move_traits(&self, _state: &Self::State, _mv: &Self::Move) -> MoveTraits {
        MoveTraits::default()
    }
    /// Whether the player to move in `state` has a royal piece the next player could
    /// take (in check): a search looks deeper there.
    fn in_check(&self, _state: &Self::State) -> bool {
        false
    }
    /// Whether the player to move in `state` could take the opponent's piece on
    /// `square` with a turn's first step (whether that turn would be legal aside): a
    /// search's test for a capture that can be taken back. False where the game cannot
    /// tell.
    fn can_take(&self, _state: &Self::State, _square: Pos) -> bool {
        false
    }
    /// The position after the player to move passes, for a search's null-move pruning;
    /// `None` where the next turn is the same player's (a pass would not hand the move
    /// to the other side) or the game cannot tell.
    fn null_move(&self, _state: &Self::State) -> Option<Self::State> {
        None
    }
}

impl<T: Templates> Game for Engine<T> {
    type State = State;
    type Move = Move;
    type Undo = Undo;

    fn start(&self) -> State {
        Engine::start(self)
    }

    fn legal_moves(&self, state: &State) -> Vec<Move> {
        Engine::legal_moves(self, state)
    }

    fn legal_moves_into(&self, state: &State, moves: &mut Vec<Move>) {
        Engine::legal_moves_into(self, state, moves)
    }

    fn legal_move_count(&self, state: &State, moves: &mut Vec<Move>) -> usize {
        Engine::legal_move_count(self, state, moves)
    }

    fn play(&self, state: &State, mv: &Move) -> State {
        Engine::play(self, state, mv)
    }

    fn make(&self, state: &mut State, mv: &Move) -> Undo {
        Engine::make(self, state, mv)
    }

    fn unmake(&self, state: &mut State, undo: Undo) {
        Engine::unmake(self, state, undo)
    }

    fn outcome(&self, state: &State, moves: &[Move]) -> Option<Outcome> {
        Engine::outcome(self, state, moves)
    }

    fn make_random_move(
        &self,
        state: &mut State,
        rng: &mut crate::SplitMix64,
        moves: &mut Vec<Move>,
    ) -> Option<Move> {
        Engine::make_random_move(self, state, rng, moves)
    }

    fn notation(&self, state: &State, mv: &Move) -> String {
        crate::notation(&self.tables, state, mv)
    }

    fn players(&self) -> usize {
        self.tables.players.len()
    }

    fn to_move(&self, state: &State) -> PlayerIx {
        self.turn(state).player
    }

    fn plays_at_random(&self, player: PlayerIx) -> bool {
        self.tables
            .players
            .get(player as usize)
            .is_some_and(|p| p.random)
    }

    fn search_key(&self, state: &State) -> u64 {
        let square = |pos: Option<Pos>| pos.map_or(0, |p| u64::from(p) + 1);
        let last = square(state.last_from) | square(state.last_to) << 32;
        state.hash(&self.tables) ^ crate::random::mix(last)
    }

    fn in_check(&self, state: &State) -> bool {
        let turn = self.turn(state);
        let Some(royal) = self.tables.royal_kinds(turn.player) else {
            return false;
        };
        let next = self.tables.turn(state.turn + 1);
        next.player != turn.player && self.attacks(state, next, turn.player, royal)
    }

    fn can_take(&self, state: &State, square: Pos) -> bool {
        let turn = self.turn(state);
        let Some(piece) = state.at(square).filter(|p| p.owner != turn.player) else {
            return false;
        };
        let mut kind_taken: SmallVec<[bool; 32]> = smallvec![false; self.tables.kinds()];
        let Some(taken) = kind_taken.get_mut(piece.kind as usize) else {
            return false;
        };
        *taken = true;
        self.gen()
            .captures_any_of(state, turn, &[square], &kind_taken)
    }

    fn legal_loud_moves_into(&self, state: &State, moves: &mut Vec<Move>) {
        Engine::legal_loud_moves_into(self, state, moves);
    }

    fn outcome_with_a_move(&self, state: &State) -> Option<Outcome> {
        Engine::outcome_with_a_move(self, state)
    }

    fn captures_may_be_forced(&self) -> bool {
        !self.tables.priorities.is_empty() || self.tables.options.maximal_captures
    }

    fn null_move(&self, state: &State) -> Option<State> {
        let next = self.tables.turn(state.turn + 1);
        (next.player != self.turn(state).player).then(|| self.play(state, &Move::pass()))
    }

    fn move_traits(&self, state: &State, mv: &Move) -> MoveTraits {
        mv.traits(state)
    }
}
