//! The typed IR of one game or variant: what the interpreter and the code generator
//! consume.
//!
//! Every name is resolved to a dense index ([`PlayerId`], [`PositionId`], [`PieceId`], ...)
//! into the tables of [`Game`]; positions, directions, pieces, zones, players, attributes,
//! flags and move types are separate namespaces, as in Zillions. Move and drop templates
//! are hash-consed: identical bodies (common after macro expansion) are stored once in
//! [`Game::templates`] and referred to by [`TemplateId`]. Spans stay beside the IR in
//! [`Game::template_spans`], so IR equality and dumps ignore layout.
//!
//! Rules the IR keeps (checked by the lowering in `check`): every index is in range; a
//! template never refers to a position, direction or zone of another game; links point
//! at existing positions.

mod dump;
pub mod fold;
pub mod visit;

pub use dump::dump;

use crate::source::Span;

macro_rules! id_type {
    ($($(#[$doc:meta])* $name:ident),* $(,)?) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u32);

        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }

            /// The number as the runtime's narrower index type. The checker refuses
            /// games with more names than those types hold (the runtime's limits), so
            /// this never fails on a checked game; a failure is a bug, never aliasing.
            pub fn narrow<T: TryFrom<u32>>(self) -> T {
                match T::try_from(self.0) {
                    Ok(narrow) => narrow,
                    Err(_) => panic!(
                        "{} {} exceeds the runtime's limit, which the checker enforces",
                        stringify!($name),
                        self.0
                    ),
                }
            }
        }
    )*};
}

id_type!(
    /// A player, in `players` order.
    PlayerId,
    /// A board position, in enumeration order.
    PositionId,
    /// A direction name.
    DirectionId,
    /// A piece type.
    PieceId,
    /// A zone name (membership is per player).
    ZoneId,
    /// A piece attribute name.
    AttributeId,
    /// A template flag name.
    FlagId,
    /// A position flag name.
    PositionFlagId,
    /// A move type name.
    MoveTypeId,
    /// A distinct move or drop template body.
    TemplateId,
);

/// One game or variant, fully resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub title: String,
    pub players: Vec<Player>,
    pub turn_order: TurnOrder,
    pub board: Board,
    pub pieces: Vec<Piece>,
    pub attributes: Vec<String>,
    pub flags: Vec<String>,
    pub position_flags: Vec<String>,
    pub move_types: Vec<String>,
    pub templates: Vec<Block>,
    /// Where each template was first written (parallel to `templates`).
    pub template_spans: Vec<Span>,
    pub setup: Vec<Setup>,
    pub goals: Vec<Goal>,
    /// `move-priorities`, highest first.
    pub move_priorities: Vec<MoveTypeId>,
    pub options: Options,
    /// `(engine "...")`: moves come from an Axiom plug-in, not from these templates.
    pub engine: Option<String>,
    /// What the rules say of the game for players, as Zillions' "About this game" showed
    /// it: `description`, `history` and `strategy`, in that order, those given.
    pub about: Vec<(&'static str, String)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub name: String,
    /// Named `?...`: moves are chosen uniformly at random.
    pub random: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnOrder {
    pub turns: Vec<Turn>,
    /// Index of the turn the cycle restarts from (after `repeat`; 0 without it).
    pub repeat_from: usize,
}

/// One entry of `turn-order`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// Whose turn it is (credited with the result).
    pub player: PlayerId,
    /// Whose pieces move ("friends"); usually the same player.
    pub move_as: PlayerId,
    /// Only templates of this move type are allowed.
    pub move_type: Option<MoveTypeId>,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Board {
    pub positions: Vec<Position>,
    pub directions: Vec<String>,
    /// `links[p][d]`: the position one step from `p` in direction `d`.
    pub links: Vec<Vec<Option<PositionId>>>,
    pub zones: Vec<Zone>,
    /// Per player, each direction as that player sees it (`symmetry`).
    pub symmetry: Vec<Vec<DirectionId>>,
    /// The direction that undoes each direction, where one exists.
    pub opposite: Vec<Option<DirectionId>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub name: String,
    /// Declared with `dummy`: holds pieces but is not drawn.
    pub dummy: bool,
    /// Where it is drawn on the board image, `[left, top, right, bottom]` in pixels:
    /// from the grid's `start-rectangle` and dimension offsets, or the rectangle of a
    /// `positions` entry; `None` for dummies and entries without one.
    pub rect: Option<[i32; 4]>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Zone {
    pub name: String,
    /// Per player, the positions of the zone for that player (sorted).
    pub positions: Vec<Vec<PositionId>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub name: String,
    /// Attribute and initial value, for every attribute the piece declares.
    pub attributes: Vec<(AttributeId, bool)>,
    pub moves: Vec<TemplateUse>,
    pub drops: Vec<TemplateUse>,
    /// `(dummy)`: a technical piece (markers, counters).
    pub dummy: bool,
    /// What the rules say of it for players: `help`, then `description` (empty when
    /// neither is given).
    pub about: Vec<(&'static str, String)>,
    /// `(notation "N")`: how the rules abbreviate the piece (for move notation).
    pub notation: Option<String>,
}

/// A template in a piece's `moves` or `drops`, with the move type it is listed under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TemplateUse {
    pub move_type: Option<MoveTypeId>,
    pub template: TemplateId,
}

pub type Block = Vec<Stmt>;

/// A direction as written: a name, or `(opposite name)`. Symmetry is applied when moving.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    Named(DirectionId),
    Opposite(DirectionId),
}

/// Where a predicate or effect looks: the current position when absent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Loc {
    Pos(PositionId),
    Dir(Dir),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GoTarget {
    From,
    To,
    Mark,
    LastFrom,
    LastTo,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddKind {
    Add,
    AddCopy,
    AddPartial,
    AddCopyPartial,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stmt {
    /// Move the current position one step; fail if there is no link.
    Step(Dir),
    /// Jump to a named position.
    Jump(PositionId),
    Verify(Cond),
    If(Cond, Block, Block),
    While(Cond, Block),
    /// `mark`, or `(mark pos|dir)`: remember that square (fail if off the board).
    Mark(Option<Loc>),
    Back,
    Go(GoTarget),
    Capture(Option<Loc>),
    Create {
        owner: Option<PlayerId>,
        piece: Option<PieceId>,
        at: Option<Loc>,
    },
    ChangeType(PieceId, Option<Loc>),
    ChangeOwner(Option<Loc>),
    Flip(Option<Loc>),
    SetAttribute(AttributeId, Cond),
    SetFlag(FlagId, Cond),
    SetPositionFlag(PositionFlagId, Cond, Option<Loc>),
    From,
    To,
    Cascade,
    /// `add` and its family: promotion choices (one move each; none keeps the type)
    /// and, for partial adds, the move type the turn continues with.
    Add {
        kind: AddKind,
        promote: Vec<PieceId>,
        continue_with: Option<MoveTypeId>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cond {
    Const(bool),
    Not(Box<Cond>),
    And(Vec<Cond>),
    Or(Vec<Cond>),
    Empty(Option<Loc>),
    /// `not-empty?`: a piece stands there. Not `(not empty?)`: off the board both
    /// `empty?` and `not-empty?` are false (docs/semantics.md).
    Occupied(Option<Loc>),
    Friend(Option<Loc>),
    Enemy(Option<Loc>),
    Neutral(Option<Loc>),
    Piece(PieceId, Option<Loc>),
    InZone(ZoneId, Option<Loc>),
    /// Without a location: the current position, which is always on the board.
    OnBoard(Option<Loc>),
    Flag(FlagId),
    PositionFlag(PositionFlagId, Option<Loc>),
    Attribute(AttributeId, Option<Loc>),
    LastFrom(Option<Loc>),
    LastTo(Option<Loc>),
    /// The current position (or the square at the location) is this one.
    AtPosition(PositionId, Option<Loc>),
    Marked(Option<Loc>),
    Attacked(Option<MoveTypeId>, Option<Loc>),
    Defended(Option<MoveTypeId>, Option<Loc>),
    AdjacentToEnemy(Option<Loc>),
    GoalPosition(Option<Loc>),
}

/// `off N` stock and starting positions of one piece type for one player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub player: PlayerId,
    pub piece: PieceId,
    pub positions: Vec<PositionId>,
    pub off_board: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoalKind {
    Win,
    Loss,
    Draw,
    /// The game ends and the player with more pieces wins.
    Count,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Goal {
    pub kind: GoalKind,
    pub players: Vec<PlayerId>,
    pub condition: GoalCond,
}

/// A piece in a configuration goal, with an optional owner qualifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceRef {
    /// The goal player's piece.
    Own(PieceId),
    Opponent(PieceId),
    AnyOwner(PieceId),
    /// `(not TYPE)`: not a piece of that type of the goal's player.
    NotOwn(PieceId),
    /// `(not (opponent TYPE))`.
    NotOpponent(PieceId),
    /// `(not (any-owner TYPE))`: no piece of that type.
    NotAnyOwner(PieceId),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Position(PositionId),
    Zone(ZoneId),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoalCond {
    PiecesRemaining {
        count: u32,
        piece: Option<PieceId>,
    },
    TotalPieceCount {
        count: u32,
        piece: Option<PieceId>,
    },
    Stalemated,
    Repetition,
    AbsoluteConfig {
        pieces: Vec<PieceRef>,
        places: Vec<Place>,
    },
    RelativeConfig {
        first: PieceRef,
        steps: Vec<(DirectionId, PieceRef)>,
    },
    Checkmated(Vec<PieceId>),
    Captured(Vec<PieceId>),
    And(Vec<GoalCond>),
    Or(Vec<GoalCond>),
    Not(Box<GoalCond>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PassTurn {
    #[default]
    Never,
    Always,
    /// Only when there is no other legal move.
    Forced,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MaximalCaptures {
    #[default]
    Off,
    On,
    /// Value `2`: meaning uncertain (probably kings count first).
    Two,
}

/// Options that change the rules; UI options are kept by name only.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Options {
    pub pass_turn: PassTurn,
    pub pass_partial: bool,
    pub maximal_captures: MaximalCaptures,
    pub recycle_captures: bool,
    pub include_off_pieces: bool,
    /// Options with no effect on the rules (`animate captures`, ...), name and value.
    pub ui: Vec<(String, String)>,
    /// Dagaz-only options: their rules are not in the ZRF text and are not reproduced.
    pub dagaz_only: Vec<(String, String)>,
}
