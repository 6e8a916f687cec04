//! From template results to complete turns, and game results.
//!
//! A turn is a chain of steps: a step made with `add-partial` is applied, and the same
//! piece continues from its landing square with the templates of the named move type;
//! it must continue while it can (unless `pass partial`). Then `move-priorities` keep
//! only the turns of the highest-priority move type present, `checkmated` goals remove
//! turns that leave a royal piece capturable, and a pass is added when the options allow.

use std::cell::Cell;

use smallvec::{smallvec, SmallVec};

use crate::goals;
use crate::reach::squares_in;
use crate::run::{hits_any, removal_square, Footprint, Loc, NoteReads, Run, Screen, Steps};
use crate::state::{Change, Piece, State, Step};
use crate::tables::{Filter, PassTurn, Tables, Turn, NO_POS};
use crate::turn::{drop_repeated_turns, Move};
use crate::{Kind, MoveType, PlayerIx, Pos};

/// The code of a game's templates: the interpreter, or generated Rust.
pub trait Templates {
    /// Whether this game's runs may be asked to note what they look at: [`crate::MayNote`] if it
    /// has the `checkmated` filter (or may have, for the interpreter), else
    /// [`crate::NeverNote`].
    type Noting: NoteReads;

    /// Runs the move templates of piece type `kind` allowed by `filter` for the piece
    /// `run` has taken up ([`Run::for_move`], [`Run::take_piece`]), restarting the run
    /// before each; the steps they add go to the run's output.
    fn piece_moves(&self, run: &mut Run<'_, Self::Noting>, kind: Kind, filter: Filter);

    /// Runs the drop templates of piece type `kind` allowed by `filter` for the piece
    /// `run` holds ([`Run::for_drop`]), at every position in turn
    /// ([`crate::RunCore::restart_drop_at`]); the steps they add go to the run's output.
    fn drops(&self, run: &mut Run<'_, Self::Noting>, kind: Kind, filter: Filter);

    /// Whether piece type `kind` has drop templates at all.
    fn has_drops(&self, kind: Kind) -> bool;
}

thread_local! {
    /// A spare move list, for the turns generated while the chains of partial ones are
    /// followed, kept between move generations (a nested generation, from an attack
    /// test, finds it taken and makes its own).
    static AFTER_PARTIAL: Cell<Vec<Move>> = const { Cell::new(Vec::new()) };
    /// A spare position, to play partial steps on: kept between move generations, so
    /// that following chains copies a position without allocating one.
    static SPARE_POSITION: Cell<Option<Box<State>>> = const { Cell::new(None) };
}

/// The steps of a turn being completed (partial moves rarely chain more than a few).
type Chain = SmallVec<[Step; 4]>;

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

/// Longest chain of partial moves followed in one turn; longer chains are cut there.
pub const MAX_CHAIN: usize = 128;

/// Most partial-move steps explored for one position. Rules whose continuations branch
/// without end (a piece that may keep stepping back and forth) would otherwise enumerate
/// exponentially many chains; past this budget no further chains are extended.
pub const MAX_CHAIN_STEPS: usize = 20_000;

/// A playable game: its tables and its templates.
pub struct Engine<T> {
    /// The static description of the game.
    pub tables: Tables,
    /// The code of its move and drop templates.
    pub templates: T,
}

impl<T: Templates> Engine<T> {
    /// A game of these tables and templates.
    pub fn new(tables: Tables, templates: T) -> Engine<T> {
        Engine { tables, templates }
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
            Some(royal) => self.legal_turns_guarded(state, turn, royal, moves),
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

    /// A legal turn of `state` chosen uniformly at random, `None` when there is none,
    /// played into `after` (as [`Engine::play_into`]; left unspecified when there is
    /// none); `moves` is a buffer. The same distribution as picking from
    /// [`Engine::legal_moves`], found cheaply where it can be: under the `checkmated`
    /// filter alone, candidates are drawn at random and only the drawn ones tested, on
    /// the position after them, which is then the one returned (a random playout needs
    /// one legal turn played, not the legality of all of them); where the rules bound
    /// each piece's steps ([`crate::Reach::with_step_bounds`]), the candidates are drawn
    /// by piece and index, without listing every piece's turns.
    pub fn random_legal_move(
        &self,
        state: &State,
        rng: &mut crate::SplitMix64,
        moves: &mut Vec<Move>,
        after: &mut State,
    ) -> Option<Move> {
        let turn = self.turn(state);
        let options = &self.tables.options;
        // Priorities, maximal captures and passes choose among the legal turns as a
        // whole: those games list them all.
        let filter_alone = self.tables.priorities.is_empty()
            && !options.maximal_captures
            && options.pass_turn == PassTurn::Never;
        let Some(royal) = self
            .tables
            .royal_kinds(turn.player)
            .filter(|_| filter_alone)
        else {
            self.legal_moves_into(state, moves);
            let drawn = (!moves.is_empty()).then(|| moves[rng.below(moves.len())].clone())?;
            self.play_into(state, &drawn, after);
            return Some(drawn);
        };
        if let Some(drawn) = self.draw_within_bounds(state, turn, royal, rng, moves, after) {
            return Some(drawn);
        }
        self.draw_screened(state, turn, royal, rng, moves, after)
    }

    /// The last resort of [`Engine::random_legal_move`], where drawn candidates were
    /// mostly illegal (the mover in check, say): every turn listed and screened by the
    /// attack test on the position before, which decides most of them (all illegal, in
    /// check); turns are drawn from the list, each tested only if undecided, until one
    /// is legal, which is as uniform as drawing from the legal ones. Out of line: about
    /// one turn in a hundred of a random chess game comes here.
    #[cold]
    #[inline(never)]
    fn draw_screened(
        &self,
        state: &State,
        turn: Turn,
        royal: &[bool],
        rng: &mut crate::SplitMix64,
        moves: &mut Vec<Move>,
        after: &mut State,
    ) -> Option<Move> {
        moves.clear();
        let (mut guard, listed) = self.screened_turns(state, turn, royal, moves);
        let (Some(undecided), Some(true)) = (listed.undecided, listed.routes_differ) else {
            // Turns that may repeat are told apart once all are decided.
            guard.keep_legal(self, state, moves, listed.undecided);
            drop_repeated_turns(moves, listed.routes_differ);
            let drawn = (!moves.is_empty()).then(|| moves.swap_remove(rng.below(moves.len())))?;
            self.play_into(state, &drawn, after);
            return Some(drawn);
        };
        let mut open: SmallVec<[bool; 64]> = (0..moves.len())
            .map(|index| Screen::is_undecided(undecided, index))
            .collect();
        while !moves.is_empty() {
            let index = rng.below(moves.len());
            let legal = if open[index] {
                guard.keeps_royal_safe(self, state, &moves[index])
            } else {
                !guard.attacked_before
            };
            open.swap_remove(index);
            let drawn = moves.swap_remove(index);
            if legal {
                self.play_into(state, &drawn, after);
                return Some(drawn);
            }
        }
        None
    }

    /// A legal turn drawn uniformly at random by piece and index: with `bound(p)` the
    /// most steps the piece `p` could add from its square ([`crate::Reach::max_steps`]), a
    /// number below the sum of the bounds names a piece and an index below its bound;
    /// the piece's turns are listed up to that index, and the one there is the
    /// candidate, if there is one and no piece listed before it makes the same turn
    /// (only pieces whose steps may start elsewhere than on their square can). Every
    /// turn is then as likely as any other, and drawing again when there is no
    /// candidate, or when it leaves a royal piece attacked, keeps it so. What a draw
    /// learns narrows the next ones, each still uniform over a set that holds every
    /// legal turn: a piece whose turns were all listed is drawn by their number, and a
    /// piece and index found illegal are not tried again. Played into
    /// `after`; `None` when this cannot be done here (a piece of unknown bound, drops
    /// to make, tables the rules turn out to exceed) or takes too long (the legal
    /// turns are few, or none): the turns are then listed, and the draw made among
    /// them, which is as uniform (giving up depends only on how many draws failed).
    fn draw_within_bounds(
        &self,
        state: &State,
        turn: Turn,
        royal: &[bool],
        rng: &mut crate::SplitMix64,
        buffer: &mut Vec<Move>,
        after: &mut State,
    ) -> Option<Move> {
        // Enough draws for positions where one candidate in ten is legal; past them the
        // listing is cheaper.
        const MAX_DRAWS: usize = 256;
        const MAX_REJECTED: usize = 8;
        let reach = self.tables.reach.as_ref()?;
        let mover = turn.move_as;
        let drops = (0..self.tables.kinds() as Kind).any(|kind| {
            self.templates.has_drops(kind) && state.stock(&self.tables, mover, kind) > 0
        });
        if drops {
            return None;
        }
        let mut pieces: SmallVec<[Drawn; 32]> = SmallVec::new();
        let mut total = 0;
        // The mover's royal squares, which most candidates leave as they are.
        let mut royal_before: SmallVec<[Pos; 4]> = SmallVec::new();
        // The pieces whose steps may start elsewhere than on their square: the only
        // ones whose turns may be the same as another piece's.
        let mut loose: SmallVec<[Pos; 2]> = SmallVec::new();
        for (pos, piece) in state.pieces_of(mover) {
            if is_royal(royal, piece) {
                royal_before.push(pos);
            }
            let bound = reach.max_steps(mover, piece.kind, pos)?;
            if bound > 0 {
                if !reach.anchored(mover, piece.kind) {
                    loose.push(pos);
                }
                total += bound as usize;
                pieces.push(Drawn {
                    pos,
                    piece,
                    bound,
                    width: bound as usize,
                    end: total,
                });
            }
        }
        if total == 0 {
            return None;
        }
        // Read through a slice: the draws index it often, and a small vector's every
        // access tests whether it spilled.
        let pieces = pieces.as_mut_slice();
        let filter = turn.filter();
        let mut steps = Steps::appending_to(std::mem::take(buffer));
        let mut run = Run::for_pieces(&self.tables, state, turn, &mut steps);
        // The draws (piece and index) found to be no legal turn, or another piece's.
        let mut rejected: SmallVec<[(usize, usize); MAX_REJECTED]> = SmallVec::new();
        let mut found = None;
        let mut guard: Option<RoyalGuard<'_>> = None;
        for _ in 0..MAX_DRAWS {
            let drawn = rng.below_fast(total);
            let at = pieces.partition_point(|piece| piece.end <= drawn);
            let Drawn {
                pos,
                piece,
                bound,
                width,
                end,
            } = pieces[at];
            let index = drawn + width - end;
            if rejected.contains(&(at, index)) {
                continue;
            }
            // The piece's turns up to the drawn one, those before it counted, not kept;
            // all of them, kept, when two may be the same (promotion choices, say), as
            // the later of two equal turns is dropped.
            let mut list = |skip: usize, enough: usize| {
                let out = run.output();
                out.start_afresh();
                out.skip_first(skip, pos);
                run.enough_after(enough);
                run.take_piece(pos, piece);
                self.templates.piece_moves(&mut run, piece.kind, filter);
                run.output().routes_differ()
            };
            let routes_differ = list(index, index + 1) || list(0, usize::MAX);
            let out = run.output();
            let (skipped_partial, skipped_elsewhere) = out.skipped_partial_or_elsewhere();
            let partial = skipped_partial || out.first_partial().is_some();
            let steps = out.count();
            let turns = out.kept_mut();
            let skipped = steps - turns.len();
            // Safety nets, should the tables be wrong (the corpus playouts check them):
            // a partial step, more steps than the bound, a step of an anchored type
            // that starts elsewhere.
            let starts_elsewhere = |m: &Move| m.steps.first().map(|s| s.from) != Some(Some(pos));
            let anchored = reach.anchored(mover, piece.kind);
            let broken = anchored && (skipped_elsewhere || turns.iter().any(starts_elsewhere));
            if partial || broken || steps > bound as usize {
                break;
            }
            drop_repeated_turns(turns, Some(routes_differ));
            let listed = skipped + turns.len();
            if index >= listed {
                // The piece's turns were all listed: from now on it is drawn by their
                // number. Each draw is still uniform over a set holding every turn.
                let shrink = width - listed;
                pieces[at].width = listed;
                for later in &mut pieces[at..] {
                    later.end -= shrink;
                }
                total -= shrink;
                if total == 0 {
                    break;
                }
                continue;
            }
            let candidate = turns.swap_remove(index - skipped);
            if self.made_before(state, turn, pos, &candidate, &loose) {
                rejected.push((at, index));
                if rejected.len() == MAX_REJECTED {
                    break;
                }
                continue;
            }
            // Once a candidate was illegal (the mover may be in check), the attack test
            // on the position before decides the candidates that keep away from what it
            // looked at.
            let decided = (guard.as_ref())
                .filter(|guard| guard.decided_before(state, &candidate))
                .map(|guard| !guard.attacked_before);
            if decided == Some(false) {
                rejected.push((at, index));
                if rejected.len() == MAX_REJECTED {
                    break;
                }
                continue;
            }
            // The history and the hash only for the turn kept.
            self.apply_into(state, &candidate, after);
            let legal = decided.unwrap_or_else(|| {
                let targets = royal_squares_after(&royal_before, &candidate, after, mover, royal);
                !self.attacks_on(after, self.turn(after), mover, &targets, royal)
            });
            if legal {
                let hash = state.hash(&self.tables);
                state.lead_only_to(hash, after);
                self.set_hash_after(state, hash, &candidate, after);
                found = Some(candidate);
                break;
            }
            rejected.push((at, index));
            if rejected.len() == MAX_REJECTED {
                break;
            }
            // Not after a royal piece's own move: the guard decides none of those, and
            // one moving into an attack says nothing of check.
            if guard.is_none() && !is_royal(royal, piece) {
                guard = Some(RoyalGuard::new(self, state, turn, royal));
            }
        }
        drop(run);
        *buffer = steps.into_moves();
        found
    }

    /// Whether a piece listed before the one on `pos` (pieces are listed in position
    /// order) makes the same turn as `candidate`, a turn of that piece. Another piece's
    /// turn is the same only if it starts where `candidate` starts: a `loose` piece's
    /// may start elsewhere than on its square, where the reach table says (a king whose
    /// castling moves a rook, on that rook's square), and `candidate` may start on
    /// another piece's square; and only if that piece may remove pieces from the squares
    /// the first step of `candidate` removes them from.
    fn made_before(
        &self,
        state: &State,
        turn: Turn,
        pos: Pos,
        candidate: &Move,
        loose: &[Pos],
    ) -> bool {
        let start = candidate.steps.first().and_then(|s| s.from);
        let elsewhere = start.filter(|&square| square != pos && !loose.contains(&square));
        let reach = self.tables.reach.as_ref();
        let may_start_where_candidate_does = |other: Pos| match (reach, start, state.at(other)) {
            (Some(reach), Some(start), Some(piece)) => {
                reach.may_start_on(turn.move_as, piece.kind, other, start)
            }
            _ => true,
        };
        let mut suspects = (loose.iter().copied())
            .filter(|&other| other < pos && may_start_where_candidate_does(other))
            .chain(elsewhere.filter(|&square| square < pos));
        let Some(first) = suspects.next() else {
            return false;
        };
        // The same turn removes the same pieces on its first step, made in `state`: the
        // templates whose reach holds those squares (all when it removes none).
        let hits: SmallVec<[Pos; 4]> = (candidate.steps.first().into_iter())
            .flat_map(|s| s.changes.iter().filter_map(|c| removal_square(state, c)))
            .collect();
        std::iter::once(first).chain(suspects).any(|other| {
            let Some(piece) = state.at(other).filter(|p| p.owner == turn.move_as) else {
                return false;
            };
            // Only that piece's templates, and steps, that may hit the same squares.
            let (templates, mut theirs) = match (reach, hits.is_empty()) {
                (Some(reach), false) => (
                    reach.templates_hitting(turn.move_as, piece.kind, other, &hits),
                    Steps::hitting(&hits),
                ),
                _ => (u64::MAX, Steps::new()),
            };
            if templates == 0 {
                return false;
            }
            self.gen()
                .moves_of_piece(state, turn, other, turn.filter(), templates, &mut theirs);
            let theirs = theirs.into_moves();
            theirs.iter().any(|m| m.does_the_same_as(candidate))
        })
    }

    /// The turns of `turn` in `state` that leave the `royal` pieces of the mover safe,
    /// into `moves` (empty), telling [`Listed::routes_differ`]. Out of line: games without
    /// the filter never come here.
    #[inline(never)]
    fn legal_turns_guarded(
        &self,
        state: &State,
        turn: Turn,
        royal: &[bool],
        moves: &mut Vec<Move>,
    ) -> Option<bool> {
        let (mut guard, listed) = self.screened_turns(state, turn, royal, moves);
        guard.keep_legal(self, state, moves, listed.undecided);
        listed.routes_differ
    }

    /// The turns of `turn` in `state`, into `moves` (empty), and the guard of the `royal`
    /// pieces of the mover that screened them as they were listed, where it could.
    fn screened_turns<'r>(
        &self,
        state: &State,
        turn: Turn,
        royal: &'r [bool],
        moves: &mut Vec<Move>,
    ) -> (RoyalGuard<'r>, Listed) {
        // The attack test on the position before comes first, so that the turns it
        // decides are told apart as they are generated.
        let guard = RoyalGuard::new(self, state, turn, royal);
        let first = if guard.screens(turn) {
            Steps::screening(guard.footprint, std::mem::take(moves))
        } else {
            Steps::appending_to(std::mem::take(moves))
        };
        let listed = self.gen().turns_into(state, turn, first, moves);
        (guard, listed)
    }

    /// A candidate turn in `state` on which the legal-move filter for `checkmated` (as
    /// move generation screens the turns, or turn by turn) and an attack test on a fresh
    /// scan of the position after it disagree, described; `None` when they agree on all
    /// (or the player has no royal piece). For checking the filter's shortcuts on real
    /// positions.
    pub fn royal_guard_violation(&self, state: &State) -> Option<String> {
        let turn = self.turn(state);
        let royal = self.tables.royal_kinds(turn.player)?;
        let mut screened = Vec::new();
        self.legal_turns_guarded(state, turn, royal, &mut screened);
        let mut guard = RoyalGuard::new(self, state, turn, royal);
        let mut after = state.clone();
        self.pseudo_legal(state, turn).into_iter().find_map(|m| {
            self.apply_into(state, &m, &mut after);
            let safe = !self.royal_attacked(&after, turn.move_as, royal);
            let verdicts = [
                ("screened", screened.contains(&m)),
                ("turn by turn", guard.keeps_royal_safe(self, state, &m)),
            ];
            let (how, kept) = verdicts.into_iter().find(|&(_, kept)| kept != safe)?;
            let verdict = if kept { "legal" } else { "illegal" };
            Some(format!(
                "{m:?} judged {verdict} by the legal-move filter ({how}), not by a fresh scan"
            ))
        })
    }

    fn gen(&self) -> Gen<'_, T> {
        Gen {
            tables: &self.tables,
            templates: &self.templates,
        }
    }

    fn pseudo_legal(&self, state: &State, turn: Turn) -> Vec<Move> {
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

    /// Whether the player to move in `state` could capture a royal piece of `owner`.
    pub fn royal_attacked(&self, state: &State, owner: PlayerIx, royal: &[bool]) -> bool {
        self.attacks(state, self.turn(state), owner, royal)
    }

    /// Whether a turn of `turn` in `state` could capture a piece of `owner` whose kind is
    /// marked in `royal` (partial-move chains and drops included).
    pub fn attacks(&self, state: &State, turn: Turn, owner: PlayerIx, royal: &[bool]) -> bool {
        self.attacks_on(
            state,
            turn,
            owner,
            &royal_squares(state, owner, royal),
            royal,
        )
    }

    /// [`Engine::attacks`] on `targets`, the squares of the royal pieces.
    fn attacks_on(
        &self,
        state: &State,
        turn: Turn,
        owner: PlayerIx,
        targets: &[Pos],
        royal: &[bool],
    ) -> bool {
        let attacker = turn.move_as;
        let own = state.own_words(attacker);
        let mut inline = [0u64; 4];
        if let Some(reach) = &self.tables.reach {
            let mask = match (targets, inline.get_mut(..own.len())) {
                // One royal piece, the usual case: the table's own bits.
                ([target], _) => reach.hitting_one_from(attacker, *target),
                (_, Some(mask)) => reach
                    .hitting_from(attacker, targets, mask)
                    .then_some(&*mask),
                _ => None,
            };
            if let Some(mask) = mask.filter(|mask| mask.len() == own.len()) {
                // The attacker's pieces on squares from which a royal one could be hit,
                // read off the bits without listing them first.
                let threats = squares_in(own.iter().zip(mask).map(|(o, m)| o & m))
                    .map(|square| square as Pos);
                let found = self
                    .gen()
                    .captures_any_of_among(state, turn, targets, royal, threats, None);
                // The reach's invariant: no step outside it removes a piece (a piece
                // landing where its template found the square empty removes none).
                debug_assert!(
                    found || !self.first_steps_remove(state, turn, targets, royal),
                    "the reach table misses an attack on {targets:?}"
                );
                return found;
            }
        }
        let watched = Watched::scan(&self.tables, state, targets.into(), owner, attacker);
        self.gen().captures_any_of_among(
            state,
            turn,
            &watched.targets,
            royal,
            watched.threats.iter().copied(),
            None,
        )
    }

    /// The general path the reach table shortens, for debug builds: whether a first
    /// step of any of the attacker's pieces, by any of its templates, removes a
    /// protected piece from `targets`. (Compiled in every build, as `debug_assert!`
    /// type-checks its condition; run only in debug builds.)
    fn first_steps_remove(
        &self,
        state: &State,
        turn: Turn,
        targets: &[Pos],
        royal: &[bool],
    ) -> bool {
        let mut steps = Steps::new();
        for (pos, _) in state.pieces_of(turn.move_as) {
            (self.gen()).moves_of_piece(state, turn, pos, turn.filter(), u64::MAX, &mut steps);
        }
        let removes = |step: &Step| removes_protected(&self.tables, state, step, targets, royal);
        let found = steps.iter().any(removes);
        found
    }

    /// Writes the position after a turn into `next`, reusing its buffers, without
    /// recording history (for look-ahead).
    fn apply_into(&self, state: &State, mv: &Move, next: &mut State) {
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

    /// Sets the hash of `next`, the position after `mv` from `state` (whose hash is `hash`).
    fn set_hash_after(&self, state: &State, hash: u64, mv: &Move, next: &mut State) {
        let next_hash = next.hash_from(&self.tables, state, hash, &changed_squares(&mv.steps));
        next.set_hash(next_hash);
    }

    /// A step of the mover's pieces in `state` that removes a piece outside the reach
    /// table's squares for its piece, or for the template that made it (the attack test
    /// would miss it), or a piece that adds more steps than its bound or a step that
    /// starts elsewhere though its type is anchored (random moves would not be drawn
    /// uniformly, see [`crate::Reach::with_step_bounds`]), described; `None` when the table
    /// holds, or there is none. For checking the table on real positions.
    pub fn reach_violation(&self, state: &State) -> Option<String> {
        let reach = self.tables.reach.as_ref()?;
        let turn = self.turn(state);
        let player = turn.move_as;
        for (pos, piece) in state.pieces_of(player) {
            let name = self.tables.positions[pos as usize].as_str();
            let kind_name = &self.tables.pieces[piece.kind as usize].name;
            let mut all = Steps::new();
            self.gen()
                .moves_of_piece(state, turn, pos, Filter::ANY, u64::MAX, &mut all);
            let count = all.iter().count();
            if let Some(bound) = reach.max_steps(player, piece.kind, pos) {
                if count > bound as usize {
                    return Some(format!(
                        "{kind_name} on {name}: {count} steps, more than its bound of {bound}"
                    ));
                }
            }
            let elsewhere = all.iter().find(|step| step.from != Some(pos));
            if let Some(step) = elsewhere.filter(|_| reach.anchored(player, piece.kind)) {
                return Some(format!(
                    "{kind_name} on {name}: {step:?} starts elsewhere, though its type is anchored"
                ));
            }
            let unforeseen = |step: &&Step| {
                step.from
                    .is_some_and(|start| !reach.may_start_on(player, piece.kind, pos, start))
            };
            if let Some(step) = all.iter().find(unforeseen) {
                return Some(format!(
                    "{kind_name} on {name}: {step:?} starts elsewhere, on a square the reach \
                     table does not name"
                ));
            }
            let templates = reach
                .template_parts()
                .and_then(|(counts, _)| counts.get(piece.kind as usize).copied())
                .unwrap_or(0);
            // All templates together, then each template on its own (from the 64th on,
            // together: they share a bit of the limit).
            let runs = std::iter::once((u64::MAX, None))
                .chain((0..templates.min(64)).map(|template| (1 << template, Some(template))));
            for (mask, template) in runs {
                let mut steps = Steps::new();
                self.gen()
                    .moves_of_piece(state, turn, pos, Filter::ANY, mask, &mut steps);
                let outside = |hit: Pos| match template {
                    None => !reach.may_hit(player, piece.kind, pos, &[hit]),
                    Some(_) => reach.templates_hitting(player, piece.kind, pos, &[hit]) & mask == 0,
                };
                let change = steps.iter().find_map(|step| {
                    step.changes
                        .iter()
                        .find(|c| removal_square(state, c).is_some_and(outside))
                });
                if let Some(change) = change {
                    let whose = match template {
                        None => "its reach".to_string(),
                        Some(63) if templates > 64 => {
                            "the reach of its move templates from the 64th on".to_string()
                        }
                        Some(t) => format!("the reach of its move template {}", t + 1),
                    };
                    return Some(format!("{kind_name} on {name}: {change:?} outside {whose}"));
                }
            }
        }
        None
    }

    /// The result of the game in `state`, if it is over. `moves` are the legal moves of
    /// the player to move (computed by the caller, who usually needs them anyway).
    pub fn outcome(&self, state: &State, moves: &[Move]) -> Option<Outcome> {
        goals::outcome(self, state, moves)
    }
}

/// A piece as random moves are drawn by piece and index ([`Engine::random_legal_move`]).
#[derive(Clone, Copy)]
struct Drawn {
    pos: Pos,
    piece: Piece,
    /// The most steps it could add from its square.
    bound: u32,
    /// How many numbers of the draw name it: its bound, until its turns are counted.
    width: usize,
    /// The sum of the widths up to it, its own included.
    end: usize,
}

/// The `checkmated` filter over the candidate turns of one position: which leave every
/// royal piece of the mover safe from capture by the next player.
struct RoyalGuard<'a> {
    royal: &'a [bool],
    reply: Turn,
    /// The attack test after each candidate looks only at the squares that can matter:
    /// those of the position before, plus the ones the candidate changed.
    before: Watched,
    /// The attack test on the position before (as if the next player moved there), and
    /// what its answer depends on (with the royal squares): it holds after every
    /// candidate that changes none of those squares and brings no attacker.
    attacked_before: bool,
    footprint: Footprint,
    /// The position after the candidate under test: the spare position, taken when
    /// first needed and given back when the guard is done.
    after: Option<Box<State>>,
    probe: Probe,
}

impl Drop for RoyalGuard<'_> {
    fn drop(&mut self) {
        if let Some(after) = self.after.take() {
            SPARE_POSITION.set(Some(after));
        }
    }
}

impl<'a> RoyalGuard<'a> {
    fn new<T: Templates>(
        engine: &Engine<T>,
        state: &State,
        turn: Turn,
        royal: &'a [bool],
    ) -> RoyalGuard<'a> {
        let reply = engine.tables.turn(state.turn + 1);
        let targets = royal_squares(state, turn.move_as, royal);
        let before = Watched::scan(&engine.tables, state, targets, turn.move_as, reply.move_as);
        let mut footprint = Footprint::default();
        let attacked_before = engine.gen().captures_any_of_among(
            state,
            reply,
            &before.targets,
            royal,
            before.threats.iter().copied(),
            Some(&mut footprint),
        );
        for &target in &before.targets {
            footprint.note(target);
        }
        RoyalGuard {
            royal,
            reply,
            before,
            attacked_before,
            footprint,
            after: None,
            probe: Probe::default(),
        }
    }

    /// Whether the turns of `turn` may be screened (see [`Steps::screening`]): the
    /// attacker is another player, so the mover's pieces are never among its threats.
    fn screens(&self, turn: Turn) -> bool {
        self.before.attacker != turn.move_as
    }

    /// Keeps the legal turns of `moves`, screened as they were listed when `undecided`
    /// tells which the screen left undecided ([`Listed::undecided`]), else each tested.
    fn keep_legal<T: Templates>(
        &mut self,
        engine: &Engine<T>,
        state: &State,
        moves: &mut Vec<Move>,
        undecided: Option<u64>,
    ) {
        match undecided {
            Some(undecided) => self.keep_screened(engine, state, moves, undecided),
            None => moves.retain(|m| self.keeps_royal_safe(engine, state, m)),
        }
    }

    /// Keeps the legal turns of `moves`, screened with this guard's footprint: those not
    /// listed in `undecided` are legal exactly when the position before was safe.
    fn keep_screened<T: Templates>(
        &mut self,
        engine: &Engine<T>,
        state: &State,
        moves: &mut Vec<Move>,
        undecided: u64,
    ) {
        if undecided == 0 && moves.len() <= 64 && !self.attacked_before {
            return;
        }
        let mut index = 0;
        moves.retain(|m| {
            let this = index;
            index += 1;
            if Screen::is_undecided(undecided, this) {
                self.keeps_royal_safe(engine, state, m)
            } else {
                !self.attacked_before
            }
        });
    }

    /// Whether `mv` leaves the royal pieces safe.
    fn keeps_royal_safe<T: Templates>(
        &mut self,
        engine: &Engine<T>,
        state: &State,
        mv: &Move,
    ) -> bool {
        if self.decided_before(state, mv) {
            return !self.attacked_before;
        }
        self.test_after(engine, state, mv)
    }

    /// The attack test on the position after `mv`. Out of line: most candidates are
    /// decided before, and the loop over them stays small.
    #[inline(never)]
    fn test_after<T: Templates>(&mut self, engine: &Engine<T>, state: &State, mv: &Move) -> bool {
        let after = self.after.get_or_insert_with(|| {
            SPARE_POSITION
                .take()
                .unwrap_or_else(|| Box::new(state.position_clone()))
        });
        engine.apply_into(state, mv, after);
        let (watched, probe) = (&self.before, &mut self.probe);
        watched.after_move(state, after, mv, self.royal, probe);
        let still_watched = watched.attackers_to_test(state, probe);
        !engine.gen().captures_any_of_among(
            after,
            self.reply,
            watched.targets(probe),
            self.royal,
            still_watched.chain(probe.new_attackers.iter().copied()),
            None,
        )
    }
}

impl RoyalGuard<'_> {
    /// Whether the attack test after `mv` is the one on the position before: `mv` is one
    /// step that only moves the mover's pieces and captures, away from the royal
    /// squares and from every square the test before looked at.
    fn decided_before(&self, state: &State, mv: &Move) -> bool {
        let [step] = &mv.steps[..] else {
            return false;
        };
        let untouched = |pos: Pos| !self.footprint.contains(pos);
        step.changes.iter().all(|change| match *change {
            Change::Move { from, to } => {
                untouched(from)
                    && untouched(to)
                    && state
                        .at(from)
                        .is_none_or(|p| p.owner != self.before.attacker)
            }
            Change::Capture { pos } => untouched(pos),
            _ => false,
        })
    }
}

/// The squares an attack test looks at, found once for a position and carried over to
/// the position after each candidate move, so that testing a candidate does not scan
/// the board: the royal pieces of the side that may be attacked, and the threats, the
/// attacker's pieces whose reach includes a royal square.
struct Watched {
    owner: PlayerIx,
    attacker: PlayerIx,
    targets: SmallVec<[Pos; 4]>,
    /// Ascending.
    threats: SmallVec<[Pos; 8]>,
}

/// Whether `piece`'s kind is marked in `royal`.
fn is_royal(royal: &[bool], piece: Piece) -> bool {
    royal.get(piece.kind as usize) == Some(&true)
}

/// The squares of `owner`'s pieces whose kinds are marked in `royal`.
pub(crate) fn royal_squares(state: &State, owner: PlayerIx, royal: &[bool]) -> SmallVec<[Pos; 4]> {
    state
        .pieces_of(owner)
        .filter_map(|(pos, piece)| is_royal(royal, piece).then_some(pos))
        .collect()
}

/// [`royal_squares`] of `owner` in `after`, the position after `mv`, from `before`, those
/// of the position before: found without a scan for a turn that moves one piece and
/// perhaps captures another.
pub(crate) fn royal_squares_after(
    before: &[Pos],
    mv: &Move,
    after: &State,
    owner: PlayerIx,
    royal: &[bool],
) -> SmallVec<[Pos; 4]> {
    let Some((from, to, captured)) = one_piece_moving(&mv.steps) else {
        return royal_squares(after, owner, royal);
    };
    // A royal piece taken, or replaced by the piece moving onto it.
    if captured.is_some_and(|pos| before.contains(&pos)) || before.contains(&to) {
        return royal_squares(after, owner, royal);
    }
    let mut squares = SmallVec::from_slice(before);
    for square in &mut squares {
        if *square == from {
            *square = to;
        }
    }
    squares
}

/// What to test in the position after a candidate move: whether the royal squares are
/// those of the position before (if not, the new ones), and the squares the move
/// changed that now hold an attacker not watched before.
#[derive(Default)]
struct Probe {
    same_targets: bool,
    moved_targets: SmallVec<[Pos; 4]>,
    new_attackers: SmallVec<[Pos; 4]>,
}

impl Watched {
    /// The threats of `attacker`'s pieces to `targets`, the squares of `owner`'s royal
    /// pieces in `state`.
    fn scan(
        tables: &Tables,
        state: &State,
        targets: SmallVec<[Pos; 4]>,
        owner: PlayerIx,
        attacker: PlayerIx,
    ) -> Watched {
        let threats = match &tables.reach {
            None => state.squares_of(attacker).collect(),
            Some(reach) => {
                let own = state.own_words(attacker);
                // On the stack for boards of up to 256 squares.
                let (mut inline, mut spilled) = ([0u64; 4], Vec::new());
                let mask = match inline.get_mut(..own.len()) {
                    Some(mask) => mask,
                    None => {
                        spilled.resize(own.len(), 0);
                        &mut spilled[..]
                    }
                };
                if reach.hitting_from(attacker, &targets, mask) {
                    // Some of these squares may hold a type that cannot hit the royal
                    // squares from there: the attack test asks each piece again.
                    squares_in(own.iter().zip(mask.iter()).map(|(o, m)| o & m))
                        .map(|square| square as Pos)
                        .collect()
                } else {
                    let reach = reach.toward(attacker, &targets);
                    let mut threats = SmallVec::new();
                    for (pos, piece) in state.pieces_of(attacker) {
                        if reach.may_hit(piece.kind, pos) {
                            threats.push(pos);
                        }
                    }
                    threats
                }
            }
        };
        Watched {
            owner,
            attacker,
            targets,
            threats,
        }
    }

    /// What to test in `after`, the position after `mv` from `before`, the scanned one.
    /// Only the squares `mv` changed can hold something new; while the royal squares
    /// stay the same, an attacker that was no threat is still none (reach depends only
    /// on the piece and its square). Most moves change neither, and build nothing.
    fn after_move(
        &self,
        before: &State,
        after: &State,
        mv: &Move,
        royal: &[bool],
        out: &mut Probe,
    ) {
        let royal_at = |pos: Pos| {
            after
                .at(pos)
                .is_some_and(|p| p.owner == self.owner && royal.get(p.kind as usize) == Some(&true))
        };
        out.same_targets = self.targets.iter().all(|&t| royal_at(t));
        if !out.new_attackers.is_empty() {
            out.new_attackers.clear();
        }
        for_each_changed_square(&mv.steps, |pos| {
            if royal_at(pos) && !self.targets.contains(&pos) {
                out.same_targets = false;
            }
            let attacker = after.at(pos).is_some_and(|p| p.owner == self.attacker);
            if attacker && !out.new_attackers.contains(&pos) {
                out.new_attackers.push(pos);
            }
        });
        if !out.same_targets {
            out.moved_targets.clear();
            out.moved_targets
                .extend(self.targets.iter().copied().filter(|&t| royal_at(t)));
            for_each_changed_square(&mv.steps, |pos| {
                if royal_at(pos) && !out.moved_targets.contains(&pos) {
                    out.moved_targets.push(pos);
                }
            });
        }
        if !out.new_attackers.is_empty() {
            let (attacker, same_targets) = (self.attacker, out.same_targets);
            let threats = &self.threats;
            out.new_attackers.retain(|pos| {
                let tested = if same_targets {
                    threats.contains(pos)
                } else {
                    before.is_owned_by(*pos, attacker)
                };
                !tested
            });
        }
    }

    /// The royal squares in the position the probe describes.
    fn targets<'a>(&'a self, probe: &'a Probe) -> &'a [Pos] {
        if probe.same_targets {
            &self.targets
        } else {
            &probe.moved_targets
        }
    }

    /// The attackers of `before`, the scanned position, that the probe must still test
    /// (in ascending order): the threats, or every attacker once a royal piece moved.
    /// The probe's new attackers come after them.
    fn attackers_to_test<'s>(
        &'s self,
        before: &'s State,
        probe: &Probe,
    ) -> impl Iterator<Item = Pos> + 's {
        let (threats, all) = if probe.same_targets {
            (&self.threats[..], None)
        } else {
            (&[][..], Some(before.squares_of(self.attacker)))
        };
        threats.iter().copied().chain(all.into_iter().flatten())
    }
}

/// The squares `steps` change, each once.
fn changed_squares(steps: &[Step]) -> SmallVec<[Pos; 8]> {
    // The commonest turns name each square once: nothing to look for twice.
    match one_piece_moving(steps) {
        Some((from, to, None)) => return smallvec![from, to],
        Some((from, to, Some(captured))) => return smallvec![from, to, captured],
        None => {}
    }
    let mut changed = SmallVec::new();
    for_each_changed_square(steps, |pos| {
        if !changed.contains(&pos) {
            changed.push(pos);
        }
    });
    changed
}

/// The squares of `steps` when they are one step that moves one piece to another square
/// and perhaps captures another on a third (`from`, `to`, the capture): the commonest
/// turns, which hot paths read without a pass over the changes.
#[inline]
fn one_piece_moving(steps: &[Step]) -> Option<(Pos, Pos, Option<Pos>)> {
    let [step] = steps else {
        return None;
    };
    match step.changes[..] {
        [Change::Move { from, to }] if from != to => Some((from, to, None)),
        [Change::Move { from, to }, Change::Capture { pos }]
            if from != to && pos != from && pos != to =>
        {
            Some((from, to, Some(pos)))
        }
        _ => None,
    }
}

/// Whether `step`, played on `before`, removes a piece from one of `targets` (not
/// leaving a piece of its owner of a type marked in `kept` there), counting as an attack:
/// Zillions does not count a capture that leaves as many pieces of the protected types
/// on the board, whoever owns them (a taker that becomes one, PassiveChess.zsg); a king
/// taking a king counts. Without protected types (`attacked?`), every removal does.
pub(crate) fn removes_protected(
    tables: &Tables,
    before: &State,
    step: &Step,
    targets: &[Pos],
    kept: &[bool],
) -> bool {
    if !hits_any(&step.changes, targets) {
        return false;
    }
    // The commonest steps, a piece moving and perhaps capturing another elsewhere, are
    // read off the position before, without a copy of it.
    let steps = std::slice::from_ref(step);
    let changed = changed_squares(steps);
    match one_piece_moving(steps).filter(|&(from, ..)| before.at(from).is_some()) {
        Some((from, to, captured)) => {
            let after = |pos: Pos| match pos {
                _ if pos == to => before.at(from),
                _ if pos == from || Some(pos) == captured => None,
                _ => before.at(pos),
            };
            takes_protected(before, after, &changed, targets, kept)
        }
        None => {
            let mut after = before.clone();
            after.apply_step(tables, step);
            takes_protected(before, |pos| after.at(pos), &changed, targets, kept)
        }
    }
}

/// [`removes_protected`], with what the position after the step holds on each square
/// (`after`) and the squares the step changed.
fn takes_protected(
    before: &State,
    after: impl Fn(Pos) -> Option<Piece>,
    changed: &[Pos],
    targets: &[Pos],
    kept: &[bool],
) -> bool {
    let protected = |p: &Piece| kept.get(p.kind as usize) == Some(&true);
    let taken = targets.iter().any(|&t| {
        before
            .at(t)
            .is_some_and(|royal| !after(t).is_some_and(|p| p.owner == royal.owner && protected(&p)))
    });
    let any_protected = kept.contains(&true);
    taken
        && (!any_protected || {
            let before_count = changed.iter().filter_map(|&pos| before.at(pos));
            let after_count = changed.iter().filter_map(|&pos| after(pos));
            after_count.filter(protected).count() < before_count.filter(protected).count()
        })
}

/// Calls `visit` with each square a change of `steps` names (some more than once).
fn for_each_changed_square(steps: &[Step], mut visit: impl FnMut(Pos)) {
    for change in steps.iter().flat_map(|s| &s.changes) {
        match *change {
            Change::Move { from, to } => {
                visit(from);
                visit(to);
            }
            Change::Place { pos, .. }
            | Change::Capture { pos }
            | Change::Create { pos, .. }
            | Change::ChangeType { pos, .. }
            | Change::ChangeOwner { pos, .. }
            | Change::Flip { pos }
            | Change::SetAttribute { pos, .. } => visit(pos),
            Change::TakeStock { .. } => {}
        }
    }
}

/// What [`Gen::turns_into`] tells of the turns it listed, where they are known: without
/// partial steps, the list is the steps the templates added.
#[derive(Clone, Copy, Debug, Default)]
struct Listed {
    /// With [`Steps::screening`]: [`Steps::undecided`].
    undecided: Option<u64>,
    /// [`Steps::routes_differ`].
    routes_differ: Option<bool>,
}

/// Move generation over borrowed tables and templates, so that a template asking
/// `attacked?` can generate the other side's moves.
pub struct Gen<'a, T: ?Sized> {
    /// The static description of the game.
    pub tables: &'a Tables,
    /// The code of its templates.
    pub templates: &'a T,
}

impl<T: Templates + ?Sized> Gen<'_, T> {
    /// Turns before legality, priorities and passes.
    pub fn pseudo_legal(&self, state: &State, turn: Turn) -> Vec<Move> {
        let mut moves = Vec::new();
        self.pseudo_legal_into(state, turn, &mut moves);
        moves
    }

    /// [`Gen::pseudo_legal`], appended to `moves`.
    pub fn pseudo_legal_into(&self, state: &State, turn: Turn, moves: &mut Vec<Move>) {
        let first = Steps::appending_to(std::mem::take(moves));
        self.turns_into(state, turn, first, moves);
    }

    /// The turns that start with the steps the templates add to `first`, into `moves`
    /// (whose buffer `first` holds).
    /// With [`Steps::screening`], tells [`Steps::undecided`].
    #[inline(always)]
    fn turns_into(
        &self,
        state: &State,
        turn: Turn,
        mut first: Steps,
        moves: &mut Vec<Move>,
    ) -> Listed {
        self.first_steps(state, turn, turn.filter(), &mut first);
        let first_partial = first.first_partial();
        let listed = Listed {
            undecided: first.undecided(),
            routes_differ: Some(first.routes_differ()),
        };
        *moves = first.into_moves();
        // Each partial step is replaced by the turns that complete it, in order.
        let Some(first_partial) = first_partial else {
            return listed;
        };
        // The turns move to the spare buffer, and back in their final order: each turn
        // is copied once.
        let mut generated = AFTER_PARTIAL.take();
        std::mem::swap(moves, &mut generated);
        moves.extend(generated.drain(..first_partial));
        let mut budget = MAX_CHAIN_STEPS;
        let mut scratch = SPARE_POSITION.take();
        for mv in generated.drain(..) {
            if !mv.is_partial() {
                moves.push(mv);
                continue;
            }
            let after = position_copy(&mut scratch, state);
            for step in &mv.steps {
                after.apply_step(self.tables, step);
            }
            self.complete_chain(after, turn, mv, moves, &mut budget);
        }
        SPARE_POSITION.set(scratch);
        AFTER_PARTIAL.set(generated);
        Listed::default()
    }

    #[inline(always)]
    fn first_steps(&self, state: &State, turn: Turn, filter: Filter, out: &mut Steps) {
        // One run for the whole position, taking up each piece in turn.
        let narrowing = out.narrowing_type().filter(|_| filter == Filter::ANY);
        let mut run = Run::for_pieces(self.tables, state, turn, out);
        let mut filter = filter;
        // Two loops, not one testing `narrowing` per piece: the test alone showed in the
        // instruction counts of games without priorities.
        match narrowing {
            None => {
                for (pos, piece) in state.pieces_of(turn.move_as) {
                    run.take_piece(pos, piece);
                    self.templates.piece_moves(&mut run, piece.kind, filter);
                }
            }
            Some(first_priority) => {
                for (pos, piece) in state.pieces_of(turn.move_as) {
                    run.take_piece(pos, piece);
                    self.templates.piece_moves(&mut run, piece.kind, filter);
                    if run.found_narrowed_type() {
                        // Only steps of the first priority are kept from now on: only
                        // that type's templates need run.
                        filter = Filter::only(Some(first_priority));
                    }
                }
            }
        }
        drop(run);
        for kind in 0..self.tables.kinds() as Kind {
            if self.templates.has_drops(kind) && state.stock(self.tables, turn.move_as, kind) > 0 {
                self.drops_of(state, turn, kind, filter, out);
            }
        }
    }

    /// Runs the move templates of the piece on `pos` (those whose bits are set in
    /// `templates`, see [`crate::RunCore::start_template`]), if any, into `out`.
    fn moves_of_piece(
        &self,
        state: &State,
        turn: Turn,
        pos: Pos,
        filter: Filter,
        templates: u64,
        out: &mut Steps,
    ) {
        if let Some(piece) = state.at(pos) {
            let mut run = Run::for_move(self.tables, state, turn, pos, None, out);
            run.only_templates(templates);
            self.templates.piece_moves(&mut run, piece.kind, filter);
        }
    }

    /// Runs the drop templates of piece type `kind` into `out`.
    fn drops_of(&self, state: &State, turn: Turn, kind: Kind, filter: Filter, out: &mut Steps) {
        let mut run = Run::for_drop(self.tables, state, turn, 0, kind, None, out);
        self.templates.drops(&mut run, kind, filter);
    }

    /// Pushes every complete turn that starts with `first`, a turn whose last step is
    /// partial; `after` is the position with it applied.
    fn complete_chain(
        &self,
        after: &State,
        turn: Turn,
        first: Move,
        out: &mut Vec<Move>,
        budget: &mut usize,
    ) {
        let Some(step) = first.steps.last() else {
            return;
        };
        let next = self.continuations(after, turn, step, 1, budget);
        if next.is_empty() {
            // Most often the step has no continuation: it is the turn, moved, not copied.
            out.push(first);
            return;
        }
        let mut chain: Chain = first.steps.into_iter().collect();
        self.follow_chain(after, turn, &mut chain, next, out, budget);
    }

    /// The steps that may continue a chain of `length` steps ending with `last`, in
    /// `after`, the position with the chain applied: none when `last` is not partial or
    /// nothing continues it (the chain is then a complete turn), or at the limits.
    fn continuations(
        &self,
        after: &State,
        turn: Turn,
        last: &Step,
        length: usize,
        budget: &mut usize,
    ) -> Steps {
        let mut next = Steps::new();
        if let Some(continue_with) = last.continue_with {
            if length < MAX_CHAIN && *budget > 0 {
                *budget -= 1;
                let filter = Filter::only(continue_with);
                self.moves_of_piece(after, turn, last.to, filter, u64::MAX, &mut next);
            }
        }
        next
    }

    /// Pushes every complete turn that continues `chain` with one of `next`, the steps
    /// that continue it (at least one); `after` is the position with `chain` applied.
    fn follow_chain(
        &self,
        after: &State,
        turn: Turn,
        chain: &mut Chain,
        next: Steps,
        out: &mut Vec<Move>,
        budget: &mut usize,
    ) {
        if self.tables.options.pass_partial {
            out.push(Move::of_chain(chain));
        }
        let mut scratch = None;
        for step in next
            .into_moves()
            .into_iter()
            .filter_map(Move::into_single_step)
        {
            let further = position_copy(&mut scratch, after);
            further.apply_step(self.tables, &step);
            let deeper = self.continuations(further, turn, &step, chain.len() + 1, budget);
            chain.push(step);
            if deeper.is_empty() {
                out.push(Move::of_chain(chain));
            } else {
                self.follow_chain(further, turn, chain, deeper, out, budget);
            }
            chain.pop();
        }
    }

    /// Whether some turn of `turn` in `state` removes a piece from one of `targets`. A
    /// step that leaves a piece of a kind marked in `kept` on the target does not count:
    /// Zillions let a Passive Chess player leave his General where the enemy could take
    /// it by a capture that turns the taker into a General (PassiveChess.zsg record 30).
    pub fn captures_any_of(
        &self,
        state: &State,
        turn: Turn,
        targets: &[Pos],
        kept: &[bool],
    ) -> bool {
        let everywhere = 0..state.board().len() as Pos;
        self.captures_any_of_among(state, turn, targets, kept, everywhere, None)
    }

    /// [`Gen::captures_any_of`] with the moves of the pieces on `squares` (which must
    /// hold every piece of the mover that could capture; others are skipped), in that
    /// order, and the drops; noting in `footprint` (when given) what the answer depends
    /// on: the squares tested and what their runs looked at.
    pub fn captures_any_of_among(
        &self,
        state: &State,
        turn: Turn,
        targets: &[Pos],
        kept: &[bool],
        squares: impl IntoIterator<Item = Pos>,
        footprint: Option<&mut Footprint>,
    ) -> bool {
        if targets.is_empty() {
            return false;
        }
        let filter = turn.filter();
        // Piece by piece, stopping at the first capture: most queries (is this move
        // legal?) find none, and should not build every turn to learn it, nor keep the
        // steps that cannot hit a target.
        // Made on the first piece to test: most probes test none.
        let mut steps: Option<Steps> = None;
        let noting = footprint.is_some();
        let new_steps = || {
            let steps = Steps::hitting(targets);
            if noting {
                steps.noting_reads()
            } else {
                steps
            }
        };
        let mut seen = Footprint::default();
        let mut budget = MAX_CHAIN_STEPS;
        let removes = |before: &State, step: &Step| {
            removes_protected(self.tables, before, step, targets, kept)
        };
        let hits = |steps: &mut Steps, budget: &mut usize| {
            for step in steps.take() {
                if removes(state, &step) {
                    return true;
                }
                if step.continue_with.is_some() {
                    let mut after = state.clone();
                    after.apply_step(self.tables, &step);
                    let mut chains = Vec::new();
                    self.complete_chain(&after, turn, Move::of_step(step), &mut chains, budget);
                    let chain_removes = |m: &Move| {
                        let mut board = state.clone();
                        m.steps.iter().any(|s| {
                            let hit = removes(&board, s);
                            board.apply_step(self.tables, s);
                            hit
                        })
                    };
                    if chains.iter().any(chain_removes) {
                        return true;
                    }
                }
            }
            false
        };
        let reach = self.tables.reach.as_ref();
        let found = 'search: {
            for pos in squares {
                seen.note(pos);
                let Some(piece) = state.at(pos).filter(|p| p.owner == turn.move_as) else {
                    continue;
                };
                // Only the templates that could reach a target: a queen in line with
                // the king runs one of its eight lines.
                let templates = reach.map_or(u64::MAX, |r| {
                    r.templates_hitting(turn.move_as, piece.kind, pos, targets)
                });
                if templates != 0 {
                    let steps = steps.get_or_insert_with(new_steps);
                    self.moves_of_piece(state, turn, pos, filter, templates, steps);
                    if hits(steps, &mut budget) {
                        break 'search true;
                    }
                }
            }
            for kind in 0..self.tables.kinds() as Kind {
                if !self.templates.has_drops(kind) {
                    continue;
                }
                // Drops look at the whole board, and stocks change with captures.
                seen = Footprint::EVERYTHING;
                if state.stock(self.tables, turn.move_as, kind) > 0 {
                    let steps = steps.get_or_insert_with(new_steps);
                    self.drops_of(state, turn, kind, filter, steps);
                    if hits(steps, &mut budget) {
                        break 'search true;
                    }
                }
            }
            false
        };
        if let Some(footprint) = footprint {
            *footprint = seen.union(steps.map_or_else(Footprint::default, |s| s.footprint()));
        }
        found
    }
}

/// What search algorithms need from a game, whatever executes its templates.
pub trait Game {
    /// A position, with everything the rules look at (history included).
    type State: Clone;
    /// A complete turn.
    type Move: Clone;

    /// The position before the first turn.
    fn start(&self) -> Self::State;
    /// The distinct legal turns of the player to move, in generation order.
    fn legal_moves(&self, state: &Self::State) -> Vec<Self::Move>;
    /// [`Game::legal_moves`] into `moves` (emptied first), so that a search can keep
    /// one buffer per depth instead of allocating a list per position.
    fn legal_moves_into(&self, state: &Self::State, moves: &mut Vec<Self::Move>) {
        *moves = self.legal_moves(state);
    }
    /// The position after `mv`, a turn legal in `state`.
    fn play(&self, state: &Self::State, mv: &Self::Move) -> Self::State;
    /// [`Game::play`] into `next` (whatever it held before), so that a search can keep
    /// one position per depth and reuse its buffers.
    fn play_into(&self, state: &Self::State, mv: &Self::Move, next: &mut Self::State) {
        *next = self.play(state, mv);
    }
    /// The result if the game is over in `state`, given its legal moves (which matter
    /// only through whether there are any: one legal move stands for all).
    fn outcome(&self, state: &Self::State, moves: &[Self::Move]) -> Option<Outcome>;
    /// A legal move of `state` chosen uniformly at random with `rng`, `None` when there
    /// is none, played into `after` (as [`Game::play_into`]; left unspecified when there
    /// is none); `moves` is a buffer. Engines may find it without listing every legal
    /// move, and test it on the position after it (what random playouts need).
    fn random_move(
        &self,
        state: &Self::State,
        rng: &mut crate::SplitMix64,
        moves: &mut Vec<Self::Move>,
        after: &mut Self::State,
    ) -> Option<Self::Move> {
        self.legal_moves_into(state, moves);
        let drawn = (!moves.is_empty()).then(|| moves[rng.below(moves.len())].clone())?;
        self.play_into(state, &drawn, after);
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
    /// The position after the player to move passes, for a search's null-move pruning;
    /// `None` where the next turn is the same player's (a pass would not hand the move
    /// to the other side) or the game cannot tell.
    fn null_move(&self, _state: &Self::State) -> Option<Self::State> {
        None
    }
}

/// What a search's move ordering and quiescence ask of a move, worked out from its
/// changes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveTraits {
    /// Pieces the turn removes from the board: those it captures, changes the type of
    /// (as `maximal captures` counts them), and those a piece moves onto.
    pub captures: u32,
    /// Whether the turn changes a piece's type or creates one (a promotion, usually).
    pub promotes: bool,
    /// Where the moving piece started (none for drops and passes).
    pub from: Option<Pos>,
    /// Where the turn's last step arrived (none for passes).
    pub to: Option<Pos>,
}

impl<T: Templates> Game for Engine<T> {
    type State = State;
    type Move = Move;

    fn start(&self) -> State {
        Engine::start(self)
    }

    fn legal_moves(&self, state: &State) -> Vec<Move> {
        Engine::legal_moves(self, state)
    }

    fn legal_moves_into(&self, state: &State, moves: &mut Vec<Move>) {
        Engine::legal_moves_into(self, state, moves)
    }

    fn play(&self, state: &State, mv: &Move) -> State {
        Engine::play(self, state, mv)
    }

    fn play_into(&self, state: &State, mv: &Move, next: &mut State) {
        Engine::play_into(self, state, mv, next)
    }

    fn outcome(&self, state: &State, moves: &[Move]) -> Option<Outcome> {
        Engine::outcome(self, state, moves)
    }

    fn random_move(
        &self,
        state: &State,
        rng: &mut crate::SplitMix64,
        moves: &mut Vec<Move>,
        after: &mut State,
    ) -> Option<Move> {
        Engine::random_legal_move(self, state, rng, moves, after)
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

    fn null_move(&self, state: &State) -> Option<State> {
        let next = self.tables.turn(state.turn + 1);
        (next.player != self.turn(state).player).then(|| self.play(state, &Move::pass()))
    }

    fn move_traits(&self, state: &State, mv: &Move) -> MoveTraits {
        let changes = mv.steps.iter().flat_map(|s| &s.changes);
        let promotes = changes
            .clone()
            .any(|c| matches!(c, Change::ChangeType { .. } | Change::Create { .. }));
        // A piece moved onto another removes it (chess captures have no `capture`),
        // unless that one left first or was captured already (counted by `captures`).
        let vacated = |square: Pos| {
            changes.clone().any(|c| match *c {
                Change::Move { from, .. } => from == square,
                Change::Capture { pos } => pos == square,
                _ => false,
            })
        };
        let landed_on = changes
            .clone()
            .filter(|c| match **c {
                Change::Move { from, to } => to != from && state.at(to).is_some() && !vacated(to),
                _ => false,
            })
            .count();
        MoveTraits {
            captures: (mv.captures() + landed_on) as u32,
            promotes,
            from: mv.steps.first().and_then(|s| s.from),
            to: mv.steps.last().map(|s| s.to),
        }
    }
}

/// `attacked?` and `defended?`, for the templates of one game. A query inside another
/// answers false instead of recursing forever (two kings each asking whether the other
/// attacks), so the guard keeps the nesting depth.
#[derive(Debug, Default)]
pub struct AttackGuard {
    depth: Cell<u8>,
}

/// Whose moves an attack test tries: the enemy's (`attacked?`) or the mover's own
/// (`defended?`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attackers {
    /// Every other player who takes turns.
    Enemy,
    /// The mover.
    Friends,
}

impl AttackGuard {
    /// Could some move of the `attackers`, of the given move type, capture a piece
    /// standing on `at`?
    pub fn attacked<T: Templates + ?Sized>(
        &self,
        templates: &T,
        run: &Run<'_, T::Noting>,
        move_type: Option<MoveType>,
        at: Loc,
        attackers: Attackers,
    ) -> bool {
        let target = run.resolve(at);
        if target == NO_POS || self.depth.get() > 0 {
            return false;
        }
        run.note_everything();
        let tables = run.tables;
        let mover = run.turn.move_as;
        // "Could capture a piece standing on the square": on an empty square, stand one
        // of the mover's pieces there (on a copy of the position: templates read no
        // history), so that moves that only capture (pawns) count.
        let stood_in;
        let board = match run.state.at(target) {
            Some(_) => run.state,
            None => {
                let mut copy = run.state.position_clone();
                let stand_in = Piece {
                    kind: 0,
                    owner: mover,
                    attributes: 0,
                };
                copy.put(target, Some(stand_in));
                stood_in = copy;
                &stood_in
            }
        };
        self.depth.set(1);
        let gen = Gen { tables, templates };
        let found = (0..tables.players.len() as PlayerIx)
            .filter(|&p| match attackers {
                Attackers::Friends => p == mover,
                Attackers::Enemy => p != mover && tables.is_active(p),
            })
            .any(|side| {
                let turn = Turn {
                    player: side,
                    move_as: side,
                    move_type,
                };
                gen.captures_any_of(board, turn, &[target], &[])
            });
        self.depth.set(0);
        found
    }
}

/// `scratch` made a copy of the position in `state` (no history, no last captures),
/// reusing its buffers if it holds one. Templates read neither.
fn position_copy<'s>(scratch: &'s mut Option<Box<State>>, state: &State) -> &'s mut State {
    match scratch {
        Some(copy) => {
            copy.copy_position_from(state);
            copy
        }
        None => scratch.insert(Box::new(state.position_clone())),
    }
}
