//! Where each piece's moves can take effect, so that the attack test (is a royal piece
//! capturable?) runs only the pieces that could reach it.

use crate::bits::squares_in;
use crate::{Inconsistency, Kind, PieceSquares, PlayerIx, Pos};

/// Per moving player, piece type and square: the squares a move of that piece could
/// remove a piece from (capture, create, place, or move onto a square its template did
/// not find empty), over-approximated from
/// its templates with every condition taken both ways. A type whose templates continue
/// with partial moves, or jump to the last move's squares, is unbounded: it may hit
/// anything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    layout: PieceSquares,
    /// Per player and type ([`PieceSquares::pair`]).
    bounded: Vec<bool>,
    /// A bitset over squares per player, type and square ([`PieceSquares::row`]).
    bits: Vec<u64>,
    /// The same relation read backwards: a bitset over squares per player, target
    /// square and type ([`PieceSquares::kinds_row`]), of the squares from which such a
    /// piece could hit the target (all of them for an unbounded type). An attack test
    /// then finds the pieces worth testing by masking the bitsets of the attacker's
    /// types, without looking at each piece.
    hitting_from: Vec<u64>,
    /// The same for all types at once: a bitset over squares per player and target
    /// square ([`PieceSquares::player_square`]), the union of its types' bitsets.
    hitting_any_from: Vec<u64>,
    /// The reach of each move template on its own, where the rules are small enough to
    /// keep it: an attack test then runs only the templates of a piece that could hit.
    by_template: Option<ByTemplate>,
    /// Per player, type and square ([`PieceSquares::square`]): the most steps the
    /// move templates of such a piece could add (`u16::MAX`: not known), so that a
    /// random move can be drawn without listing every piece's (see
    /// [`Reach::with_step_bounds`]). Empty when not known at all.
    step_bounds: Vec<u16>,
    /// Per player and type: every step such a piece's templates add starts
    /// from the square the piece stands on (none picks up another piece first), so
    /// that no turn of another piece can be the same as one of its own.
    anchored: Vec<bool>,
    /// Bitsets (per player, type and square, [`PieceSquares::row`]) of the other
    /// squares a step of such a piece may start on (the piece a `cascade` picks up): a
    /// turn of that piece can be the same as another piece's only if it starts on that
    /// piece's square. Empty when not known: then a type that is not anchored may start
    /// anywhere.
    starts_elsewhere: Vec<u64>,
    /// Per type, its templates that may change a type ([`ReachData::promoting_templates`]).
    promoting_templates: Vec<u64>,
    /// Per player, type and square ([`PieceSquares::square`]): the templates of such a
    /// piece that may remove a piece or change a type, by number as
    /// [`crate::RunCore::start_template`] takes them; empty when not known.
    loud: Vec<u64>,
}

/// A game's [`Reach`] as the compiler works it out of the templates, as plain data:
/// what generated code writes out (named, not positional) and [`Reach::from_data`]
/// checks and builds from. Tables per player, type and square are laid out by
/// [`PieceSquares`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReachData<'a> {
    /// The game's players, moving or not: every table below must fit the three sizes.
    pub players: usize,
    /// The game's piece types.
    pub kinds: usize,
    /// The game's positions, dummies included.
    pub positions: usize,
    /// Per player and type ([`PieceSquares::pair`]): whether its reach is bounded.
    pub bounded: &'a [bool],
    /// Where the reach is kept template by template: per type, how many move
    /// templates it has, and `hits` holds a bitset per player, square and template
    /// ([`PieceSquares::template_row`]). `None`: `hits` holds a bitset per player,
    /// type and square ([`PieceSquares::row`]).
    pub templates_per_kind: Option<&'a [u32]>,
    /// Bitsets over the squares, `positions.div_ceil(64)` words each.
    pub hits: &'a [u64],
    /// Per player, type and square: the most steps its templates could add
    /// ([`Reach::with_step_bounds`]); empty when not known.
    pub step_bounds: &'a [u16],
    /// Per player and type: every step starts on the piece's square; empty when not
    /// known.
    pub anchored: &'a [bool],
    /// Per player, type and square: the other squares a step may start on, as
    /// bitsets ([`Reach::with_starts_elsewhere`]); empty when not known.
    pub starts_elsewhere: &'a [u64],
    /// Where the reach is kept template by template: per type, its templates that may
    /// change a piece's type, by number (the 64th and later share bit 63); with the
    /// templates' reach, they tell which templates may make a loud move
    /// ([`Reach::loud_templates`]). Empty when not known.
    pub promoting_templates: &'a [u64],
}

/// Most entries of [`ByTemplate::toward`] (a 512 KiB table).
const MAX_TOWARD: usize = 1 << 16;

/// [`Reach`] template by template, for the bounded types.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ByTemplate {
    /// Per piece type: how many move templates it has, and the number of the first
    /// among all types' templates.
    counts: Vec<u32>,
    first: Vec<usize>,
    total: usize,
    /// A bitset over squares per player, square and template
    /// ([`PieceSquares::template_row`], template `first[kind] + template` of `total`).
    bits: Vec<u64>,
    /// The same read by target, where every type's templates fit one word and the
    /// table is small: at [`PieceSquares::square_pair`] (player, from, target), bit
    /// `first[kind] + template` set when that template from `from` could hit `target`.
    /// An attack test then finds a piece's templates in one load per royal square.
    toward: Vec<u64>,
}

impl Reach {
    /// The reach `data` describes, or the first table whose size does not fit its
    /// sizes.
    pub fn from_data(data: ReachData<'_>) -> Result<Reach, Inconsistency> {
        let ReachData {
            players,
            kinds,
            positions,
            bounded,
            ..
        } = data;
        let reach = match data.templates_per_kind {
            Some(counts) => Reach::from_templates(
                players,
                kinds,
                positions,
                bounded.to_vec(),
                counts.to_vec(),
                data.hits.to_vec(),
            )?,
            None => Reach::new(
                players,
                kinds,
                positions,
                bounded.to_vec(),
                data.hits.to_vec(),
            )?,
        };
        let reach = match (data.step_bounds, data.anchored) {
            ([], []) => reach,
            (bounds, anchored) => reach.with_step_bounds(bounds.to_vec(), anchored.to_vec())?,
        };
        let reach = match data.starts_elsewhere {
            [] => reach,
            starts => reach.with_starts_elsewhere(starts.to_vec())?,
        };
        match data.promoting_templates {
            [] => Ok(reach),
            promoting => reach.with_promoting_templates(promoting.to_vec()),
        }
    }

    /// This reach, with the templates of each type that may change a type
    /// ([`ReachData::promoting_templates`]): where the reach is kept template by
    /// template, it then tells which templates may make a loud move. A table of
    /// another size is an error.
    fn with_promoting_templates(mut self, promoting: Vec<u64>) -> Result<Reach, Inconsistency> {
        let layout = self.layout;
        Inconsistency::expect_len("reach: promoting templates", promoting.len(), layout.kinds)?;
        let Some(by) = &self.by_template else {
            return Ok(self);
        };
        let words = layout.words();
        let mut loud = vec![u64::MAX; layout.squares()];
        for player in 0..layout.players {
            for kind in (0..layout.kinds).filter(|&k| self.bounded[layout.pair(player, k)]) {
                for from in 0..layout.positions {
                    let mut templates = promoting[kind];
                    for template in 0..by.counts[kind] as usize {
                        let row =
                            layout.template_row(player, from, by.first[kind] + template, by.total);
                        if by.bits[row..][..words].iter().any(|&w| w != 0) {
                            templates |= 1 << template.min(63);
                        }
                    }
                    loud[layout.square(player, kind, from)] = templates;
                }
            }
        }
        self.promoting_templates = promoting;
        self.loud = loud;
        Ok(self)
    }

    /// The move templates of a `kind` piece of `player` standing on `from` that may
    /// make a loud move (remove a piece or change a type, [`crate::MoveTraits::is_loud`]),
    /// as bits by template number: every template where that is not known (an
    /// unbounded type, no reach by template).
    #[inline]
    pub fn loud_templates(&self, player: PlayerIx, kind: Kind, from: Pos) -> u64 {
        let slot = self
            .layout
            .square(player as usize, kind as usize, from as usize);
        self.loud.get(slot).copied().unwrap_or(u64::MAX)
    }

    /// This reach as [`Reach::from_data`] takes it (for code generation).
    pub fn data(&self) -> ReachData<'_> {
        let by_template = self.by_template.as_ref();
        ReachData {
            players: self.layout.players,
            kinds: self.layout.kinds,
            positions: self.layout.positions,
            bounded: &self.bounded,
            templates_per_kind: by_template.map(|by| &by.counts[..]),
            hits: by_template.map_or(&self.bits[..], |by| &by.bits[..]),
            step_bounds: &self.step_bounds,
            anchored: &self.anchored,
            starts_elsewhere: &self.starts_elsewhere,
            promoting_templates: &self.promoting_templates,
        }
    }

    /// `bounded` holds one flag per player and kind, `bits` one bitset of
    /// `positions.div_ceil(64)` words per player, kind and square, in that order; other
    /// sizes are an error.
    pub fn new(
        players: usize,
        kinds: usize,
        positions: usize,
        bounded: Vec<bool>,
        bits: Vec<u64>,
    ) -> Result<Reach, Inconsistency> {
        let layout = PieceSquares::new(players, kinds, positions);
        let words = layout.words();
        Inconsistency::expect_len("reach: bounded types", bounded.len(), layout.pairs())?;
        Inconsistency::expect_len("reach: bitsets", bits.len(), layout.rows())?;
        let mut hitting_from = vec![0u64; layout.rows()];
        let kind_row = |player: usize, target: usize, kind: usize| {
            layout.kinds_row(player, target) + kind * words
        };
        for player in 0..players {
            for kind in 0..kinds {
                for from in 0..positions {
                    let (word, bit) = (from / 64, 1 << (from % 64));
                    if !bounded[layout.pair(player, kind)] {
                        for target in 0..positions {
                            hitting_from[kind_row(player, target, kind) + word] |= bit;
                        }
                        continue;
                    }
                    let set = &bits[layout.row(player, kind, from)..][..words];
                    let targets = squares_in(set.iter().copied()).map(|t| t as usize);
                    for target in targets.filter(|&t| t < positions) {
                        hitting_from[kind_row(player, target, kind) + word] |= bit;
                    }
                }
            }
        }
        let mut hitting_any_from = vec![0u64; players * positions * words];
        let rows = (hitting_any_from.chunks_exact_mut(words.max(1)))
            .zip(hitting_from.chunks_exact((kinds * words).max(1)));
        for (any, by_kind) in rows {
            for reaching in by_kind.chunks_exact(words) {
                for (a, &r) in any.iter_mut().zip(reaching) {
                    *a |= r;
                }
            }
        }
        Ok(Reach {
            layout,
            bounded,
            bits,
            hitting_from,
            hitting_any_from,
            by_template: None,
            step_bounds: Vec::new(),
            anchored: Vec::new(),
            starts_elsewhere: Vec::new(),
            promoting_templates: Vec::new(),
            loud: Vec::new(),
        })
    }

    /// The reach of each move template, that of each piece type being the union of its
    /// templates': `counts` per piece type (the number of its move templates, in the
    /// order [`crate::Templates::piece_moves`] runs them), and a bitset of
    /// `positions.div_ceil(64)` words per player, square, and template of all the types
    /// in turn. Other sizes are an error.
    pub fn from_templates(
        players: usize,
        kinds: usize,
        positions: usize,
        bounded: Vec<bool>,
        counts: Vec<u32>,
        template_bits: Vec<u64>,
    ) -> Result<Reach, Inconsistency> {
        let layout = PieceSquares::new(players, kinds, positions);
        let words = layout.words();
        let total: usize = counts.iter().map(|&c| c as usize).sum();
        Inconsistency::expect_len("reach: template counts", counts.len(), kinds)?;
        Inconsistency::expect_len(
            "reach: template bitsets",
            template_bits.len(),
            layout.template_rows(total),
        )?;
        let first: Vec<usize> = counts
            .iter()
            .scan(0, |next, &count| {
                let first = *next;
                *next += count as usize;
                Some(first)
            })
            .collect();
        let mut bits = vec![0u64; layout.rows()];
        for player in 0..players {
            for (kind, (&count, &first)) in counts.iter().zip(&first).enumerate() {
                for from in 0..positions {
                    let union = layout.row(player, kind, from);
                    let templates = layout.template_row(player, from, first, total);
                    let templates = &template_bits[templates..][..count as usize * words];
                    for template in templates.chunks_exact(words) {
                        for (word, &hits) in template.iter().enumerate() {
                            bits[union + word] |= hits;
                        }
                    }
                }
            }
        }
        let mut reach = Reach::new(players, kinds, positions, bounded, bits)?;
        let mut toward = Vec::new();
        if total <= 64 && layout.square_pairs() <= MAX_TOWARD {
            toward = vec![0u64; layout.square_pairs()];
            for (player, from) in (0..players).flat_map(|p| (0..positions).map(move |f| (p, f))) {
                for template in 0..total {
                    let set = &template_bits[layout.template_row(player, from, template, total)..]
                        [..words];
                    let targets = squares_in(set.iter().copied()).map(|t| t as usize);
                    for target in targets.filter(|&t| t < positions) {
                        toward[layout.square_pair(player, from, target)] |= 1 << template;
                    }
                }
            }
        }
        reach.by_template = Some(ByTemplate {
            counts,
            first,
            total,
            bits: template_bits,
            toward,
        });
        Ok(reach)
    }

    /// Whether this reach is laid out for a game of these numbers of players, piece types
    /// and positions.
    pub fn fits(&self, players: usize, kinds: usize, positions: usize) -> bool {
        self.layout == PieceSquares::new(players, kinds, positions)
    }

    /// Which move templates of a `kind` piece of `player` standing on `from` could remove
    /// a piece from one of `targets`, as bits by template number (see
    /// [`crate::RunCore::start_template`]: the 64th and later share bit 63): none when
    /// the piece could not, all when the reach of its templates is not known.
    pub fn templates_hitting(
        &self,
        player: PlayerIx,
        kind: Kind,
        from: Pos,
        targets: &[Pos],
    ) -> u64 {
        if !self.may_hit(player, kind, from, targets) {
            return 0;
        }
        let Some(by) = &self.by_template else {
            return u64::MAX;
        };
        let slot = self.layout.pair(player as usize, kind as usize);
        let (Some(&count), Some(&first), true) = (
            by.counts.get(kind as usize),
            by.first.get(kind as usize),
            self.bounded.get(slot).copied().unwrap_or(false),
        ) else {
            return u64::MAX;
        };
        let (player, from) = (player as usize, from as usize);
        if !by.toward.is_empty() {
            let mut all = 0;
            for &target in targets {
                all |= by
                    .toward
                    .get(self.layout.square_pair(player, from, target as usize))
                    .copied()
                    .unwrap_or(0);
            }
            let own = u64::MAX.checked_shr(64 - count).unwrap_or(0);
            return all.checked_shr(first as u32).unwrap_or(0) & own;
        }
        let base = self.layout.template_row(player, from, first, by.total);
        let mut templates = 0;
        for template in 0..count as usize {
            let start = base + template * self.layout.words();
            let Some(set) = by.bits.get(start..start + self.layout.words()) else {
                return u64::MAX;
            };
            let hits = targets.iter().any(|&t| {
                set.get(t as usize / 64)
                    .is_some_and(|w| w >> (t % 64) & 1 == 1)
            });
            templates |= u64::from(hits) << template.min(63);
        }
        templates
    }

    /// This reach, with the most steps a piece of each player and type standing on each
    /// square could add (one number per player, type and square, in that order;
    /// `u16::MAX` where not known), and whether each player's type is anchored (every
    /// step of its starts on the piece's square). A random move is drawn by piece and
    /// index within these bounds, drawing again when the index is past the piece's
    /// steps, which keeps every turn equally likely (see
    /// [`crate::Engine::make_random_move`]); the bounds are checked on the positions
    /// of the corpus playouts ([`crate::Engine::reach_violation`]). Other sizes are an
    /// error.
    pub fn with_step_bounds(
        mut self,
        bounds: Vec<u16>,
        anchored: Vec<bool>,
    ) -> Result<Reach, Inconsistency> {
        Inconsistency::expect_len("reach: step bounds", bounds.len(), self.layout.squares())?;
        Inconsistency::expect_len("reach: anchored types", anchored.len(), self.layout.pairs())?;
        self.step_bounds = bounds;
        self.anchored = anchored;
        Ok(self)
    }

    /// Whether every step of a `kind` piece of `player` starts on its square (see
    /// [`Reach::with_step_bounds`]); `false` when not known.
    #[inline]
    pub fn anchored(&self, player: PlayerIx, kind: Kind) -> bool {
        let slot = self.layout.pair(player as usize, kind as usize);
        self.anchored.get(slot).copied().unwrap_or(false)
    }

    /// The most steps the move templates of a `kind` piece of `player` standing on
    /// `from` could add, if known.
    #[inline]
    pub fn max_steps(&self, player: PlayerIx, kind: Kind, from: Pos) -> Option<u32> {
        let slot = (self.layout).square(player as usize, kind as usize, from as usize);
        match self.step_bounds.get(slot) {
            Some(&u16::MAX) | None => None,
            Some(&bound) => Some(u32::from(bound)),
        }
    }

    /// This reach, with the other squares a step of a piece of each player and type
    /// standing on each square may start on, as bitsets of `positions.div_ceil(64)`
    /// words (per player, type and square, in that order): a random move then compares
    /// a candidate with the turns of a piece that is not anchored only where that piece
    /// could make it (see [`crate::Engine::make_random_move`]); checked on the
    /// positions of the corpus playouts ([`crate::Engine::reach_violation`]). A table
    /// of another size is an error.
    pub fn with_starts_elsewhere(mut self, starts: Vec<u64>) -> Result<Reach, Inconsistency> {
        Inconsistency::expect_len("reach: other starts", starts.len(), self.layout.rows())?;
        self.starts_elsewhere = starts;
        Ok(self)
    }

    /// Whether a step of a `kind` piece of `player` standing on `from` may start on
    /// `start`: always on `from`; elsewhere, only where the table says, or, without
    /// it, if the type is not anchored.
    #[inline]
    pub fn may_start_on(&self, player: PlayerIx, kind: Kind, from: Pos, start: Pos) -> bool {
        if start == from {
            return true;
        }
        if self.starts_elsewhere.is_empty() {
            return !self.anchored(player, kind);
        }
        let row = (self.layout).row(player as usize, kind as usize, from as usize);
        let word = row + start as usize / 64;
        (start as usize) < self.layout.positions
            && self
                .starts_elsewhere
                .get(word)
                .is_some_and(|bits| bits >> (start % 64) & 1 == 1)
    }

    /// The reach of each template, as [`Reach::from_templates`] takes it (for code
    /// generation), if kept.
    pub fn template_parts(&self) -> Option<(&[u32], &[u64])> {
        self.by_template
            .as_ref()
            .map(|by| (&by.counts[..], &by.bits[..]))
    }

    /// Per type of `player`, the squares from which such a piece could hit `target`
    /// (every square for an unbounded type), as bitsets over squares of
    /// `positions.div_ceil(64)` words one after the other: laid out as a player's type
    /// bitsets in a [`crate::State`], so that masking one by the other finds the
    /// pieces that might. Empty for a player or target outside the game.
    #[inline]
    pub fn hitting_from(&self, player: PlayerIx, target: Pos) -> &[u64] {
        if player as usize >= self.layout.players || target as usize >= self.layout.positions {
            return &[];
        }
        let start = self.layout.kinds_row(player as usize, target as usize);
        let len = self.layout.kinds * self.layout.words();
        self.hitting_from.get(start..start + len).unwrap_or(&[])
    }

    /// [`Reach::hitting_from`] for all types at once: the squares from which a piece of
    /// `player` of some type could hit `target`.
    #[inline]
    pub fn hitting_any_from(&self, player: PlayerIx, target: Pos) -> &[u64] {
        if player as usize >= self.layout.players || target as usize >= self.layout.positions {
            return &[];
        }
        let words = self.layout.words();
        let start = self.layout.player_square(player as usize, target as usize) * words;
        self.hitting_any_from
            .get(start..start + words)
            .unwrap_or(&[])
    }

    /// Whether a move of a `kind` piece of `player` standing on `from` could remove a
    /// piece from one of `targets`.
    #[inline]
    pub fn may_hit(&self, player: PlayerIx, kind: Kind, from: Pos, targets: &[Pos]) -> bool {
        let Some(set) = self.row(player as usize, kind as usize, from) else {
            return true;
        };
        targets.iter().any(|&t| {
            set.get(t as usize / 64)
                .is_some_and(|w| w >> (t % 64) & 1 == 1)
        })
    }

    /// The reach of a `kind` piece of `player` standing on `from`, if bounded.
    #[inline]
    fn row(&self, player: usize, kind: usize, from: Pos) -> Option<&[u64]> {
        if !(self.bounded.get(self.layout.pair(player, kind))).is_some_and(|&b| b) {
            return None;
        }
        let start = self.layout.row(player, kind, from as usize);
        self.bits.get(start..start + self.layout.words())
    }

    /// Whether each type is bounded, and each type's reach (the union of its templates'
    /// where those are kept), in the order [`Reach::new`] takes them: what [`Reach::data`]
    /// leaves out when the reach is kept by template.
    pub fn parts(&self) -> (&[bool], &[u64]) {
        (&self.bounded, &self.bits)
    }
}
