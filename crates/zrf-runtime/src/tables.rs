//! The static description of a game: topology, players, turn order, pieces, goals,
//! options. Built once by the interpreter from the IR, or emitted as data by generated code.

use std::sync::OnceLock;

use crate::random::{SplitMix64, Zobrist};
use crate::reach::Reach;
use crate::shape::{Bulk, Shape};
use crate::{Dir, Kind, MoveType, PlayerIx, Pos};

/// No position (off the board, or no link).
pub const NO_POS: Pos = Pos::MAX;

/// A player of the game, in `players` order.
#[derive(Clone, Debug)]
pub struct Player {
    /// Its name in the rules.
    pub name: String,
    /// Moves are chosen uniformly at random (names starting with `?`).
    pub random: bool,
}

/// One entry of the turn order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The player whose turn it is.
    pub player: PlayerIx,
    /// Whose pieces it moves (another player's with `(P1 P2)` entries).
    pub move_as: PlayerIx,
    /// The only move type allowed this turn, if the entry names one.
    pub move_type: Option<MoveType>,
}

impl Turn {
    /// The templates this turn may use: those of its move type, or all when it has none.
    #[inline]
    pub fn filter(self) -> Filter {
        match self.move_type {
            Some(t) => Filter::only(Some(t)),
            None => Filter::ANY,
        }
    }
}

/// A piece type.
#[derive(Clone, Debug)]
pub struct PieceInfo {
    /// Its name in the rules.
    pub name: String,
    /// Bit `a` set: attribute `a` starts true.
    pub default_attributes: u32,
    /// `(dummy)`: a technical piece (markers, counters), not shown to players.
    pub dummy: bool,
    /// What the rules say of it for players: `help`, then `description`, those given.
    pub about: Vec<(String, String)>,
    /// `(notation "N")`: how the rules abbreviate it, when they do.
    pub notation: Option<String>,
    /// Per move template, by number: its [`Shape`], where it has one whose turns a
    /// perft's last ply counts in bulk, or whose opening says when it need not run;
    /// empty when none has.
    pub shapes: Vec<Option<Shape>>,
    /// Per move template, by number: the move type it is listed under; empty when
    /// `shapes` is.
    pub template_types: Vec<Option<MoveType>>,
}

/// Pieces of one type and owner placed at the start.
#[derive(Clone, Debug)]
pub struct Setup {
    /// Their owner.
    pub player: PlayerIx,
    /// Their type.
    pub kind: Kind,
    /// The squares they stand on.
    pub positions: Vec<Pos>,
    /// How many more wait off the board (for drops).
    pub off_board: u32,
}

/// What a goal decides when its condition holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoalKind {
    /// Its players win.
    Win,
    /// Its players lose.
    Loss,
    /// The game is drawn.
    Draw,
    /// `count-condition`: the player with the most pieces wins.
    Count,
}

/// Which pieces a goal condition counts or looks for, relative to the goal's player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceRef {
    /// A piece of that type of the goal's player.
    Own(Kind),
    /// A piece of that type of another player.
    Opponent(Kind),
    /// A piece of that type of anyone.
    AnyOwner(Kind),
    /// `(not TYPE)`: anything but a piece of that type of the goal's player.
    NotOwn(Kind),
    /// `(not (opponent TYPE))`.
    NotOpponent(Kind),
    /// `(not (any-owner TYPE))`: no piece of that type.
    NotAnyOwner(Kind),
}

impl PieceRef {
    /// Whether `at`, what stands on a square, is what this asks for, for `player`.
    pub fn holds(self, at: Option<crate::Piece>, player: PlayerIx) -> bool {
        let is = |kind: Kind, owner_fits: fn(PlayerIx, PlayerIx) -> bool| {
            at.is_some_and(|p| p.kind == kind && owner_fits(p.owner, player))
        };
        match self {
            PieceRef::Own(kind) => is(kind, |owner, player| owner == player),
            PieceRef::Opponent(kind) => is(kind, |owner, player| owner != player),
            PieceRef::AnyOwner(kind) => is(kind, |_, _| true),
            PieceRef::NotOwn(kind) => !PieceRef::Own(kind).holds(at, player),
            PieceRef::NotOpponent(kind) => !PieceRef::Opponent(kind).holds(at, player),
            PieceRef::NotAnyOwner(kind) => !PieceRef::AnyOwner(kind).holds(at, player),
        }
    }

    /// The piece type this asks about.
    pub fn kind(self) -> Kind {
        match self {
            PieceRef::Own(kind)
            | PieceRef::Opponent(kind)
            | PieceRef::AnyOwner(kind)
            | PieceRef::NotOwn(kind)
            | PieceRef::NotOpponent(kind)
            | PieceRef::NotAnyOwner(kind) => kind,
        }
    }

    /// Whether this asks for a square without some piece.
    pub fn is_negated(self) -> bool {
        matches!(
            self,
            PieceRef::NotOwn(_) | PieceRef::NotOpponent(_) | PieceRef::NotAnyOwner(_)
        )
    }
}

/// Where an `absolute-config` goal looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// One square.
    Position(Pos),
    /// Every square of a zone, as the goal's player defines it.
    Zone(u16),
}

/// The condition of a goal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoalCond {
    /// `pieces-remaining`: the goal's player has exactly this many pieces (of a type).
    PiecesRemaining {
        /// How many.
        count: u32,
        /// Of this type only (`None`: all).
        kind: Option<Kind>,
    },
    /// `total-piece-count`: all players together have exactly this many pieces.
    TotalPieceCount {
        /// How many.
        count: u32,
        /// Of this type only (`None`: all).
        kind: Option<Kind>,
    },
    /// `stalemated`: the player to move has no legal move.
    Stalemated,
    /// `repetition`: the position has occurred three times.
    Repetition,
    /// `absolute-config`: one of the pieces stands on one of the places.
    AbsoluteConfig {
        /// The pieces looked for.
        pieces: Vec<PieceRef>,
        /// The places looked at.
        places: Vec<Place>,
    },
    /// `relative-config`: a line of pieces, each one step from the last.
    RelativeConfig {
        /// The piece the line starts with.
        first: PieceRef,
        /// Each step of the line and the piece found there.
        steps: Vec<(Dir, PieceRef)>,
    },
    /// `checkmated`: the player to move cannot avoid leaving one of these types capturable.
    Checkmated(Vec<Kind>),
    /// `captured`: the last turn captured a piece of one of these types.
    Captured(Vec<Kind>),
    /// All of these.
    And(Vec<GoalCond>),
    /// Any of these.
    Or(Vec<GoalCond>),
    /// Not this.
    Not(Box<GoalCond>),
}

impl GoalCond {
    /// Whether the condition is about the player to move having no legal move
    /// (`stalemated`, `checkmated`), in whole or in part.
    pub fn is_about_having_no_move(&self) -> bool {
        match self {
            GoalCond::Stalemated | GoalCond::Checkmated(_) => true,
            GoalCond::And(parts) | GoalCond::Or(parts) => {
                parts.iter().any(GoalCond::is_about_having_no_move)
            }
            GoalCond::Not(inner) => inner.is_about_having_no_move(),
            _ => false,
        }
    }
}

/// A goal: `win-condition`, `loss-condition`, `draw-condition` or `count-condition`.
#[derive(Clone, Debug)]
pub struct Goal {
    /// What it decides.
    pub kind: GoalKind,
    /// The players it is for.
    pub players: Vec<PlayerIx>,
    /// When it holds.
    pub condition: GoalCond,
}

/// The `pass turn` option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PassTurn {
    /// No passing (`false`).
    #[default]
    Never,
    /// A player may always pass (`true`).
    Always,
    /// A player passes only without a legal move (`forced`).
    Forced,
}

/// The options of the rules that change how turns are made.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// `pass turn`.
    pub pass_turn: PassTurn,
    /// `pass partial`: a chain of partial moves may stop before it must.
    pub pass_partial: bool,
    /// `recycle captures`: captured pieces go to their owner's stock off the board.
    pub recycle_captures: bool,
    /// `maximal captures`: keep only the turns capturing the most pieces.
    pub maximal_captures: bool,
    /// `include off-pieces`: piece counts in goals include pieces off the board.
    pub include_off_pieces: bool,
}

/// Which templates a run may use: every template, or only those listed under one move
/// type (`None`: only untyped templates). One number, so that the test before each run
/// of templates is two comparisons with constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Filter(u32);

impl Filter {
    /// Every template (an unrestricted turn).
    pub const ANY: Filter = Filter(u32::MAX);
    /// The code of untyped templates: above every move type.
    const UNTYPED: u32 = MoveType::MAX as u32 + 1;

    /// Only templates of this move type (`None`: only untyped templates).
    #[inline]
    pub fn only(move_type: Option<MoveType>) -> Filter {
        Filter(move_type.map_or(Filter::UNTYPED, u32::from))
    }

    /// Whether a template of this move type (`None`: untyped) may run.
    #[inline]
    pub fn allows(self, template_type: Option<MoveType>) -> bool {
        self == Filter::ANY || self == Filter::only(template_type)
    }
}

/// Everything static about a game.
#[derive(Clone, Debug)]
pub struct Tables {
    /// The title of the game or variant.
    pub title: String,
    /// What the rules say of the game for players, as Zillions' "About this game" showed
    /// it: `description`, `history` and `strategy`, those given, in that order.
    pub about: Vec<(String, String)>,
    /// The names of the board's positions, by number.
    pub positions: Vec<String>,
    /// Where each position is drawn, `[left, top, right, bottom]` in the pixels of the
    /// rules' board image; `None` for positions not drawn (dummies) or given no
    /// rectangle.
    pub rects: Vec<Option<[i32; 4]>>,
    /// The names of the directions, by number.
    pub directions: Vec<String>,
    /// `links[pos * directions + dir]`, or [`NO_POS`].
    pub links: Vec<Pos>,
    /// `zones[zone][player]`: membership bitset over positions.
    pub zones: Vec<Vec<Vec<u64>>>,
    /// The names of the zones, by number.
    pub zone_names: Vec<String>,
    /// `symmetry[player][dir]`: the direction a player actually moves in.
    pub symmetry: Vec<Vec<Dir>>,
    /// Per direction, its opposite (`opposite`), if the board has one.
    pub opposite: Vec<Option<Dir>>,
    /// The players, in `players` order.
    pub players: Vec<Player>,
    /// The turn order.
    pub turns: Vec<Turn>,
    /// Where the turn order starts again after its end (`repeat`).
    pub repeat_from: usize,
    /// The piece types, by number.
    pub pieces: Vec<PieceInfo>,
    /// The names of the attributes, by number.
    pub attributes: Vec<String>,
    /// The names of the move types, by number.
    pub move_types: Vec<String>,
    /// How many template flags the rules name.
    pub flags: usize,
    /// How many position flags the rules name.
    pub position_flags: usize,
    /// The board setup.
    pub setup: Vec<Setup>,
    /// The goals, in file order (the first that holds decides).
    pub goals: Vec<Goal>,
    /// `move-priorities`: the move types, most urgent first.
    pub priorities: Vec<MoveType>,
    /// The options.
    pub options: Options,
    /// Per player and piece type: pieces that may not be left capturable
    /// (`checkmated` goals).
    pub royal: Vec<Vec<bool>>,
    /// The keys of position hashes.
    pub zobrist: Zobrist,
    /// Where pieces' moves can take effect; `None` when not worked out (too large a
    /// game), and then the attack test runs every piece.
    pub reach: Option<Reach>,
    /// A learned evaluation (`zrfc tune`), as the text the search crate reads; `None`
    /// for the one worked out from the rules.
    pub evaluation: Option<String>,
    /// Worked out from the fields above on first use (build with `Derived::default()`):
    /// the topology, zones, turn order, priorities and royal types must not change after
    /// a move has been generated.
    pub derived: Derived,
}

/// Lookups a template run makes at every step, each worked out once per player from
/// [`Tables`] so that a step or a zone test is one index: the player's symmetry folded
/// into the links, and its zones laid side by side; the movers' hash keys, which every
/// move played asks for; and what each move list asks of the priorities and royal types.
/// Apart from those, where the shaped templates' turns go, for a perft's last ply.
#[derive(Clone, Debug, Default)]
pub struct Derived {
    lookups: OnceLock<Lookups>,
    /// Worked out apart, on first use: only a perft's last ply asks for it.
    pub(crate) bulk: OnceLock<Option<Bulk>>,
}

#[derive(Clone, Debug)]
struct Lookups {
    views: Vec<PlayerView>,
    /// Bit `p % 64` of word `p / 64`: player `p` takes turns.
    active: [u64; 4],
    /// Per entry of the turn order, the hash key of its mover (see [`mover_key`]).
    mover_keys: Vec<u64>,
    /// Per entry of the turn order, its mover's key xored with the next turn's: what a
    /// turn played changes in the hash for who moves.
    mover_change_keys: Vec<u64>,
    /// Per move type, its place in `move-priorities` (unlisted types after every listed
    /// one).
    priority_ranks: Vec<usize>,
    /// Per player, whether some piece type of theirs is royal (see [`Tables::royal`]).
    guarded: Vec<bool>,
    /// Where every goal is `stalemated`, `checkmated`, `repetition` or a player with no
    /// pieces left, those players (see [`Tables::goals_wait`]).
    goals_wait: Option<Vec<PlayerIx>>,
}

/// The board as one player moves on it.
#[derive(Clone, Debug, Default)]
pub(crate) struct PlayerView {
    /// `links[pos * directions + dir]`: the link in the direction the player's `dir`
    /// means, or [`NO_POS`].
    pub(crate) links: Vec<Pos>,
    /// `zones[zone * words + pos / 64]`: the player's zone membership bits.
    pub(crate) zones: Vec<u64>,
    /// Words per zone.
    pub(crate) words: usize,
}

impl Lookups {
    fn new(tables: &Tables) -> Lookups {
        let directions = tables.directions.len();
        let words = tables.positions.len().div_ceil(64);
        let views = (0..tables.players.len())
            .map(|player| {
                let symmetry = tables.symmetry.get(player).map_or(&[][..], Vec::as_slice);
                let links = tables
                    .links
                    .chunks(directions.max(1))
                    .flat_map(|row| {
                        (0..directions).map(|dir| {
                            let actual = symmetry.get(dir).map_or(dir, |&d| d as usize);
                            row.get(actual).copied().unwrap_or(NO_POS)
                        })
                    })
                    .collect();
                let zones = tables
                    .zones
                    .iter()
                    .flat_map(|zone| {
                        let bits = zone.get(player).map_or(&[][..], Vec::as_slice);
                        (0..words).map(|w| bits.get(w).copied().unwrap_or(0))
                    })
                    .collect();
                PlayerView {
                    links,
                    zones,
                    words,
                }
            })
            .collect();
        let mut active = [0u64; 4];
        for turn in &tables.turns {
            active[turn.player as usize / 64] |= 1 << (turn.player % 64);
        }
        let mover_keys: Vec<u64> = tables.turns.iter().map(mover_key).collect();
        Lookups {
            views,
            active,
            mover_change_keys: (0..mover_keys.len())
                .map(|slot| {
                    let next = tables.turn_slot(slot as u32 + 1);
                    mover_keys[slot] ^ mover_keys.get(next).copied().unwrap_or(0)
                })
                .collect(),
            mover_keys,
            priority_ranks: (0..tables.move_types.len())
                .map(|t| {
                    let listed = tables.priorities.iter().position(|&p| p as usize == t);
                    listed.unwrap_or(tables.priorities.len())
                })
                .collect(),
            guarded: tables
                .royal
                .iter()
                .map(|kinds| kinds.contains(&true))
                .collect(),
            goals_wait: goals_wait(tables),
        }
    }
}

/// [`Lookups::goals_wait`]: the players whose having no piece left is a goal, where
/// every other goal is about having no move or a repetition.
fn goals_wait(tables: &Tables) -> Option<Vec<PlayerIx>> {
    let mut bare = Vec::new();
    for goal in &tables.goals {
        match goal.condition {
            GoalCond::Stalemated | GoalCond::Checkmated(_) | GoalCond::Repetition => {}
            // On the board alone: under `include off-pieces` the goal loop counts them.
            GoalCond::PiecesRemaining {
                count: 0,
                kind: None,
            } if !tables.options.include_off_pieces => bare.extend(&goal.players),
            _ => return None,
        }
    }
    bare.sort_unstable();
    bare.dedup();
    Some(bare)
}

/// [`Tables::priority_ranks`].
pub(crate) struct PriorityRanks<'a> {
    ranks: &'a [usize],
    unlisted: usize,
}

impl PriorityRanks<'_> {
    /// The rank of a turn whose first step has `move_type`: the index of its type in
    /// `move-priorities`; unlisted and untyped turns come after every listed type.
    #[inline]
    pub(crate) fn of(&self, move_type: Option<MoveType>) -> usize {
        move_type.map_or(self.unlisted, |t| {
            self.ranks.get(t as usize).copied().unwrap_or(self.unlisted)
        })
    }
}

/// The hash key of who moves in `turn`: the player, the side it moves as, and the move
/// type it is limited to.
fn mover_key(turn: &Turn) -> u64 {
    let mover = [
        u64::from(turn.player),
        u64::from(turn.move_as) << 8,
        turn.move_type.map_or(0, |t| u64::from(t) + 1) << 16,
    ];
    SplitMix64::new(mover.iter().sum()).next_u64()
}

/// Whether player `player` takes turns, in the bits of `Tables::active_players`.
#[inline]
pub(crate) fn is_active_in(active: &[u64; 4], player: PlayerIx) -> bool {
    active[player as usize / 64] >> (player % 64) & 1 == 1
}

impl Tables {
    /// The position one step from `pos` in `dir`, or [`NO_POS`].
    #[inline]
    pub fn link(&self, pos: Pos, dir: Dir) -> Pos {
        if pos == NO_POS {
            return NO_POS;
        }
        self.links[pos as usize * self.directions.len() + dir as usize]
    }

    /// Whether `pos` is in `zone` as `player` defines it.
    #[inline]
    pub fn in_zone(&self, zone: u16, player: PlayerIx, pos: Pos) -> bool {
        let Some(bits) = self
            .zones
            .get(zone as usize)
            .and_then(|z| z.get(player as usize))
        else {
            return false;
        };
        pos != NO_POS
            && bits
                .get(pos as usize / 64)
                .is_some_and(|w| w >> (pos % 64) & 1 == 1)
    }

    /// The turn entry at the `n`th turn of the game (turns after the last one cycle
    /// from `repeat_from`).
    pub fn turn(&self, n: u32) -> Turn {
        self.turns[self.turn_slot(n)]
    }

    /// The index in `turns` of the `n`th turn of the game.
    #[inline]
    fn turn_slot(&self, n: u32) -> usize {
        let n = n as usize;
        let len = self.turns.len();
        if n < len {
            return n;
        }
        let cycle = (len - self.repeat_from).max(1);
        let into_cycle = n - len;
        // Most turn orders cycle through two players (or one, or four): a mask then does
        // what a division would, which is slow and asked for several times a move.
        let offset = if cycle.is_power_of_two() {
            into_cycle & (cycle - 1)
        } else {
            into_cycle % cycle
        };
        self.repeat_from + offset
    }

    /// The royal piece types of `player` (see [`Tables::royal`]), if there are any: then
    /// the player's turns must leave those pieces safe.
    #[inline]
    pub(crate) fn royal_kinds(&self, player: PlayerIx) -> Option<&[bool]> {
        let guarded = self.lookups().guarded.get(player as usize) == Some(&true);
        guarded.then(|| self.royal[player as usize].as_slice())
    }

    /// Whether each turn is legal or not on its own: no `move-priorities` or `maximal
    /// captures` choose among the legal turns, and no pass depends on whether another
    /// turn is legal. Then a turn can be tested without listing the others.
    pub(crate) fn turns_judged_alone(&self) -> bool {
        self.priorities.is_empty()
            && !self.options.maximal_captures
            && self.options.pass_turn != PassTurn::Forced
    }

    /// The ranks of move types under `move-priorities`.
    pub(crate) fn priority_ranks(&self) -> PriorityRanks<'_> {
        PriorityRanks {
            ranks: &self.lookups().priority_ranks,
            unlisted: self.priorities.len(),
        }
    }

    /// The hash key of who moves at the `n`th turn of the game, and how.
    #[inline]
    pub(crate) fn mover_key(&self, n: u32) -> u64 {
        let keys = &self.lookups().mover_keys;
        keys.get(self.turn_slot(n)).copied().unwrap_or(0)
    }

    /// [`Tables::mover_key`] of the `n`th turn xored with the next one's: what playing
    /// the `n`th turn changes in the hash for who moves.
    #[inline]
    pub(crate) fn mover_change_key(&self, n: u32) -> u64 {
        let keys = &self.lookups().mover_change_keys;
        let key = keys.get(self.turn_slot(n)).copied().unwrap_or(0);
        debug_assert_eq!(key, self.mover_key(n) ^ self.mover_key(n + 1));
        key
    }

    /// The number Zillions writes before the record of the `n`th turn: passes through
    /// the turn order from 1, the entries before `repeat` forming the first pass
    /// (bolotoudou.zsg: 24 setup drops and the following four moves are `1.` and `2.`).
    pub fn turn_number(&self, n: u32) -> u32 {
        let (n, start) = (n as usize, self.repeat_from);
        if n < start {
            return 1;
        }
        let cycle = (self.turns.len() - start).max(1);
        (usize::from(start > 0) + 1 + (n - start) / cycle) as u32
    }

    /// The players' names, in `players` order.
    pub fn player_names(&self) -> Vec<String> {
        self.players.iter().map(|p| p.name.clone()).collect()
    }

    /// Players that take turns; the others are neutral.
    #[inline]
    pub fn is_active(&self, player: PlayerIx) -> bool {
        is_active_in(&self.active_players(), player)
    }

    /// Who a piece of `owner` belongs to after `flip`: the next player in `players`
    /// order who takes turns (in a two-sided game, the other side); `owner` when there is
    /// no other.
    pub fn flipped_owner(&self, owner: PlayerIx) -> PlayerIx {
        let players = self.players.len();
        (1..players)
            .map(|k| ((owner as usize + k) % players) as PlayerIx)
            .find(|&p| self.is_active(p))
            .unwrap_or(owner)
    }

    fn lookups(&self) -> &Lookups {
        self.derived.lookups.get_or_init(|| Lookups::new(self))
    }

    /// The players that take turns, as bits: bit `p % 64` of word `p / 64` for player
    /// `p`.
    #[inline]
    pub(crate) fn active_players(&self) -> [u64; 4] {
        self.lookups().active
    }

    /// The board as `player` moves on it; empty for a player the tables do not list.
    pub(crate) fn player_view(&self, player: PlayerIx) -> &PlayerView {
        static NONE: PlayerView = PlayerView {
            links: Vec::new(),
            zones: Vec::new(),
            words: 0,
        };
        self.lookups().views.get(player as usize).unwrap_or(&NONE)
    }

    /// Whether a position appears in some `absolute-config` goal.
    pub fn is_goal_position(&self, pos: Pos) -> bool {
        fn visit(cond: &GoalCond, tables: &Tables, pos: Pos) -> bool {
            match cond {
                GoalCond::AbsoluteConfig { places, .. } => {
                    places.iter().any(|place| match *place {
                        Place::Position(p) => p == pos,
                        Place::Zone(zone) => (0..tables.players.len() as PlayerIx)
                            .any(|pl| tables.in_zone(zone, pl, pos)),
                    })
                }
                GoalCond::And(parts) | GoalCond::Or(parts) => {
                    parts.iter().any(|c| visit(c, tables, pos))
                }
                GoalCond::Not(inner) => visit(inner, tables, pos),
                _ => false,
            }
        }
        self.goals.iter().any(|g| visit(&g.condition, self, pos))
    }

    /// How many piece types there are.
    #[inline]
    pub fn kinds(&self) -> usize {
        self.pieces.len()
    }

    /// The layout of tables kept per player, piece type and square in this game.
    #[inline]
    pub fn layout(&self) -> crate::PieceSquares {
        crate::PieceSquares::new(self.players.len(), self.kinds(), self.positions.len())
    }

    /// Where no goal can hold while the player to move has a legal move, but on the
    /// third occurrence of a position or once one of the players answered has no piece
    /// left on the board: every goal is `stalemated`, `checkmated`, `repetition` (chess)
    /// or `(pieces-remaining 0)` (checkers), so that most positions are told to go on by
    /// a look at those players' bitsets and at the history.
    #[inline]
    pub(crate) fn goals_wait(&self) -> Option<&[PlayerIx]> {
        self.lookups().goals_wait.as_deref()
    }

    /// Whether some player has royal piece types (see [`Tables::royal`]): the game then
    /// filters turns that leave one capturable.
    pub fn has_royal_kinds(&self) -> bool {
        self.royal.iter().flatten().any(|&royal| royal)
    }
}
