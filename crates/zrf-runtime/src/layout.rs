//! The index arithmetic of tables kept per player, piece type and square (or per
//! player, square and template): written once, for the runtime's tables and for the
//! compiler that builds them.

/// The sizes of one game's tables, known where code is compiled for that game alone:
/// generated code states them as constants, so that the index of every occupancy bitset
/// its hot loops read (the count, the royal guard's scan, make and unmake) is worked out
/// by the compiler, not from sizes read from the position at each access (callgrind:
/// corpus chess perft 4 6.3% fewer instructions, English checkers perft 7 5.3%, xiangqi
/// perft 3 2.0%). The invariant: where [`KnownSizes::SIZES`] is given, it is the sizes
/// of every position read through it (`Engine::new` checks it against the tables, debug
/// builds at every read).
pub trait KnownSizes {
    /// The game's sizes, or `None` where they are read from the position.
    const SIZES: Option<PieceSquares> = None;
}

/// Sizes read from the position: the interpreter's, and code not compiled for one game.
pub struct ReadSizes;

impl KnownSizes for ReadSizes {}

/// Tables laid out by player, then piece type, then square; a bitset over the squares
/// takes [`PieceSquares::words`] words per entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceSquares {
    /// The players, moving or not.
    pub players: usize,
    /// The piece types.
    pub kinds: usize,
    /// The positions, dummies included.
    pub positions: usize,
}

impl PieceSquares {
    /// The layout for a game of these sizes.
    pub const fn new(players: usize, kinds: usize, positions: usize) -> PieceSquares {
        PieceSquares {
            players,
            kinds,
            positions,
        }
    }

    /// The words of a bitset over the squares.
    pub const fn words(&self) -> usize {
        self.positions.div_ceil(64)
    }

    /// The entry of `player`'s pieces of `kind`, in a table kept per player and type.
    pub const fn pair(&self, player: usize, kind: usize) -> usize {
        player * self.kinds + kind
    }

    /// The entries of a table kept per player and type.
    pub const fn pairs(&self) -> usize {
        self.players * self.kinds
    }

    /// The entry of `player`'s piece of `kind` on `pos`, in a table kept per player,
    /// type and square.
    pub const fn square(&self, player: usize, kind: usize, pos: usize) -> usize {
        self.pair(player, kind) * self.positions + pos
    }

    /// The entries of a table kept per player, type and square.
    pub const fn squares(&self) -> usize {
        self.pairs() * self.positions
    }

    /// The first word of the bitset of `player`'s piece of `kind` on `pos`, in a table
    /// of one bitset over the squares per player, type and square.
    pub const fn row(&self, player: usize, kind: usize, pos: usize) -> usize {
        self.square(player, kind, pos) * self.words()
    }

    /// The words of a table of one bitset per player, type and square.
    pub const fn rows(&self) -> usize {
        self.squares() * self.words()
    }

    /// The entry of `player` on `pos`, in a table kept per player and square.
    pub const fn player_square(&self, player: usize, pos: usize) -> usize {
        player * self.positions + pos
    }

    /// The entries of a table kept per player and square.
    pub const fn player_squares(&self) -> usize {
        self.players * self.positions
    }

    /// The first word of the bitsets of `player`'s types on `pos`, in a table of one
    /// bitset over the squares per player, square and type (types innermost, so that
    /// one square's are side by side, in the order of a player's type bitsets).
    pub const fn kinds_row(&self, player: usize, pos: usize) -> usize {
        self.player_square(player, pos) * self.kinds * self.words()
    }

    /// The entry of `target` for `player`'s piece on `from`, in a table kept per
    /// player, square and target square.
    pub const fn square_pair(&self, player: usize, from: usize, target: usize) -> usize {
        self.player_square(player, from) * self.positions + target
    }

    /// The entries of a table kept per player, square and target square.
    pub const fn square_pairs(&self) -> usize {
        self.player_squares() * self.positions
    }

    /// The first word of the bitset of template `template` (of `templates`, every
    /// type's numbered in turn) of `player`'s piece on `pos`, in a table of one bitset
    /// over the squares per player, square and template.
    pub const fn template_row(
        &self,
        player: usize,
        pos: usize,
        template: usize,
        templates: usize,
    ) -> usize {
        (self.player_square(player, pos) * templates + template) * self.words()
    }

    /// The words of a table of one bitset per player, square and template.
    pub const fn template_rows(&self, templates: usize) -> usize {
        self.player_squares() * templates * self.words()
    }
}
