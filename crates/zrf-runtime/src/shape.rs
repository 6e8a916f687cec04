//! Move templates of the shapes most pieces are written in, as data: a leap or step
//! (a few directions, tests on the squares passed, one `add`), a slide
//! (`d (while empty? add d)`, then perhaps tests and a last `add`), a slide that
//! captures by hopping over a piece (a xiangqi cannon) and a look along a line that
//! adds only on the first piece in the way (a xiangqi general facing the other), each
//! perhaps after zone tests of the square it starts on; and of any other template, the
//! steps and tests it opens with, whose failure means it adds nothing. The compiler's
//! lowering recognises them and puts them in [`crate::PieceInfo::shapes`].
//!
//! Also the layout of [`BulkTargets`], which `bulk` works out from the shapes and
//! counts with: per player, piece type and square, the squares each shaped template may
//! add a step to, grouped by what must stand there, the rays of its slides, and the
//! squares and tests that guard each opening; and per player and piece type, the same
//! leaps and guards by their offsets, to count the type's pieces together.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Shl, Shr};

use smallvec::SmallVec;

use crate::{Dir, Kind, MoveType, PieceSquares, Pos};

/// A move template in one of the shapes counted in bulk (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `d1 (verify t…) d2 (verify t…) … add`: each direction a step (failing off the
    /// board), the square reached passing every test that follows it, and the piece
    /// added on the last square. With `coded_in`, the last `add` is
    /// `(if (in-zone? ZONE) … else add)`: where the last square is in that zone (a
    /// promotion, say), the template runs its code.
    Leap {
        /// The tests of the square the piece stands on, before the first step.
        origin: Vec<Test>,
        /// The steps, in order.
        steps: Vec<LeapStep>,
        /// The zone where the template runs its code, by number.
        coded_in: Option<u16>,
    },
    /// `d (while empty? add d)`, then, when `then` is given, `(verify t)… add`: the
    /// piece added on every empty square along `d`, and on the first square that is not
    /// empty if it passes every test.
    Slide {
        /// The tests of the square the piece stands on, before the first step.
        origin: Vec<Test>,
        /// The direction slid in.
        dir: Dir,
        /// The tests of the first square that is not empty, where the slide adds there.
        then: Option<Vec<Test>>,
    },
    /// `d (while empty? add d) d (while empty? d) (verify t…) add`: the piece added on
    /// every empty square along `d`, and past the first piece in the way, on the next
    /// piece's square if it passes every test (a xiangqi cannon).
    Hop {
        /// The tests of the square the piece stands on, before the first step.
        origin: Vec<Test>,
        /// The direction slid in.
        dir: Dir,
        /// The tests of the square hopped to.
        tests: Vec<Test>,
    },
    /// `d (while empty? d) (verify t…) add`: the piece added on the first square along
    /// `d` that is not empty, if it passes every test and, with `piece`, holds a piece
    /// of that type (a xiangqi general facing the other along an open file). Its turns
    /// are not counted in bulk; the attack test reads its captures off the bulk targets.
    Strike {
        /// The tests of the square the piece stands on, before the first step.
        origin: Vec<Test>,
        /// The direction looked along.
        dir: Dir,
        /// The tests of the first square that is not empty.
        tests: Vec<Test>,
        /// `(piece? TYPE)` of that square, by the type's number.
        piece: Option<Kind>,
    },
    /// A template of any other form whose code starts with these tests and steps
    /// (perhaps none, after tests of its square): where they fail, whatever the rest
    /// does, it adds nothing, and is not run.
    Guarded {
        /// The tests of the square the piece stands on, before the first step.
        origin: Vec<Test>,
        /// The steps, in order.
        steps: Vec<LeapStep>,
    },
    /// `d1 (verify t…) capture d2 (verify t…) … (add-partial TYPE)`: the opening of a
    /// [`Shape::Guarded`] template with one `capture` of a square it passes, then the
    /// piece moved to the last square as a partial step that templates of `TYPE`
    /// continue (a checkers jump). With `coded_in`, the `add` is
    /// `(if (in-zone? ZONE) … else (add-partial TYPE))`: where the last square is in
    /// that zone, the template runs its code. Where every test passes, the template
    /// adds that one step; a perft's last ply counts it without running the code where
    /// nothing continues the chain (see `crate::chains`).
    Jump {
        /// The tests of the square the piece stands on, before the first step.
        origin: Vec<Test>,
        /// The steps, in order.
        steps: Vec<LeapStep>,
        /// The step whose square is captured, by its place in `steps`.
        captured: u8,
        /// The move type that continues the chain (`None`: untyped templates).
        continue_with: Option<MoveType>,
        /// The zone where the template runs its code, by number.
        coded_in: Option<u16>,
    },
}

/// One step of a [`Shape::Leap`] and the tests of the square it reaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeapStep {
    /// The direction stepped in (in the mover's view, `symmetry` applied).
    pub dir: Dir,
    /// What the square reached must pass, in order.
    pub tests: Vec<Test>,
}

/// A `verify` a shaped template makes of the current square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Test {
    /// `empty?`.
    Empty,
    /// `enemy?`.
    Enemy,
    /// `(not friend?)`.
    NotFriend,
    /// `(in-zone? ZONE)`, by the zone's number.
    InZone(u16),
    /// `(not-in-zone? ZONE)`, by the zone's number.
    NotInZone(u16),
}

impl Shape {
    /// The directions and zones it names, for checking them against the tables.
    pub(crate) fn directions_and_zones(&self) -> (Vec<Dir>, Vec<u16>) {
        let (origin, mut tests): (&[Test], Vec<Test>) = match self {
            Shape::Leap { origin, steps, .. }
            | Shape::Guarded { origin, steps }
            | Shape::Jump { origin, steps, .. } => {
                (origin, steps.iter().flat_map(|s| s.tests.clone()).collect())
            }
            Shape::Slide { origin, then, .. } => (origin, then.iter().flatten().copied().collect()),
            Shape::Hop { origin, tests, .. } | Shape::Strike { origin, tests, .. } => {
                (origin, tests.clone())
            }
        };
        tests.extend_from_slice(origin);
        let coded_in = match self {
            Shape::Leap { coded_in, .. } | Shape::Jump { coded_in, .. } => *coded_in,
            _ => None,
        };
        let zones = (tests.iter())
            .filter_map(|t| match *t {
                Test::InZone(zone) | Test::NotInZone(zone) => Some(zone),
                _ => None,
            })
            .chain(coded_in)
            .collect();
        let directions = match self {
            Shape::Leap { steps, .. }
            | Shape::Guarded { steps, .. }
            | Shape::Jump { steps, .. } => steps.iter().map(|s| s.dir).collect(),
            Shape::Slide { dir, .. } | Shape::Hop { dir, .. } | Shape::Strike { dir, .. } => {
                vec![*dir]
            }
        };
        (directions, zones)
    }
}

/// What may stand on a square for a test to pass, as bits: [`EMPTY`], [`FRIEND`],
/// [`ENEMY`], [`NEUTRAL`].
pub(crate) type Standing = u8;
pub(crate) const EMPTY: Standing = 1;
pub(crate) const FRIEND: Standing = 2;
pub(crate) const ENEMY: Standing = 4;
pub(crate) const NEUTRAL: Standing = 8;
pub(crate) const ANYTHING: Standing = EMPTY | FRIEND | ENEMY | NEUTRAL;

/// A set of the first [`SquareSet::WIDTH`] squares of a board, a bit each, for the bulk
/// targets: a `u64` where every piece starts on the first 64 squares (chess, checkers
/// with its dummy square), a `u128` where they start on the first 128 (xiangqi, boards
/// of 10 by 10), four words ([`Words`]) where they start on the first 256 (shogi with
/// its hands on a board of 153). One word where one will do: each wider set costs
/// about twice as many instructions per operation. (Three words for shogi measured
/// dearer than four: perft 4 of corpus shogi.zrf 382 against 360 M instructions.)
pub(crate) trait SquareSet:
    'static
    + Copy
    + Default
    + Eq
    + Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// How many squares it holds.
    const WIDTH: u32;
    /// Every square.
    const ALL: Self;
    /// `pos` alone (below [`SquareSet::WIDTH`]).
    fn bit(pos: Pos) -> Self;
    /// Whether `pos` (below [`SquareSet::WIDTH`]) is in the set.
    fn has(self, pos: Pos) -> bool;
    /// Whether it holds no square.
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == Self::default()
    }
    /// How many squares it holds.
    fn count(self) -> u32;
    /// Its lowest square (the width when empty).
    fn lowest(self) -> Pos;
    /// The set without its lowest square.
    fn without_lowest(self) -> Self;
    /// The squares of the first words of a bitset (bit `pos % 64` of word `pos / 64`).
    fn from_words(words: &[u64]) -> Self;
    /// The set as the first four words of such a bitset (every set is at most that
    /// wide).
    fn words(self) -> [u64; 4];
}

/// The squares of two words (a `u128`), counted together. Without a popcount
/// instruction (the default x86-64 target has none), counting each word costs a dozen
/// operations and a multiply; here the bits are summed by bytes in each word, the bytes
/// of both added (at most 16 a byte), and one multiply adds them up (at most 128, within
/// its top byte). Callgrind, xiangqi sample perft 4: 878.4 against 895.0 M instructions
/// with `u128::count_ones`.
#[inline(always)]
fn count_two(low: u64, high: u64) -> u32 {
    #[cfg(any(
        target_feature = "popcnt",
        not(any(target_arch = "x86", target_arch = "x86_64"))
    ))]
    return low.count_ones() + high.count_ones();
    #[cfg(not(any(
        target_feature = "popcnt",
        not(any(target_arch = "x86", target_arch = "x86_64"))
    )))]
    {
        const PAIRS: u64 = 0x5555_5555_5555_5555;
        const NIBBLES: u64 = 0x3333_3333_3333_3333;
        const BYTES: u64 = 0x0F0F_0F0F_0F0F_0F0F;
        let by_bytes = |word: u64| {
            let pairs = word - (word >> 1 & PAIRS);
            let nibbles = (pairs & NIBBLES) + (pairs >> 2 & NIBBLES);
            (nibbles + (nibbles >> 4)) & BYTES
        };
        let bytes = by_bytes(low) + by_bytes(high);
        let count = (bytes.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32;
        debug_assert_eq!(count, low.count_ones() + high.count_ones());
        count
    }
}

/// The methods of [`SquareSet`] an unsigned integer has as its own.
macro_rules! integer_set_methods {
    ($int:ty) => {
        #[inline(always)]
        fn lowest(self) -> Pos {
            self.trailing_zeros()
        }
        #[inline(always)]
        fn without_lowest(self) -> $int {
            self & self.wrapping_sub(1)
        }
    };
}

impl SquareSet for u64 {
    const WIDTH: u32 = 64;
    const ALL: u64 = u64::MAX;
    #[inline(always)]
    fn bit(pos: Pos) -> u64 {
        1 << pos
    }
    #[inline(always)]
    fn has(self, pos: Pos) -> bool {
        debug_assert!(pos < 64);
        self >> pos & 1 == 1
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    integer_set_methods!(u64);
    #[inline(always)]
    fn from_words(words: &[u64]) -> u64 {
        words.first().copied().unwrap_or(0)
    }
    #[inline(always)]
    fn words(self) -> [u64; 4] {
        [self, 0, 0, 0]
    }
}

impl SquareSet for u128 {
    const WIDTH: u32 = 128;
    const ALL: u128 = u128::MAX;
    // By the word the square is in: a shift of the whole set by a variable amount
    // costs several instructions.
    #[inline(always)]
    fn bit(pos: Pos) -> u128 {
        let bit = 1u64 << (pos & 63);
        match pos < 64 {
            true => bit as u128,
            false => (bit as u128) << 64,
        }
    }
    #[inline(always)]
    fn has(self, pos: Pos) -> bool {
        let word = match pos < 64 {
            true => self as u64,
            false => (self >> 64) as u64,
        };
        debug_assert!(pos < 128);
        word >> (pos & 63) & 1 == 1
    }
    #[inline(always)]
    fn count(self) -> u32 {
        count_two(self as u64, (self >> 64) as u64)
    }
    integer_set_methods!(u128);
    #[inline(always)]
    fn from_words(words: &[u64]) -> u128 {
        let word = |i: usize| words.get(i).copied().unwrap_or(0) as u128;
        word(0) | word(1) << 64
    }
    #[inline(always)]
    fn words(self) -> [u64; 4] {
        [self as u64, (self >> 64) as u64, 0, 0]
    }
}

/// A set of `N` words, for boards wider than 128 squares (shogi with its hands on a
/// board of 153).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Words<const N: usize>([u64; N]);

impl<const N: usize> Default for Words<N> {
    #[inline(always)]
    fn default() -> Self {
        Words([0; N])
    }
}

/// The operators of [`Words`], word by word.
macro_rules! wordwise {
    ($op:ident, $method:ident, $assign:ident, $assign_method:ident, $sign:tt) => {
        impl<const N: usize> $op for Words<N> {
            type Output = Self;
            #[inline(always)]
            fn $method(self, other: Self) -> Self {
                Words(std::array::from_fn(|i| self.0[i] $sign other.0[i]))
            }
        }
        impl<const N: usize> $assign for Words<N> {
            #[inline(always)]
            fn $assign_method(&mut self, other: Self) {
                *self = *self $sign other;
            }
        }
    };
}
wordwise!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
wordwise!(BitOr, bitor, BitOrAssign, bitor_assign, |);

impl<const N: usize> Not for Words<N> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        Words(self.0.map(|word| !word))
    }
}

impl<const N: usize> Shl<u32> for Words<N> {
    type Output = Self;
    /// Each square moved up by `by`.
    fn shl(self, by: u32) -> Self {
        let (words, bits) = (by as usize / 64, by % 64);
        let word = |i: usize| match i.checked_sub(words) {
            Some(from) => self.0[from],
            None => 0,
        };
        Words(std::array::from_fn(|i| match (bits, i.checked_sub(1)) {
            (0, _) => word(i),
            (_, Some(below)) => word(i) << bits | word(below) >> (64 - bits),
            (_, None) => word(i) << bits,
        }))
    }
}

impl<const N: usize> Shr<u32> for Words<N> {
    type Output = Self;
    /// Each square moved down by `by`.
    fn shr(self, by: u32) -> Self {
        let (words, bits) = (by as usize / 64, by % 64);
        let word = |i: usize| self.0.get(i + words).copied().unwrap_or(0);
        Words(std::array::from_fn(|i| match bits {
            0 => word(i),
            _ => word(i) >> bits | word(i + 1) << (64 - bits),
        }))
    }
}

impl<const N: usize> SquareSet for Words<N> {
    const WIDTH: u32 = 64 * N as u32;
    const ALL: Self = Words([u64::MAX; N]);
    #[inline(always)]
    fn bit(pos: Pos) -> Self {
        let mut set = Self::default();
        set.0[pos as usize / 64] = 1 << (pos % 64);
        set
    }
    #[inline(always)]
    fn has(self, pos: Pos) -> bool {
        self.0[pos as usize / 64] >> (pos % 64) & 1 == 1
    }
    #[inline(always)]
    fn count(self) -> u32 {
        // Word by word: the compiler counts them two at a time in vector registers
        // (pairs counted as `count_two` does measured dearer: corpus shogi.zrf perft 4,
        // 362.9 against 360.0 M instructions).
        self.0.iter().map(|word| word.count_ones()).sum()
    }
    #[inline(always)]
    fn lowest(self) -> Pos {
        match self.0.iter().position(|&word| word != 0) {
            Some(i) => i as Pos * 64 + self.0[i].trailing_zeros(),
            None => Self::WIDTH,
        }
    }
    #[inline(always)]
    fn without_lowest(mut self) -> Self {
        if let Some(word) = self.0.iter_mut().find(|word| **word != 0) {
            *word &= *word - 1;
        }
        self
    }
    #[inline(always)]
    fn from_words(words: &[u64]) -> Self {
        Words(std::array::from_fn(|i| words.get(i).copied().unwrap_or(0)))
    }
    #[inline(always)]
    fn words(self) -> [u64; 4] {
        const { assert!(N <= 4) };
        std::array::from_fn(|i| self.0.get(i).copied().unwrap_or(0))
    }
}

/// The squares the shaped templates of one piece type, for one player and square, may
/// add a step to.
#[derive(Clone, Debug, Default)]
pub(crate) struct SquareTargets<B> {
    /// The type's templates, by number (bit 63 for all from the 63rd on; every bit for a
    /// type whose templates have no shapes, which [`crate::PieceInfo::shapes`] leaves
    /// unlisted).
    pub(crate) all: u64,
    /// The templates counted in bulk here, by number (none from the 63rd on). The
    /// others run their code, but for those a guard skips.
    pub(crate) counted: u64,
    /// The last squares of leaps, by what must stand there: anything, not a friend,
    /// nothing, an enemy.
    pub(crate) leaps: [B; 4],
    /// Which of `leaps` hold a square, by bit: most pieces' leaps need one thing.
    pub(crate) leap_classes: u8,
    /// Its slides: a range of [`BulkTargets::rays`].
    pub(crate) rays: (u32, u32),
    /// Its strikes ([`Shape::Strike`]), not counted: a range of
    /// [`BulkTargets::strikes`], and the templates, by number.
    pub(crate) strikes: (u32, u32),
    pub(crate) struck: u64,
    /// Its leaps past a square that must hold what a test wants: a range of
    /// [`BulkTargets::lame_leaps`].
    pub(crate) lame_leaps: (u32, u32),
    /// Its templates that run their code only where a square holds what a test
    /// wants: a range of [`BulkTargets::guards`].
    pub(crate) guards: (u32, u32),
    /// Every square [`BulkTargets::targets`] reads for it but those of its slides
    /// (read up to the piece that stops each, which the targets tell): those of its
    /// leaps, its leaps past a square and its guards.
    pub(crate) reads: B,
}

/// A leap that passes a square that must hold what a test wants (a pawn's first
/// double step, say).
#[derive(Clone, Copy, Debug)]
pub(crate) struct LameLeap<B> {
    /// The square passed, and what must stand there.
    pub(crate) past: B,
    pub(crate) past_needs: Standing,
    /// The last square, and what must stand there.
    pub(crate) target: B,
    pub(crate) needs: Standing,
}

/// A template that adds nothing unless two squares hold what the tests its code starts
/// with want ([`Shape::Guarded`]; where it tests one, both are that one).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Guard<B> {
    /// The template, as a bit.
    pub(crate) template: u64,
    /// The squares, and what must stand on each.
    pub(crate) squares: [B; 2],
    pub(crate) needs: [Standing; 2],
}

/// The one step a [`Shape::Jump`] adds from a square where its guard passes: the piece
/// moved to `to`, the piece on `captured` captured, the chain going on with templates
/// of `continue_with`; the template is listed under `move_type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GuardedJump {
    pub(crate) to: Pos,
    pub(crate) captured: Pos,
    pub(crate) continue_with: Option<MoveType>,
    pub(crate) move_type: Option<MoveType>,
}

/// What the leaps of [`SquareTargets::leaps`] need, in order.
pub(crate) const LEAP_CLASSES: [Standing; 4] = [ANYTHING, EMPTY | ENEMY | NEUTRAL, EMPTY, ENEMY];

/// A leap by the same offsets from every square of `from`, perhaps past a square that
/// must hold what a test wants: counted for all the pieces of a type on those squares
/// at once, by shifting their bitset ([`KindTargets`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KindLeap<B> {
    pub(crate) from: B,
    /// The offset to the square passed (the last square, for a leap past none), and
    /// what must stand there ([`ANYTHING`] for none).
    pub(crate) first: i16,
    pub(crate) past_needs: Standing,
    /// The offset from there to the last square (0 for a leap past none), and what must
    /// stand there.
    pub(crate) then: i16,
    pub(crate) needs: Standing,
}

/// A guard ([`Guard`]) by the same offsets from every square of `from`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KindGuard<B> {
    pub(crate) from: B,
    pub(crate) offsets: [i16; 2],
    pub(crate) needs: [Standing; 2],
}

/// For one player and piece type: the squares where a piece's every template is a
/// counted leap or a guarded one (or never runs), so that where no guard passes and the
/// screen decides every turn, the turns of all such pieces are counted together: the
/// popcount of their bitset shifted by each leap's offsets.
#[derive(Clone, Debug, Default)]
pub(crate) struct KindTargets<B> {
    pub(crate) simple: B,
    pub(crate) leaps: Vec<KindLeap<B>>,
    pub(crate) guards: Vec<KindGuard<B>>,
}

impl<B: SquareSet> KindTargets<B> {
    /// Adds `leap`, from one square, to the leap by the same offsets and tests.
    pub(crate) fn add_leap(&mut self, leap: KindLeap<B>) {
        let offsets = |l: &KindLeap<B>| (l.first, l.past_needs, l.then, l.needs);
        let same = |l: &&mut KindLeap<B>| offsets(l) == offsets(&leap);
        match self.leaps.iter_mut().find(same) {
            Some(group) => group.from |= leap.from,
            None => self.leaps.push(leap),
        }
    }

    /// Adds `guard`, from one square, to the guard by the same offsets and tests.
    pub(crate) fn add_guard(&mut self, guard: KindGuard<B>) {
        let same = |g: &&mut KindGuard<B>| (g.offsets, g.needs) == (guard.offsets, guard.needs);
        match self.guards.iter_mut().find(same) {
            Some(group) => group.from |= guard.from,
            None => self.guards.push(guard),
        }
    }
}

/// `bits` moved by `offset` squares (up for a positive one).
#[inline(always)]
pub(crate) fn shifted<B: SquareSet>(bits: B, offset: i16) -> B {
    match offset >= 0 {
        true => bits << offset as u32,
        false => bits >> offset.unsigned_abs() as u32,
    }
}

/// A slide's squares from one square, in order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ray<B> {
    /// All its squares.
    pub(crate) squares: B,
    /// Where they are in [`BulkTargets::ray_bits`].
    pub(crate) start: u32,
    pub(crate) len: u32,
    /// What must stand on the first square that is not empty for the slide to add a
    /// step there (nothing when it never does), and the squares that pass its zone
    /// tests.
    pub(crate) end: Standing,
    pub(crate) end_zones: B,
    /// The same for the next square that is not empty, past the first, where a
    /// [`Shape::Hop`] adds its step.
    pub(crate) hop: Standing,
    pub(crate) hop_zones: B,
}

/// Per player, piece type and square of the first [`SquareSet::WIDTH`] positions, where
/// the shaped templates of a piece there may add steps (see the module documentation).
#[derive(Clone, Debug)]
pub(crate) struct BulkTargets<B> {
    /// Told apart from every other game's on this machine (see `crate::kept`).
    pub(crate) id: u64,
    /// The move type of every template counted: those of other types run their code.
    pub(crate) counted_type: Option<MoveType>,
    /// The game's players, types and squares, which place the entries of `targets`
    /// ([`BulkTargets::entry`]).
    pub(crate) layout: PieceSquares,
    pub(crate) targets: Vec<SquareTargets<B>>,
    pub(crate) rays: Vec<Ray<B>>,
    /// The rays of strikes ([`Shape::Strike`]), each with the type that must stand
    /// where it adds, if any.
    pub(crate) strikes: Vec<(Ray<B>, Option<Kind>)>,
    /// The squares of the rays and strikes, each as a set of one, in order.
    pub(crate) ray_bits: Vec<B>,
    pub(crate) lame_leaps: Vec<LameLeap<B>>,
    pub(crate) guards: Vec<Guard<B>>,
    /// For each of `guards`, where its template is a [`Shape::Jump`] whose tests the
    /// guard holds all of, and whose code does not run on its last square: the step it
    /// adds where the guard passes. Apart from the guards, which the count reads for
    /// every piece; empty for a game without any such jump, so that its count looks
    /// for none.
    pub(crate) guarded_jumps: Vec<Option<GuardedJump>>,
    /// Per piece type, its templates of each move type it lists, as chains of jumps
    /// read them (see `crate::chains`).
    pub(crate) templates_by_type: Vec<TemplatesByType>,
    /// Per player, the piece types whose pieces may be counted together.
    pub(crate) kind_targets: Vec<Vec<(Kind, KindTargets<B>)>>,
}

/// A piece type's templates of each move type it lists (a bit each, by number, as the
/// guards and counted sets hold them; `None` where one is numbered past 62), in the
/// order the types first come; empty for a type that lists no move types (none of its
/// templates has a shape).
pub(crate) type TemplatesByType = SmallVec<[(Option<MoveType>, Option<u64>); 2]>;

/// The bulk targets of a game, in the narrowest [`SquareSet`] that holds the squares
/// its pieces start on.
#[derive(Clone, Debug)]
pub(crate) enum Bulk {
    OneWord(BulkTargets<u64>),
    TwoWords(BulkTargets<u128>),
    FourWords(BulkTargets<Words<4>>),
}
