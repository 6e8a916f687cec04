//! Move templates of the two shapes most pieces are written in, as data: a leap or step
//! (a few directions, tests on the squares passed, one `add`) and a slide
//! (`d (while empty? add d)`, then perhaps tests and a last `add`), each perhaps after
//! zone tests of the square it starts on; and of any other template, the steps and tests
//! it opens with, whose failure means it adds nothing. The compiler's lowering
//! recognises them and puts them in [`crate::PieceInfo::shapes`].
//!
//! Also the layout of [`BulkTargets`], which `bulk` works out from the shapes and
//! counts with: per player, piece type and square, the squares each shaped template may
//! add a step to, grouped by what must stand there, the rays of its slides, and the
//! squares and tests that guard each opening; and per player and piece type, the same
//! leaps and guards by their offsets, to count the type's pieces together.

use crate::{Dir, Kind, MoveType, Pos};

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
    /// A template of any other form whose code starts with these tests and steps:
    /// where they fail, whatever the rest does, it adds nothing, and is not run.
    Guarded {
        /// The tests of the square the piece stands on, before the first step.
        origin: Vec<Test>,
        /// The steps, in order.
        steps: Vec<LeapStep>,
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
}

impl Shape {
    /// The directions and zones it names, for checking them against the tables.
    pub(crate) fn directions_and_zones(&self) -> (Vec<Dir>, Vec<u16>) {
        let (origin, mut tests): (&[Test], Vec<Test>) = match self {
            Shape::Leap { origin, steps, .. } | Shape::Guarded { origin, steps } => {
                (origin, steps.iter().flat_map(|s| s.tests.clone()).collect())
            }
            Shape::Slide { origin, then, .. } => (origin, then.iter().flatten().copied().collect()),
        };
        tests.extend_from_slice(origin);
        let coded_in = match self {
            Shape::Leap { coded_in, .. } => *coded_in,
            _ => None,
        };
        let zones = (tests.iter())
            .filter_map(|t| match *t {
                Test::InZone(zone) => Some(zone),
                _ => None,
            })
            .chain(coded_in)
            .collect();
        let directions = match self {
            Shape::Leap { steps, .. } | Shape::Guarded { steps, .. } => {
                steps.iter().map(|s| s.dir).collect()
            }
            Shape::Slide { dir, .. } => vec![*dir],
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

/// The squares the shaped templates of one piece type, for one player and square, may
/// add a step to.
#[derive(Clone, Debug, Default)]
pub(crate) struct SquareTargets {
    /// The type's templates, by number (bit 63 for all from the 63rd on).
    pub(crate) all: u64,
    /// The templates counted in bulk here, by number (none from the 63rd on). The
    /// others run their code, but for those a guard skips.
    pub(crate) counted: u64,
    /// The last squares of leaps, by what must stand there: anything, not a friend,
    /// nothing, an enemy.
    pub(crate) leaps: [u64; 4],
    /// Its slides: a range of [`BulkTargets::rays`].
    pub(crate) rays: (u32, u32),
    /// Its leaps past a square that must hold what a test wants: a range of
    /// [`BulkTargets::lame_leaps`].
    pub(crate) lame_leaps: (u32, u32),
    /// Its templates that run their code only where a square holds what a test
    /// wants: a range of [`BulkTargets::guards`].
    pub(crate) guards: (u32, u32),
}

/// A leap that passes a square that must hold what a test wants (a pawn's first
/// double step, say).
#[derive(Clone, Copy, Debug)]
pub(crate) struct LameLeap {
    /// The square passed, and what must stand there.
    pub(crate) past: u64,
    pub(crate) past_needs: Standing,
    /// The last square, and what must stand there.
    pub(crate) target: u64,
    pub(crate) needs: Standing,
}

/// A template that adds nothing unless two squares hold what the tests its code starts
/// with want ([`Shape::Guarded`]; where it tests one, both are that one).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Guard {
    /// The template, as a bit.
    pub(crate) template: u64,
    /// The squares, and what must stand on each.
    pub(crate) squares: [u64; 2],
    pub(crate) needs: [Standing; 2],
}

/// What the leaps of [`SquareTargets::leaps`] need, in order.
pub(crate) const LEAP_CLASSES: [Standing; 4] = [ANYTHING, EMPTY | ENEMY | NEUTRAL, EMPTY, ENEMY];

/// A leap by the same offsets from every square of `from`, perhaps past a square that
/// must hold what a test wants: counted for all the pieces of a type on those squares
/// at once, by shifting their bitset ([`KindTargets`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KindLeap {
    pub(crate) from: u64,
    /// The offset to the square passed (the last square, for a leap past none), and
    /// what must stand there ([`ANYTHING`] for none).
    pub(crate) first: i8,
    pub(crate) past_needs: Standing,
    /// The offset from there to the last square (0 for a leap past none), and what must
    /// stand there.
    pub(crate) then: i8,
    pub(crate) needs: Standing,
}

/// A guard ([`Guard`]) by the same offsets from every square of `from`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KindGuard {
    pub(crate) from: u64,
    pub(crate) offsets: [i8; 2],
    pub(crate) needs: [Standing; 2],
}

/// For one player and piece type: the squares where a piece's every template is a
/// counted leap or a guarded one (or never runs), so that where no guard passes and the
/// screen decides every turn, the turns of all such pieces are counted together: the
/// popcount of their bitset shifted by each leap's offsets.
#[derive(Clone, Debug, Default)]
pub(crate) struct KindTargets {
    pub(crate) simple: u64,
    pub(crate) leaps: Vec<KindLeap>,
    pub(crate) guards: Vec<KindGuard>,
}

impl KindTargets {
    /// Adds `leap`, from one square, to the leap by the same offsets and tests.
    pub(crate) fn add_leap(&mut self, leap: KindLeap) {
        let same = |l: &&mut KindLeap| KindLeap { from: 0, ..**l } == KindLeap { from: 0, ..leap };
        match self.leaps.iter_mut().find(same) {
            Some(group) => group.from |= leap.from,
            None => self.leaps.push(leap),
        }
    }

    /// Adds `guard`, from one square, to the guard by the same offsets and tests.
    pub(crate) fn add_guard(&mut self, guard: KindGuard) {
        let same = |g: &&mut KindGuard| (g.offsets, g.needs) == (guard.offsets, guard.needs);
        match self.guards.iter_mut().find(same) {
            Some(group) => group.from |= guard.from,
            None => self.guards.push(guard),
        }
    }
}

/// `bits` moved by `offset` squares (up for a positive one).
#[inline(always)]
pub(crate) fn shifted(bits: u64, offset: i8) -> u64 {
    match offset >= 0 {
        true => bits << offset,
        false => bits >> -offset,
    }
}

/// A slide's squares from one square, in order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ray {
    /// All its squares.
    pub(crate) squares: u64,
    /// Where they are in [`BulkTargets::ray_squares`].
    pub(crate) start: u32,
    pub(crate) len: u32,
    /// What must stand on the first square that is not empty for the slide to add a
    /// step there (nothing when it never does), and the squares that pass its zone
    /// tests.
    pub(crate) end: Standing,
    pub(crate) end_zones: u64,
}

/// Per player, piece type and square of the first 64 positions, where the shaped
/// templates of a piece there may add steps (see the module documentation).
#[derive(Clone, Debug)]
pub(crate) struct BulkTargets {
    /// The move type of every template counted: those of other types run their code.
    pub(crate) counted_type: Option<MoveType>,
    pub(crate) kinds: usize,
    pub(crate) squares: usize,
    /// `(player * kinds + kind) * squares + square`.
    pub(crate) targets: Vec<SquareTargets>,
    pub(crate) rays: Vec<Ray>,
    pub(crate) ray_squares: Vec<Pos>,
    pub(crate) lame_leaps: Vec<LameLeap>,
    pub(crate) guards: Vec<Guard>,
    /// Per player, the piece types whose pieces may be counted together.
    pub(crate) kind_targets: Vec<Vec<(Kind, KindTargets)>>,
}
