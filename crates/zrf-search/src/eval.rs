//! Evaluation worked out from the rules alone, so that any game plays sensibly with no
//! hand tuning, as Zillions' did.
//!
//! Each piece type is put alone on the empty board on every square, for every player,
//! and its turns there are counted. From those counts come:
//! - its value: the mean count raised to the power 0.75 (so that a queen is worth about
//!   nine pawns, not eighteen), plus a share of the value of what it promotes into;
//! - a square table: more turns from a square than on average is worth a little
//!   (mobility: centralised knights, open lines);
//! - for a piece whose loss ends the game (royal or decisive) with no goal place of
//!   its own, a second table, the first one negated: while the board is full it
//!   shelters on the squares where it could be reached from fewest, and it comes out
//!   as the material on the board thins ([`RulesEval::evaluate`] blends the two by
//!   the material left against the start's, as chess players' king tables do);
//! - distances, in its own turns, to the squares where it promotes and to the places
//!   of the `absolute-config` goals of its owner (advancing pawns, racing to a goal).
//!
//! The goals add their own terms: `relative-config` lines (alignments) partly filled by
//! a player with no other piece in the way; material counted against a player whose
//! goal is to lose pieces; a large value on pieces whose loss decides the game
//! (`captured`, `pieces-remaining` of one type), and a high one on pieces a player
//! wins by collecting (a winning `pieces-remaining N` of one type, N above zero).
//!
//! Placement games (every piece only enters by drops) add the results of a few random
//! games played on from the position ([`RulesEval::rollouts`]): there, what stands on
//! the board says little of how the game ends (a flip or a line decides it), and the
//! ends of random games from a position measure it where counting pieces does not.
//! Only where random games end: a few from the start, seeded, must mostly end within
//! the rollouts' cut, or a rollout would cost a long game and tell nothing.

use std::sync::OnceLock;

use smallvec::{smallvec, SmallVec};
use zrf_runtime::{
    mix, Change, Engine, Game, GoalCond, GoalKind, Kind, Move, Outcome, Piece, PieceRef,
    PieceSquares, Place, PlayerIx, Pos, SplitMix64, State, Tables, Templates, Undo, NO_POS,
};

use crate::playout::random_game_from;
use crate::room::Room;

/// Judges positions for a search.
pub trait Evaluator<G: Game> {
    /// What the evaluation keeps of a position along a search, brought up to date turn
    /// by turn ([`Evaluator::summary_after`]) so that a leaf is judged without a look
    /// at every piece ([`Evaluator::evaluate_summarized`]); `()` where it keeps nothing.
    type Summary: Clone + Default;

    /// The worth of `state` to `player`: positive when `player` stands better than the
    /// others, in hundredths of a pawn or so.
    fn evaluate(&self, game: &G, state: &G::State, player: PlayerIx) -> i32;

    /// The summary of `state`, worked out afresh.
    fn summarize(&self, _game: &G, _state: &G::State) -> Self::Summary {
        Self::Summary::default()
    }

    /// Brings `summary`, of the position before a turn, up to date for `state`, the
    /// position [`Game::make`] left, which returned `undo`.
    fn summary_after(
        &self,
        _game: &G,
        _state: &G::State,
        _undo: &G::Undo,
        _summary: &mut Self::Summary,
    ) {
    }

    /// [`Evaluator::evaluate`], where `summary` is that of `state`.
    fn evaluate_summarized(
        &self,
        game: &G,
        state: &G::State,
        player: PlayerIx,
        _summary: &Self::Summary,
    ) -> i32 {
        self.evaluate(game, state, player)
    }

    /// Whether one evaluation may take long (it plays games on): a search then looks at
    /// the clock at every node, not every few.
    fn is_slow(&self) -> bool {
        false
    }

    /// What `mv` wins at once for the player making it, in the evaluation's units: the
    /// worth of what it captures and of what it promotes into (less what promotes);
    /// and the worth of the piece that moves. For ordering captures (most valuable
    /// victim first, least valuable attacker first) and pruning hopeless ones.
    fn move_gain(&self, _game: &G, _state: &G::State, _mv: &G::Move) -> MoveGain {
        MoveGain::default()
    }

    /// Whether the player to move in `state` may pass in a null-move search: never
    /// where its pieces are all of the game's least valuable kinds, where passing might
    /// be best (zugzwang).
    fn null_move_allowed(&self, _game: &G, _state: &G::State) -> bool {
        false
    }
}

/// What a move wins at once ([`Evaluator::move_gain`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveGain {
    /// The worth of what it captures, plus what a promotion adds.
    pub gain: i32,
    /// The worth of the piece that moves (0 for drops).
    pub mover: i32,
}

/// An evaluator that knows nothing: every position is even. Search then plays by the
/// game's results alone.
#[derive(Clone, Copy, Debug, Default)]
pub struct Even;

impl<G: Game> Evaluator<G> for Even {
    type Summary = ();

    fn evaluate(&self, _: &G, _: &G::State, _: PlayerIx) -> i32 {
        0
    }
}

/// Most piece placements tried while working the tables out; on larger games squares
/// are sampled.
const PLACEMENT_BUDGET: usize = 6_000;
/// Most `relative-config` lines kept; a game with more scores no alignments.
const LINE_BUDGET: usize = 50_000;
/// The value of a piece that cannot move on the empty board (stones that are only
/// dropped, pieces that only capture): it still counts.
const STILL_PIECE_VALUE: i32 = 100;
/// Times the largest value that a piece whose loss decides the game is worth.
const DECISIVE_FACTOR: i32 = 20;
/// The worth of a turn more from a square than the piece's mean, in a square table,
/// and the most a square's mobility may add or take away.
const MOBILITY_WEIGHT: f64 = 10.0;
const MOBILITY_CAP: f64 = 150.0;
/// How full the board is at the start, for blending shelter tables.
const FULL_BOARD: i32 = 256;
/// Times the largest value that a piece the player wins by collecting is worth.
const COLLECTED_FACTOR: i32 = 3;
/// Random games per position judged by rollouts (placement games).
const PLACEMENT_ROLLOUTS: u32 = 2;
/// Turns of a rollout before it is cut (and counts as even).
const ROLLOUT_PLIES: usize = 200;
/// Random games from the start played to tell whether random games end (three of the
/// four must, within [`ROLLOUT_PLIES`]).
const ROLLOUT_PROBES: u64 = 4;
/// The worth of a rollout won for sure, in the evaluation's units: ten pawns, so that
/// rollouts decide between positions whose material differs by less.
const ROLLOUT_WEIGHT: f64 = 1000.0;
/// The score of an alignment with `k` of its squares filled, by `k`.
const LINE_WEIGHTS: [i32; 8] = [0, 2, 12, 60, 250, 700, 1200, 1600];

/// The evaluation of one game, worked out from its rules ([`RulesEval::new`]); the
/// piece values can be overridden ([`RulesEval::set_value`]).
#[derive(Clone, Debug)]
pub struct RulesEval {
    /// The game's sizes, and where a player's piece of a type has its entries in
    /// `squares` and `shelter`.
    layout: PieceSquares,
    /// Players that take turns.
    active: Vec<PlayerIx>,
    /// Per piece type, its worth on the board.
    values: Vec<i32>,
    /// Per piece type, its worth off the board (for drops).
    hand_values: Vec<i32>,
    /// Per player, type and square ([`PieceSquares::square`]): bonus of the piece there
    /// (for a sheltering piece, on an emptied board).
    squares: Vec<i16>,
    /// Per player and type ([`PieceSquares::pair`]): for a piece that shelters while the board is full
    /// (see the module's doc), its bonus on a full board.
    shelter: Vec<Option<Box<[i16]>>>,
    /// Per piece type, whether it counts as material that thins out over a game.
    thinning: Vec<bool>,
    /// Per piece type, how many of it the players hold at the start; the worth by
    /// `values` of those of thinning kinds is the full board that the shelter tables
    /// are for.
    start_counts: Vec<i32>,
    start_material: i32,
    /// Per player: `-1` when its goal is to be rid of its pieces, else `1`.
    material_sign: Vec<i32>,
    /// `relative-config` goals: per line, whose goal, its sign, and its squares.
    lines: Vec<Line>,
    /// Whether every piece type only enters by drops: placement and connection games.
    placement_only: bool,
    /// Random games played on from each evaluated position (see the module's doc):
    /// worked out when first needed, since telling whether random games end plays some.
    rollouts: OnceLock<u32>,
    /// Per piece type, the counts it was valued from (for `zrfc eval`).
    report: Vec<KindReport>,
    /// The least worth of a piece type that has any (see
    /// [`Evaluator::null_move_allowed`]).
    least_value: OnceLock<i32>,
    /// A learned weight of each piece near an enemy royal piece, and per position the
    /// positions within two steps as a bitset over squares ([`RulesEval::apply`]).
    pressure: Option<(i32, Vec<u64>)>,
    /// Where each piece's turns reach on the empty board, for its room ([`Room`]).
    room: Room,
    /// Per piece type, the learned worth of each square of its room; `None` where
    /// nothing learned weighs room (the search then does not count it).
    room_weights: Option<Vec<i32>>,
    /// Per player and type ([`PieceSquares::pair`]): what a piece adds at a leaf, from
    /// `values`, `material_sign`, `squares`, `shelter` and `thinning`. The invariant:
    /// rebuilt whenever they change ([`RulesEval::refresh`]); debug builds check every
    /// evaluation against the pieces looked up one by one ([`RulesEval::holdings`]).
    worth: Vec<PieceWorth>,
}

/// What a piece of one player and type adds to [`RulesEval::evaluate`]'s sums, on each
/// square: one read a piece at every leaf of a search, where the value, the square
/// bonus and the shelter table were each looked up apart.
#[derive(Clone, Debug, Default)]
struct PieceWorth {
    /// Its value (with its owner's material sign), plus its square bonus where the
    /// type has no shelter table.
    plain: Box<[i32]>,
    /// For a type with a shelter table: its bonus on the full board and on the
    /// emptied one, blended by the material left.
    blended: Option<Box<[[i32; 2]]>>,
    /// Its value where it thins out over a game (what the material left counts), else 0.
    material: i32,
}

impl PieceWorth {
    /// Adds a piece on `pos` to `sums`, `times` times (-1: takes it away).
    #[inline]
    fn add_to(&self, sums: &mut BoardSums, pos: usize, times: i32) {
        sums.plain += times * self.plain.get(pos).copied().unwrap_or(0);
        if let Some(blended) = &self.blended {
            let [full, open] = blended.get(pos).copied().unwrap_or_default();
            sums.blended[0] += times * full;
            sums.blended[1] += times * open;
        }
        sums.material += times * self.material;
    }
}

/// The sums of one player's pieces on the board: what [`RulesEval`] keeps of a position
/// per player along a search ([`Evaluator::Summary`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardSums {
    /// Values and the bonuses that are not blended.
    plain: i32,
    /// The bonuses of sheltering pieces on the full board and on the emptied one.
    blended: [i32; 2],
    /// The worth of the pieces that thin out.
    material: i32,
}

/// How a piece type was valued.
#[derive(Clone, Debug, PartialEq)]
pub struct KindReport {
    pub name: String,
    /// Mean turns from a square on the empty board.
    pub mobility: f64,
    /// Share of squares from which it promotes.
    pub promotes_from: f64,
    /// Whether losing it can decide the game.
    pub decisive: bool,
    /// Whether it is royal (`checkmated`): never captured, so worth nothing as material.
    pub royal: bool,
}

#[derive(Clone, Debug)]
struct Line {
    player: PlayerIx,
    sign: i32,
    squares: Vec<(Pos, PieceRef)>,
}

/// What one piece type does alone on the empty board, for one player.
struct Survey {
    /// Per square: its turns there (`None`: not tried).
    turns: Vec<Option<u32>>,
    /// Per square: the squares its turns arrive at.
    arrivals: Vec<Vec<Pos>>,
    /// Per square: whether some turn from there changes a type (promotes).
    promotes: Vec<bool>,
    /// The types it can be changed into.
    promoted_kinds: Vec<Kind>,
}

impl RulesEval {
    /// The evaluation of `engine`'s game: the learned one its tables carry
    /// ([`zrf_runtime::Tables::evaluation`], made by `zrfc tune`) over the one worked out
    /// from its rules, else the latter alone.
    pub fn new<T: Templates>(engine: &Engine<T>) -> RulesEval {
        let mut eval = RulesEval::from_rules(engine);
        let learned = engine
            .tables
            .evaluation
            .as_deref()
            .and_then(|text| crate::learn::Learned::parse(text).ok())
            .filter(|learned| learned.check(&engine.tables).is_ok());
        if let Some(learned) = learned {
            eval.apply(&engine.tables, &learned);
        }
        eval
    }

    /// Works the evaluation out from the rules of `engine` alone.
    pub fn from_rules<T: Templates>(engine: &Engine<T>) -> RulesEval {
        let tables = &engine.tables;
        let kinds = tables.kinds();
        let positions = tables.positions.len();
        let players = tables.players.len();
        let active: Vec<PlayerIx> = (0..players as PlayerIx)
            .filter(|&p| tables.is_active(p) && !tables.players[p as usize].random)
            .collect();
        let placements = (kinds * positions * active.len()).max(1);
        let stride = placements.div_ceil(PLACEMENT_BUDGET).max(1);
        let hand = crate::hands::hand_positions(tables);
        let surveys: Vec<Vec<Option<Survey>>> = (0..players as PlayerIx)
            .map(|player| {
                (0..kinds as Kind)
                    .map(|kind| {
                        active
                            .contains(&player)
                            .then(|| survey(engine, player, kind, stride, &hand))
                            .flatten()
                    })
                    .collect()
            })
            .collect();

        let royal: Vec<bool> = (0..kinds)
            .map(|k| tables.royal.iter().any(|r| r.get(k) == Some(&true)))
            .collect();
        let decisive = decisive_kinds(tables);
        let collected = collected_kinds(tables);
        let mut report = Vec::with_capacity(kinds);
        let mut mobility = vec![0.0f64; kinds];
        let mut promotes_from = vec![0.0f64; kinds];
        let mut promoted: Vec<Vec<Kind>> = vec![Vec::new(); kinds];
        for kind in 0..kinds {
            let (mut turns, mut tried, mut promoting) = (0u64, 0u64, 0u64);
            for survey in surveys.iter().filter_map(|s| s[kind].as_ref()) {
                for (square, count) in survey.turns.iter().enumerate() {
                    if let Some(count) = count {
                        turns += u64::from(*count);
                        tried += 1;
                        promoting += u64::from(survey.promotes[square]);
                    }
                }
                for &k in &survey.promoted_kinds {
                    if k as usize != kind && !promoted[kind].contains(&k) {
                        promoted[kind].push(k);
                    }
                }
            }
            mobility[kind] = turns as f64 / tried.max(1) as f64;
            promotes_from[kind] = promoting as f64 / tried.max(1) as f64;
        }
        let base: Vec<i32> = mobility
            .iter()
            .map(|&m| {
                if m < 0.5 {
                    STILL_PIECE_VALUE
                } else {
                    (100.0 * m.powf(0.75)).round() as i32
                }
            })
            .collect();
        let mut values: Vec<i32> = (0..kinds)
            .map(|k| {
                let best = promoted[k].iter().map(|&p| base[p as usize]).max();
                let gain = best.map_or(0, |b| (b - base[k]).max(0));
                base[k] + (f64::from(gain) * promotes_from[k] * 0.25).round() as i32
            })
            .collect();
        let top = values.iter().copied().max().unwrap_or(STILL_PIECE_VALUE);
        for kind in 0..kinds {
            if royal[kind] {
                values[kind] = 0;
            } else if decisive[kind] {
                values[kind] = top * DECISIVE_FACTOR;
            } else if collected[kind] {
                values[kind] = top * COLLECTED_FACTOR;
            }
            report.push(KindReport {
                name: tables.pieces[kind].name.clone(),
                mobility: mobility[kind],
                promotes_from: promotes_from[kind],
                decisive: decisive[kind],
                royal: royal[kind],
            });
        }
        let hand_values = values.clone();

        let layout = tables.layout();
        let mut squares = vec![0i16; layout.squares()];
        let mut shelter = vec![None; layout.pairs()];
        for (player, row) in surveys.iter().enumerate() {
            for (kind, survey) in row.iter().enumerate() {
                let Some(survey) = survey else { continue };
                let table = &mut squares[layout.square(player, kind, 0)..][..positions];
                fill_square_table(
                    table,
                    tables,
                    player as PlayerIx,
                    kind as Kind,
                    survey,
                    mobility[kind],
                );
                let ends_game = royal[kind] || decisive[kind];
                if ends_game && goal_places(tables, player as PlayerIx, kind as Kind).is_empty() {
                    // The mobility part turned round; nearness to promotion kept.
                    let sheltering = table
                        .iter()
                        .zip(&survey.turns)
                        .map(|(&bonus, &turns)| bonus - 2 * mobility_bonus(turns, mobility[kind]));
                    shelter[layout.pair(player, kind)] = Some(sheltering.collect());
                }
            }
        }
        let thinning: Vec<bool> = (0..kinds)
            .map(|k| !royal[k] && !decisive[k] && !collected[k])
            .collect();
        let start = engine.start();
        let mut start_counts = vec![0i32; kinds];
        for player in 0..players as PlayerIx {
            for (_, piece) in start.pieces_of(player) {
                start_counts[piece.kind as usize] += 1;
            }
            for (kind, count) in start_counts.iter_mut().enumerate() {
                *count += start.stock(tables, player, kind as Kind).min(1000) as i32;
            }
        }

        let room = Room::new(tables, |player, kind, from| {
            surveys[player][kind]
                .as_ref()
                .map_or_else(Vec::new, |survey| survey.arrivals[from].clone())
        });
        let material_sign = (0..players as PlayerIx)
            .map(|p| if sheds_pieces(tables, p) { -1 } else { 1 })
            .collect();
        let placement_only = surveys
            .iter()
            .flatten()
            .flatten()
            .all(|s| s.turns.iter().flatten().all(|&t| t == 0));
        let mut eval = RulesEval {
            layout,
            active,
            values,
            hand_values,
            squares,
            shelter,
            thinning,
            start_counts,
            start_material: 0,
            material_sign,
            lines: alignment_lines(tables),
            placement_only,
            rollouts: if placement_only {
                OnceLock::new()
            } else {
                OnceLock::from(0)
            },
            report,
            least_value: OnceLock::new(),
            pressure: None,
            room,
            room_weights: None,
            worth: Vec::new(),
        };
        eval.refresh();
        eval
    }

    /// Works out what follows from the values, bonuses and shelter tables once they
    /// change: the start's material and the worth of each piece ([`PieceWorth`]).
    fn refresh(&mut self) {
        self.start_material = self
            .start_counts
            .iter()
            .zip(&self.values)
            .zip(&self.thinning)
            .filter(|&(_, &thinning)| thinning)
            .map(|((&count, &value), _)| count.saturating_mul(value))
            .fold(0i32, i32::saturating_add);
        let layout = self.layout;
        let mut worth = vec![PieceWorth::default(); layout.pairs()];
        for player in 0..layout.players {
            for kind in 0..layout.kinds {
                let pair = layout.pair(player, kind);
                let value = self.values[kind] * self.material_sign[player];
                let open = &self.squares[layout.square(player, kind, 0)..][..layout.positions];
                let shelter = self.shelter[pair].as_deref();
                let plain = open.iter().map(|&bonus| match shelter {
                    Some(_) => value,
                    None => value + i32::from(bonus),
                });
                let blended = shelter.map(|full| {
                    let bonus =
                        |table: &[i16], pos: usize| i32::from(table.get(pos).copied().unwrap_or(0));
                    (0..layout.positions)
                        .map(|pos| [bonus(full, pos), bonus(open, pos)])
                        .collect()
                });
                worth[pair] = PieceWorth {
                    plain: plain.collect(),
                    blended,
                    material: if self.thinning[kind] {
                        self.values[kind]
                    } else {
                        0
                    },
                };
            }
        }
        self.worth = worth;
    }

    /// Takes a learned evaluation's values, square bonuses (each side's through the
    /// board's symmetry) and royal pressure; `learned` must be for this game
    /// ([`crate::learn::Learned::check`]).
    pub fn apply(&mut self, tables: &Tables, learned: &crate::learn::Learned) {
        let kind_of = |name: &str| tables.pieces.iter().position(|p| p.name == name);
        for (name, value) in &learned.values {
            if let Some(kind) = kind_of(name) {
                self.set_value(kind as Kind, *value);
            }
        }
        let Ok(features) = crate::learn::Features::new(tables) else {
            return;
        };
        let open_of = |name: &str| {
            learned
                .open_squares
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, squares)| squares)
        };
        let bonus = |squares: &[i32], seen_as: Pos| {
            let bonus = squares.get(seen_as as usize).copied().unwrap_or(0);
            bonus.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16
        };
        for (name, full) in &learned.squares {
            let Some(kind) = kind_of(name) else { continue };
            // Without an emptied board's table, the one table holds throughout.
            let open = open_of(name).unwrap_or(full);
            for player in 0..tables.players.len() {
                let canonical = &features.canonical(player as PlayerIx)[..self.layout.positions];
                let table = self.layout.pair(player, kind);
                let row = &mut self.squares[self.layout.square(player, kind, 0)..]
                    [..self.layout.positions];
                for (square, &seen_as) in row.iter_mut().zip(canonical) {
                    *square = bonus(open, seen_as);
                }
                self.shelter[table] = (!std::ptr::eq(open, full)).then(|| {
                    canonical
                        .iter()
                        .map(|&seen_as| bonus(full, seen_as))
                        .collect()
                });
            }
        }
        let words = self.layout.words();
        let mut near = vec![0u64; self.layout.positions * words];
        for pos in 0..self.layout.positions {
            for &n in features.near(pos as Pos) {
                near[pos * words + n as usize / 64] |= 1 << (n % 64);
            }
        }
        self.pressure = (learned.royal_pressure != 0).then_some((learned.royal_pressure, near));
        let mut room_weights = vec![0; self.layout.kinds];
        for (name, weight) in &learned.room {
            if let Some(kind) = kind_of(name) {
                room_weights[kind] = *weight;
            }
        }
        self.room_weights = room_weights.iter().any(|&w| w != 0).then_some(room_weights);
        self.least_value = OnceLock::new();
        self.refresh();
    }

    /// The bonus of a piece of `player` and `kind` on `pos`, with the board as full as
    /// at the start.
    pub fn square_bonus(&self, player: PlayerIx, kind: Kind, pos: Pos) -> i32 {
        self.blended_bonus(player, kind, pos, FULL_BOARD)
    }

    /// The bonus of a piece of `player` and `kind` on `pos`, with the board as full as
    /// at the start (`full`) or emptied.
    pub fn bonus_at(&self, player: PlayerIx, kind: Kind, pos: Pos, full: bool) -> i32 {
        self.blended_bonus(player, kind, pos, if full { FULL_BOARD } else { 0 })
    }

    /// How much of the start's material (of kinds that thin out) pieces of these kinds
    /// on the board are, from 0 to 1: what blends the square tables of a full board
    /// and an emptied one.
    pub fn fullness(&self, kinds: impl Iterator<Item = Kind>) -> f32 {
        let left: i32 = kinds
            .filter(|&kind| self.thinning.get(kind as usize) == Some(&true))
            .map(|kind| self.values.get(kind as usize).copied().unwrap_or(0))
            .fold(0, i32::saturating_add);
        (left as f32 / self.start_material.max(1) as f32).clamp(0.0, 1.0)
    }

    /// The bonus of a piece of `player` and `kind` on `pos` where the board holds
    /// `fullness` (of [`FULL_BOARD`]) of the start's material.
    fn blended_bonus(&self, player: PlayerIx, kind: Kind, pos: Pos, fullness: i32) -> i32 {
        let (player, kind) = (player as usize, kind as usize);
        let table = self.layout.pair(player, kind);
        let at = self.layout.square(player, kind, pos as usize);
        let open = i32::from(self.squares.get(at).copied().unwrap_or(0));
        match self.shelter.get(table).and_then(Option::as_deref) {
            Some(shelter) => {
                let full = i32::from(shelter.get(pos as usize).copied().unwrap_or(0));
                (full * fullness + open * (FULL_BOARD - fullness)) / FULL_BOARD
            }
            None => open,
        }
    }

    /// Learned royal pressure: each piece within two steps of an enemy royal piece is
    /// worth the weight to its owner.
    fn royal_pressure(&self, tables: &Tables, state: &State, scores: &mut [i32]) {
        let Some((weight, near)) = &self.pressure else {
            return;
        };
        let words = self.layout.words();
        let royal = self.active.iter().flat_map(|&player| {
            let royal_kinds = tables.royal[player as usize].iter().enumerate();
            royal_kinds
                .filter(|(_, &royal)| royal)
                .flat_map(move |(kind, _)| state.squares_of_kind(player, kind as Kind))
                .map(move |pos| (player, pos))
        });
        for (player, pos) in royal {
            let near = near.get(pos as usize * words..).unwrap_or(&[]);
            for &enemy in self.active.iter().filter(|&&p| p != player) {
                let own = state.own_words(enemy).iter().zip(near);
                let count: u32 = own.map(|(o, n)| (o & n).count_ones()).sum();
                scores[enemy as usize] += weight * count as i32;
            }
        }
    }

    /// Where each piece's turns reach on the empty board ([`Room`]).
    pub fn room(&self) -> &Room {
        &self.room
    }

    /// The learned worth of each square of room of a piece of `kind` (0 where none is
    /// learned).
    pub fn room_weight(&self, kind: Kind) -> i32 {
        (self.room_weights.as_ref())
            .and_then(|w| w.get(kind as usize).copied())
            .unwrap_or(0)
    }

    /// The value of piece type `kind` on the board.
    pub fn value(&self, kind: Kind) -> i32 {
        self.values.get(kind as usize).copied().unwrap_or(0)
    }

    /// Overrides the value of piece type `kind`, on the board and off it (a build.rs
    /// user who knows better than the rules' counts).
    pub fn set_value(&mut self, kind: Kind, value: i32) {
        if let Some(v) = self.values.get_mut(kind as usize) {
            *v = value;
        }
        if let Some(v) = self.hand_values.get_mut(kind as usize) {
            *v = value;
        }
        self.refresh();
    }

    /// Random games played on from each evaluated position of `engine`'s game:
    /// two in placement games whose random games end, none in others.
    pub fn rollouts<T: Templates>(&self, engine: &Engine<T>) -> u32 {
        *self.rollouts.get_or_init(|| {
            if random_games_end(engine) {
                PLACEMENT_ROLLOUTS
            } else {
                0
            }
        })
    }

    /// Sets how many random games are played on from each evaluated position (0: none;
    /// more judge better and search less deep).
    pub fn set_rollouts(&mut self, rollouts: u32) {
        self.rollouts = OnceLock::from(rollouts);
    }

    /// How each piece type was valued, in type order.
    pub fn report(&self) -> &[KindReport] {
        &self.report
    }

    /// Whether every piece type only enters the board by drops and never moves there:
    /// placement and connection games, where [`crate::Algorithm::Mcts`] plays better.
    pub fn is_placement_game(&self) -> bool {
        self.placement_only
    }

    /// The worth of `player`'s pieces on the board (each piece's value and square
    /// bonus) and of the pieces it holds off the board, looked up piece by piece: the
    /// general path that the sums of [`PieceWorth`] are checked against. The bonuses of
    /// sheltering pieces are summed for the full board and the emptied one apart, and
    /// blended by `fullness` once.
    fn holdings(&self, state: &State, player: PlayerIx, fullness: i32) -> i32 {
        let owner = player as usize;
        let sign = self.material_sign[owner];
        let (mut score, mut full_bonus, mut open_bonus) = (0i32, 0i32, 0i32);
        let positions = self.layout.positions;
        let words = self.layout.words().max(1);
        // Type by type off the player's bitsets, read once.
        for (kind, bits) in state.kinds_words(player).chunks_exact(words).enumerate() {
            let start = self.layout.square(owner, kind, 0);
            let squares = self.squares.get(start..start + positions).unwrap_or(&[]);
            let shelter = self.shelter[self.layout.pair(owner, kind)].as_deref();
            let room_weight = self.room_weights.as_ref().map_or(0, |w| w[kind]);
            let mut count = 0;
            for (word, &word_bits) in bits.iter().enumerate() {
                let mut rest = word_bits;
                while rest != 0 {
                    let pos = word * 64 + rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    count += 1;
                    let open = i32::from(squares.get(pos).copied().unwrap_or(0));
                    match shelter {
                        Some(full) => {
                            full_bonus += i32::from(full.get(pos).copied().unwrap_or(0));
                            open_bonus += open;
                        }
                        None => score += open,
                    }
                    if room_weight != 0 {
                        let at = pos as Pos;
                        let room =
                            (self.room).of(player, kind as Kind, at, |p| state.at(p).is_none());
                        score += room_weight * room as i32;
                    }
                }
            }
            score += count * self.values[kind] * sign;
        }
        score += (full_bonus * fullness + open_bonus * (FULL_BOARD - fullness)) / FULL_BOARD;
        score + self.stock_sums(state, player).0
    }

    /// The worth of what `player` holds off the board, and of the part of it that thins
    /// out (counted in the material left), in one pass over its stocks.
    fn stock_sums(&self, state: &State, player: PlayerIx) -> (i32, i32) {
        let sign = self.material_sign[player as usize];
        let (mut score, mut material) = (0, 0);
        for (kind, &held) in state.stocks_of(player).iter().enumerate() {
            if held > 0 {
                let held = held.min(1000) as i32;
                score += held * self.hand_values[kind] * sign;
                if self.thinning[kind] {
                    material += held * self.values[kind];
                }
            }
        }
        (score, material)
    }

    /// [`Evaluator::evaluate`], where `board_sums` gives the sums of a player's pieces
    /// on the board ([`RulesEval::board_sums`]).
    fn score<T: Templates>(
        &self,
        engine: &Engine<T>,
        state: &State,
        player: PlayerIx,
        board_sums: impl Fn(PlayerIx) -> BoardSums,
    ) -> i32 {
        // Called at every leaf of a search: no allocation for the usual few players.
        let players = engine.tables.players.len();
        let mut scores: SmallVec<[i32; 4]> = smallvec![0; players];
        let mut blended: SmallVec<[[i32; 2]; 4]> = smallvec![[0, 0]; players];
        let mut left = 0i32;
        for &p in &self.active {
            let sums = board_sums(p);
            let (held, held_material) = self.stock_sums(state, p);
            scores[p as usize] = sums.plain + self.room_score(state, p) + held;
            blended[p as usize] = sums.blended;
            left = left
                .saturating_add(sums.material)
                .saturating_add(held_material);
        }
        // Where no type shelters, the blended sums are 0 and the fullness weighs nothing.
        let fullness = self.fullness_of(left);
        for &p in &self.active {
            let [full, open] = blended[p as usize];
            scores[p as usize] += (full * fullness + open * (FULL_BOARD - fullness)) / FULL_BOARD;
        }
        debug_assert_eq!(
            scores,
            self.scores_by_pieces(state),
            "the sums by type against the pieces one by one"
        );
        self.alignments(state, &mut scores);
        self.royal_pressure(&engine.tables, state, &mut scores);
        let own = scores.get(player as usize).copied().unwrap_or(0);
        let (mut others, mut count) = (0i32, 0i32);
        for &p in self.active.iter().filter(|&&p| p != player) {
            others += scores[p as usize];
            count += 1;
        }
        let standing = if count == 0 {
            own
        } else {
            own - others / count
        };
        standing + self.rollout_score(engine, state, player)
    }

    /// Adds `piece` on `pos` to the sums of its owner in `summary`, `times` times (-1:
    /// takes it away).
    fn count_piece(&self, summary: &mut [BoardSums], piece: Piece, pos: Pos, times: i32) {
        let pair = self.layout.pair(piece.owner as usize, piece.kind as usize);
        if let (Some(worth), Some(sums)) =
            (self.worth.get(pair), summary.get_mut(piece.owner as usize))
        {
            worth.add_to(sums, pos as usize, times);
        }
    }

    /// The sums of `player`'s pieces on the board, type by type off its bitsets
    /// ([`PieceWorth`]).
    fn board_sums(&self, state: &State, player: PlayerIx) -> BoardSums {
        let mut sums = BoardSums::default();
        let words = self.layout.words().max(1);
        let by_kind = state.kinds_words(player).chunks_exact(words);
        for (kind, bits) in by_kind.enumerate() {
            let Some(worth) = self.worth.get(self.layout.pair(player as usize, kind)) else {
                break;
            };
            each_square(bits, |pos| worth.add_to(&mut sums, pos, 1));
        }
        sums
    }

    /// The learned worth of the room of `player`'s pieces (0 where none is learned).
    fn room_score(&self, state: &State, player: PlayerIx) -> i32 {
        let Some(weights) = &self.room_weights else {
            return 0;
        };
        let mut score = 0;
        for (kind, &weight) in weights.iter().enumerate().filter(|&(_, &w)| w != 0) {
            for at in state.squares_of_kind(player, kind as Kind) {
                let room = (self.room).of(player, kind as Kind, at, |p| state.at(p).is_none());
                score += weight * room as i32;
            }
        }
        score
    }

    /// How full the board is, of [`FULL_BOARD`], where the players' pieces that thin
    /// out are worth `left`.
    fn fullness_of(&self, left: i32) -> i32 {
        (left.saturating_mul(FULL_BOARD) / self.start_material.max(1)).clamp(0, FULL_BOARD)
    }

    /// Each player's worth computed piece by piece, as [`RulesEval::evaluate`] sums it
    /// type by type: the check of those sums in debug builds.
    fn scores_by_pieces(&self, state: &State) -> SmallVec<[i32; 4]> {
        let thinning_worth = |p: PlayerIx| -> i32 {
            let on_board: i32 = (state.pieces_of(p))
                .filter(|(_, piece)| self.thinning[piece.kind as usize])
                .map(|(_, piece)| self.values[piece.kind as usize])
                .sum();
            on_board + in_hand_material(&self.values, &self.thinning, state, p)
        };
        let left = self.active.iter().map(|&p| thinning_worth(p)).sum();
        let fullness = self.fullness_of(left);
        let mut scores: SmallVec<[i32; 4]> = smallvec![0; self.material_sign.len()];
        for &p in &self.active {
            scores[p as usize] = self.holdings(state, p, fullness);
        }
        scores
    }

    fn alignments(&self, state: &State, scores: &mut [i32]) {
        for line in &self.lines {
            let mut filled = 0usize;
            let open = line.squares.iter().all(|&(pos, want)| {
                let at = state.at(pos);
                let (matched, possible) = square_fits(at, want, line.player);
                filled += usize::from(matched);
                possible
            });
            if open && filled > 0 {
                let weight = LINE_WEIGHTS[filled.min(LINE_WEIGHTS.len() - 1)];
                if let Some(score) = scores.get_mut(line.player as usize) {
                    *score += line.sign * weight;
                }
            }
        }
    }
}

impl<T: Templates> Evaluator<Engine<T>> for RulesEval {
    /// Per player: the sums of its pieces on the board.
    type Summary = SmallVec<[BoardSums; 4]>;

    fn evaluate(&self, engine: &Engine<T>, state: &State, player: PlayerIx) -> i32 {
        self.score(engine, state, player, |p| self.board_sums(state, p))
    }

    fn summarize(&self, engine: &Engine<T>, state: &State) -> Self::Summary {
        let players = engine.tables.players.len() as PlayerIx;
        (0..players).map(|p| self.board_sums(state, p)).collect()
    }

    fn summary_after(
        &self,
        _engine: &Engine<T>,
        state: &State,
        undo: &Undo,
        summary: &mut Self::Summary,
    ) {
        // The invariant: the turn changed the board on these squares alone (the hash
        // kept in place relies on it too), so the sums change by what left them and
        // what stands there now.
        for &(pos, before) in undo.changed() {
            if let Some(piece) = before {
                self.count_piece(summary, piece, pos, -1);
            }
            if let Some(piece) = state.at(pos) {
                self.count_piece(summary, piece, pos, 1);
            }
        }
    }

    fn evaluate_summarized(
        &self,
        engine: &Engine<T>,
        state: &State,
        player: PlayerIx,
        summary: &Self::Summary,
    ) -> i32 {
        self.score(engine, state, player, |p| {
            let sums = summary.get(p as usize).copied().unwrap_or_default();
            debug_assert_eq!(
                sums,
                self.board_sums(state, p),
                "the sums kept turn by turn against those of the position"
            );
            sums
        })
    }

    fn is_slow(&self) -> bool {
        self.rollouts.get() != Some(&0)
    }

    fn move_gain(&self, engine: &Engine<T>, state: &State, mv: &Move) -> MoveGain {
        let mover_player = engine.turn(state).player;
        let value = |kind: Kind| self.values.get(kind as usize).copied().unwrap_or(0);
        let victim = |pos: Pos| match state.at(pos) {
            Some(piece) if piece.owner != mover_player => value(piece.kind),
            _ => 0,
        };
        let mut gain = 0;
        for change in mv.steps.iter().flat_map(|s| &s.changes) {
            gain += match *change {
                Change::Move { to, .. } => victim(to),
                Change::Capture { pos } => victim(pos),
                Change::ChangeType { pos, kind } => {
                    value(kind) - state.at(pos).map_or(0, |p| value(p.kind))
                }
                _ => 0,
            };
        }
        let mover = mv
            .steps
            .first()
            .and_then(|s| s.from)
            .and_then(|from| state.at(from))
            .map_or(0, |p| value(p.kind));
        MoveGain { gain, mover }
    }

    fn null_move_allowed(&self, engine: &Engine<T>, state: &State) -> bool {
        let least = self.least_value.get_or_init(|| {
            self.values
                .iter()
                .copied()
                .filter(|&v| v > 0)
                .min()
                .unwrap_or(0)
        });
        let player = engine.turn(state).player;
        state.pieces_of(player).any(|(_, piece)| {
            self.values
                .get(piece.kind as usize)
                .is_some_and(|&v| v > *least)
        })
    }
}

impl RulesEval {
    /// The mean result for `player` of [`RulesEval::rollouts`] random games from
    /// `state` (a win 1, a loss -1, a draw or a cut game 0), in the evaluation's units.
    /// Seeded by the position: a position always scores the same, and searches stay
    /// reproducible.
    fn rollout_score<T: Templates>(
        &self,
        engine: &Engine<T>,
        state: &State,
        player: PlayerIx,
    ) -> i32 {
        let rollouts = self.rollouts(engine);
        if rollouts == 0 {
            return 0;
        }
        let key = engine.search_key(state);
        let total: i32 = (0..rollouts)
            .map(
                |round| match rollout(engine, state, mix(key ^ u64::from(round))) {
                    Some(Outcome::Win(p)) if p == player => 1,
                    Some(Outcome::Loss(p)) if p != player => 1,
                    Some(Outcome::Draw) | None => 0,
                    Some(_) => -1,
                },
            )
            .sum();
        (ROLLOUT_WEIGHT * f64::from(total) / f64::from(rollouts)).round() as i32
    }
}

/// How a random game from `state` seeded with `seed` ends, `None` when it is cut after
/// [`ROLLOUT_PLIES`] turns.
fn rollout<T: Templates>(engine: &Engine<T>, state: &State, seed: u64) -> Option<Outcome> {
    random_game_from(engine, state, &mut SplitMix64::new(seed), ROLLOUT_PLIES).1
}

/// Whether random games of `engine` mostly end within [`ROLLOUT_PLIES`] turns (see
/// [`ROLLOUT_PROBES`]). Stops at the second cut game: no more of them are played than
/// the answer needs.
fn random_games_end<T: Templates>(engine: &Engine<T>) -> bool {
    let start = engine.start();
    let allowed_cuts = ROLLOUT_PROBES / 4;
    let mut cuts = 0;
    for seed in 0..ROLLOUT_PROBES {
        if rollout(engine, &start, mix(seed)).is_none() {
            cuts += 1;
            if cuts > allowed_cuts {
                return false;
            }
        }
    }
    true
}

/// Whether `piece` on a square meets `want` of a line of `player`'s, and whether it
/// still could (an empty square can be filled).
fn square_fits(at: Option<Piece>, want: PieceRef, player: PlayerIx) -> (bool, bool) {
    if want.is_negated() {
        // Not counted as progress towards the line; the square may still do.
        return (false, want.holds(at, player));
    }
    match at {
        Some(_) => {
            let fits = want.holds(at, player);
            (fits, fits)
        }
        None => (false, true),
    }
}

/// Puts `kind` of `player` alone on each tried square of the empty board (hands kept on
/// the grid are not tried: a piece there is waiting to be dropped) and records its
/// turns; `None` when the player never moves as itself.
fn survey<T: Templates>(
    engine: &Engine<T>,
    player: PlayerIx,
    kind: Kind,
    stride: usize,
    hand: &[bool],
) -> Option<Survey> {
    let tables = &engine.tables;
    let slot = (0..tables.turns.len()).find(|&i| tables.turns[i].move_as == player)?;
    let mut empty = engine.start();
    for pos in 0..tables.positions.len() as Pos {
        empty.put(pos, None);
    }
    empty.stock = vec![0; tables.layout().pairs()].into();
    empty.turn = slot as u32;
    let positions = tables.positions.len();
    let mut result = Survey {
        turns: vec![None; positions],
        arrivals: vec![Vec::new(); positions],
        promotes: vec![false; positions],
        promoted_kinds: Vec::new(),
    };
    let piece = Piece {
        kind,
        owner: player,
        attributes: tables.pieces[kind as usize].default_attributes,
    };
    let mut board = empty.clone();
    for pos in (0..positions).step_by(stride) {
        if hand.get(pos) == Some(&true) {
            continue;
        }
        board.clone_from(&empty);
        board.put(pos as Pos, Some(piece));
        let moves = engine.legal_moves(&board);
        let mut count = 0;
        for mv in moves.iter().filter(|m| !m.is_pass()) {
            count += 1;
            let traits = engine.move_traits(&board, mv);
            if let Some(to) = traits.to {
                if to != pos as Pos && !result.arrivals[pos].contains(&to) {
                    result.arrivals[pos].push(to);
                }
            }
            for change in mv.steps.iter().flat_map(|s| &s.changes) {
                if let Change::ChangeType { kind: into, .. } = *change {
                    result.promotes[pos] = true;
                    if !result.promoted_kinds.contains(&into) {
                        result.promoted_kinds.push(into);
                    }
                }
            }
        }
        result.turns[pos] = Some(count);
    }
    Some(result)
}

/// Calls `visit` with each square whose bit is set in `bits` (a bitset over the
/// squares), lowest first.
#[inline(always)]
fn each_square(bits: &[u64], mut visit: impl FnMut(usize)) {
    for (word, &bits) in bits.iter().enumerate() {
        let mut rest = bits;
        while rest != 0 {
            visit(word * 64 + rest.trailing_zeros() as usize);
            rest &= rest - 1;
        }
    }
}

/// The worth by `values` of what `player` holds off the board, of the kinds that
/// `thinning` marks (not royal, decisive or collected: those stay to the end).
fn in_hand_material(values: &[i32], thinning: &[bool], state: &State, player: PlayerIx) -> i32 {
    let held = state.stocks_of(player).iter().zip(values).zip(thinning);
    held.filter(|(_, &thinning)| thinning)
        .map(|((&held, &value), _)| held.min(1000) as i32 * value)
        .sum()
}

/// The mobility part of a square table: `turns` from the square against the piece's
/// mean (0 for a square not tried).
fn mobility_bonus(turns: Option<u32>, mean_mobility: f64) -> i16 {
    turns.map_or(0, |turns| {
        let extra = (f64::from(turns) - mean_mobility) * MOBILITY_WEIGHT;
        extra.clamp(-MOBILITY_CAP, MOBILITY_CAP) as i16
    })
}

/// A piece's square table: mobility there against its mean, and nearness (in its own
/// turns) to where it promotes and to its owner's goal places.
fn fill_square_table(
    table: &mut [i16],
    tables: &Tables,
    player: PlayerIx,
    kind: Kind,
    survey: &Survey,
    mean_mobility: f64,
) {
    for (square, &turns) in table.iter_mut().zip(&survey.turns) {
        *square = mobility_bonus(turns, mean_mobility);
    }
    let promotion_squares: Vec<Pos> = (0..survey.promotes.len() as Pos)
        .filter(|&p| survey.promotes[p as usize])
        .collect();
    if !promotion_squares.is_empty() {
        add_nearness(table, survey, &promotion_squares, 0, 64);
    }
    let goal_squares = goal_places(tables, player, kind);
    if !goal_squares.is_empty() {
        add_nearness(table, survey, &goal_squares, 1, 256);
    }
}

/// Adds `top >> (distance - offset)` to each square of `table` by the piece's distance
/// in turns to `targets` (distance 0: on a target; `offset` 0 counts promoting from a
/// square as being there).
fn add_nearness(table: &mut [i16], survey: &Survey, targets: &[Pos], offset: u32, top: i32) {
    let positions = table.len();
    let mut arriving_from: Vec<Vec<Pos>> = vec![Vec::new(); positions];
    for (from, arrivals) in survey.arrivals.iter().enumerate() {
        for &to in arrivals {
            if (to as usize) < positions {
                arriving_from[to as usize].push(from as Pos);
            }
        }
    }
    let mut distance = vec![u32::MAX; positions];
    let mut queue = std::collections::VecDeque::new();
    for &t in targets {
        if (t as usize) < positions && distance[t as usize] == u32::MAX {
            distance[t as usize] = 0;
            queue.push_back(t);
        }
    }
    while let Some(at) = queue.pop_front() {
        let next = distance[at as usize] + 1;
        for &from in &arriving_from[at as usize] {
            if distance[from as usize] == u32::MAX {
                distance[from as usize] = next;
                queue.push_back(from);
            }
        }
    }
    for (pos, d) in distance.into_iter().enumerate() {
        if d != u32::MAX {
            let shift = (d + offset).min(16);
            let bonus = top >> shift;
            table[pos] = (i32::from(table[pos]) + bonus).clamp(-30_000, 30_000) as i16;
        }
    }
}

/// The places of `player`'s winning `absolute-config` goals that name `kind` as its
/// own.
fn goal_places(tables: &Tables, player: PlayerIx, kind: Kind) -> Vec<Pos> {
    let mut squares = Vec::new();
    for goal in tables.goals.iter().filter(|g| g.kind == GoalKind::Win) {
        if !goal.players.contains(&player) {
            continue;
        }
        visit_conditions(&goal.condition, &mut |cond| {
            if let GoalCond::AbsoluteConfig { pieces, places } = cond {
                let names_kind = pieces
                    .iter()
                    .any(|p| matches!(*p, PieceRef::Own(k) | PieceRef::AnyOwner(k) if k == kind));
                if !names_kind {
                    return;
                }
                for place in places {
                    match *place {
                        Place::Position(pos) => squares.push(pos),
                        Place::Zone(zone) => squares.extend(
                            (0..tables.positions.len() as Pos)
                                .filter(|&pos| tables.in_zone(zone, player, pos)),
                        ),
                    }
                }
            }
        });
    }
    squares.sort_unstable();
    squares.dedup();
    squares
}

/// Calls `visit` on `cond` and on every condition inside its `and`, `or` (not under a
/// `not`).
fn visit_conditions(cond: &GoalCond, visit: &mut impl FnMut(&GoalCond)) {
    visit(cond);
    if let GoalCond::And(parts) | GoalCond::Or(parts) = cond {
        for part in parts {
            visit_conditions(part, visit);
        }
    }
}

/// Piece types whose loss alone can decide the game: named by a `captured` goal, or by
/// a `pieces-remaining` goal of one type.
fn decisive_kinds(tables: &Tables) -> Vec<bool> {
    let mut decisive = vec![false; tables.kinds()];
    for goal in &tables.goals {
        visit_conditions(&goal.condition, &mut |cond| match cond {
            GoalCond::Captured(kinds) if goal.kind == GoalKind::Loss => {
                for &k in kinds {
                    decisive[k as usize] = true;
                }
            }
            GoalCond::PiecesRemaining {
                kind: Some(k),
                count: 0,
            } if goal.kind == GoalKind::Loss => decisive[*k as usize] = true,
            _ => {}
        });
    }
    decisive
}

/// Piece types a player wins by holding some number of (`pieces-remaining N T` as a
/// winning goal, N above zero: the stores of sowing games, say).
fn collected_kinds(tables: &Tables) -> Vec<bool> {
    let mut collected = vec![false; tables.kinds()];
    for goal in tables.goals.iter().filter(|g| g.kind == GoalKind::Win) {
        visit_conditions(&goal.condition, &mut |cond| {
            if let GoalCond::PiecesRemaining {
                kind: Some(k),
                count,
            } = cond
            {
                if *count > 0 {
                    collected[*k as usize] = true;
                }
            }
        });
    }
    collected
}

/// Whether `player` wins by having few pieces left (giveaway games): then its pieces
/// count against it.
fn sheds_pieces(tables: &Tables, player: PlayerIx) -> bool {
    let mut sheds = false;
    for goal in tables.goals.iter().filter(|g| g.kind == GoalKind::Win) {
        if goal.players.contains(&player) {
            visit_conditions(&goal.condition, &mut |cond| {
                if matches!(cond, GoalCond::PiecesRemaining { kind: None, .. }) {
                    sheds = true;
                }
            });
        }
    }
    sheds
}

/// The lines of every `relative-config` goal, from every start square, for each of
/// its players (with the sign of the goal: winning lines count for the player, losing
/// ones against); none past [`LINE_BUDGET`].
fn alignment_lines(tables: &Tables) -> Vec<Line> {
    let mut lines = Vec::new();
    for goal in &tables.goals {
        let sign = match goal.kind {
            GoalKind::Win => 1,
            GoalKind::Loss => -1,
            GoalKind::Draw | GoalKind::Count => continue,
        };
        let mut patterns = Vec::new();
        visit_conditions(&goal.condition, &mut |cond| {
            if let GoalCond::RelativeConfig { first, steps } = cond {
                patterns.push((*first, steps.clone()));
            }
        });
        for &player in &goal.players {
            let Some(symmetry) = tables.symmetry.get(player as usize) else {
                continue;
            };
            for (first, steps) in &patterns {
                for start in 0..tables.positions.len() as Pos {
                    let mut squares = vec![(start, *first)];
                    let mut at = start;
                    for &(dir, want) in steps {
                        let dir = symmetry.get(dir as usize).copied().unwrap_or(dir);
                        at = tables.link(at, dir);
                        if at == NO_POS {
                            break;
                        }
                        squares.push((at, want));
                    }
                    if at == NO_POS {
                        continue;
                    }
                    if lines.len() == LINE_BUDGET {
                        return Vec::new();
                    }
                    lines.push(Line {
                        player,
                        sign,
                        squares,
                    });
                }
            }
        }
    }
    lines
}
