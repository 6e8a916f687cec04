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
//! square and test that guard each opening.

use crate::{Dir, Pos};

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

/// A template that adds nothing unless a square holds what the test its code starts
/// with wants ([`Shape::Guarded`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Guard {
    /// The template, as a bit.
    pub(crate) template: u64,
    /// The square, and what must stand there.
    pub(crate) square: u64,
    pub(crate) needs: Standing,
}

/// What the leaps of [`SquareTargets::leaps`] need, in order.
pub(crate) const LEAP_CLASSES: [Standing; 4] = [ANYTHING, EMPTY | ENEMY | NEUTRAL, EMPTY, ENEMY];

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

/// For boards of up to 64 positions: per player, piece type and square, where the
/// shaped templates of a piece there may add steps (see the module documentation).
#[derive(Clone, Debug)]
pub(crate) struct BulkTargets {
    pub(crate) kinds: usize,
    pub(crate) squares: usize,
    /// `(player * kinds + kind) * squares + square`.
    pub(crate) targets: Vec<SquareTargets>,
    pub(crate) rays: Vec<Ray>,
    pub(crate) ray_squares: Vec<Pos>,
    pub(crate) lame_leaps: Vec<LameLeap>,
    pub(crate) guards: Vec<Guard>,
}
