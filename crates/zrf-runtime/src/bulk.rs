//! The turns of shaped templates (see [`crate::shape`]) counted in bulk from
//! precomputed target sets instead of run step by step, on boards of up to 64
//! positions. A perft's last ply (`Steps::count_plain`) counts a piece's shaped turns as
//! the popcount of the squares they reach that the attack test before decides, as each
//! of them would be counted one by one anyway (see `BulkCount`); the others are added
//! one by one, and its other templates run their code unless their guard fails.
//!
//! The invariant: for every piece, the turns counted in bulk plus those added one by
//! one are exactly the steps its shaped templates' code would add, with the same loop
//! work. Debug builds check every count against the length of the general path's list
//! ([`crate::Engine::legal_move_count`]), and the corpus playouts check it on every
//! position of every game (`count-error`).

use smallvec::SmallVec;

use crate::run::MAX_LOOP;
use crate::shape::{
    BulkTargets, Guard, LameLeap, LeapStep, Ray, Shape, SquareTargets, Standing, Test, ANYTHING,
    EMPTY, ENEMY, FRIEND, LEAP_CLASSES,
};
use crate::state::State;
use crate::tables::{is_active_in, PlayerView, Tables, NO_POS};
use crate::{Dir, Kind, PlayerIx, Pos};

/// The squares of one position by what stands there, as the mover sees them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Occupancy {
    occupied: u64,
    /// For each [`Standing`], the squares where what stands passes it.
    passing: [u64; 16],
}

impl Occupancy {
    /// The squares of `state` (one word of positions) as `mover` sees them.
    #[inline]
    pub(crate) fn of(tables: &Tables, state: &State, mover: PlayerIx) -> Occupancy {
        let active = tables.active_players();
        let (mut occupied, mut enemy) = (0, 0);
        for player in 0..tables.players.len() as PlayerIx {
            let word = state.own_words(player).first().copied().unwrap_or(0);
            occupied |= word;
            if player != mover && is_active_in(&active, player) {
                enemy |= word;
            }
        }
        let friend = state.own_words(mover).first().copied().unwrap_or(0);
        let board = u64::MAX >> (64 - tables.positions.len().clamp(1, 64));
        let by_bit = [
            board & !occupied,
            friend,
            enemy,
            occupied & !friend & !enemy,
        ];
        // Each set of what may stand is a smaller set and its lowest bit.
        let mut passing = [0u64; 16];
        for standing in 1..16 {
            passing[standing] =
                passing[standing & (standing - 1)] | by_bit[standing.trailing_zeros() as usize];
        }
        Occupancy { occupied, passing }
    }

    /// The squares where what stands passes `standing`.
    #[inline]
    fn passing(&self, standing: Standing) -> u64 {
        self.passing[standing as usize & 15]
    }
}

/// The board as one player moves on it, for working out where shapes go.
struct Board<'a> {
    view: &'a PlayerView,
    directions: usize,
}

/// Where the steps of a leap (or the opening of a template) end: the last square, or
/// [`NO_POS`] where a step leaves the board or a zone test fails, and the squares on
/// the way (the last included) that must hold what a test wants, with what.
struct Walk {
    end: Pos,
    tested: SmallVec<[(Pos, Standing); 2]>,
}

impl Board<'_> {
    fn link(&self, pos: Pos, dir: Dir) -> Pos {
        let at = pos as usize * self.directions + dir as usize;
        self.view.links.get(at).copied().unwrap_or(NO_POS)
    }

    fn in_zone(&self, zone: u16, pos: Pos) -> bool {
        let at = zone as usize * self.view.words + pos as usize / 64;
        self.view
            .zones
            .get(at)
            .is_some_and(|w| w >> (pos % 64) & 1 == 1)
    }

    /// What must stand on `pos` for `tests` to pass, and whether its zones do.
    fn standing(&self, tests: &[Test], pos: Pos) -> (Standing, bool) {
        tests
            .iter()
            .fold((ANYTHING, true), |(standing, zoned), test| match *test {
                Test::Empty => (standing & EMPTY, zoned),
                Test::Enemy => (standing & ENEMY, zoned),
                Test::NotFriend => (standing & !FRIEND, zoned),
                Test::InZone(zone) => (standing, zoned && self.in_zone(zone, pos)),
            })
    }

    /// Whether `tests` pass on `from`, which holds a friend (the moving piece).
    fn passes_on_origin(&self, tests: &[Test], from: Pos) -> bool {
        let (needs, zoned) = self.standing(tests, from);
        zoned && needs & FRIEND != 0
    }

    fn walk(&self, steps: &[LeapStep], from: Pos) -> Walk {
        let mut walk = Walk {
            end: from,
            tested: SmallVec::new(),
        };
        for step in steps {
            walk.end = self.link(walk.end, step.dir);
            if walk.end == NO_POS {
                break;
            }
            let (needs, zoned) = self.standing(&step.tests, walk.end);
            if !zoned {
                walk.end = NO_POS;
                break;
            }
            if needs != ANYTHING {
                walk.tested.push((walk.end, needs));
            }
        }
        walk
    }
}

impl BulkTargets {
    /// The targets of the shaped templates of `tables`, seen through each player's
    /// view; `None` for a board of more than 64 positions or a game without shapes.
    fn new(tables: &Tables) -> Option<BulkTargets> {
        let squares = tables.positions.len();
        let kinds = tables.pieces.len();
        if squares > 64
            || tables
                .pieces
                .iter()
                .all(|p| p.shapes.iter().all(Option::is_none))
        {
            return None;
        }
        let mut bulk = BulkTargets {
            kinds,
            squares,
            targets: Vec::with_capacity(tables.players.len() * kinds * squares),
            rays: Vec::new(),
            ray_squares: Vec::new(),
            lame_leaps: Vec::new(),
            guards: Vec::new(),
        };
        let directions = tables.directions.len();
        for player in 0..tables.players.len() as PlayerIx {
            let view = tables.player_view(player);
            let board = Board { view, directions };
            for piece in &tables.pieces {
                for from in 0..squares as Pos {
                    let targets = bulk.square_targets(&board, &piece.shapes, from);
                    bulk.targets.push(targets);
                }
            }
        }
        Some(bulk)
    }

    /// The targets of the templates of `shapes` from `from`.
    fn square_targets(
        &mut self,
        board: &Board<'_>,
        shapes: &[Option<Shape>],
        from: Pos,
    ) -> SquareTargets {
        let range = |len: usize| (len as u32, len as u32);
        let mut square = SquareTargets {
            all: match shapes.len() {
                n @ 0..=63 => (1 << n) - 1,
                _ => u64::MAX,
            },
            rays: range(self.rays.len()),
            lame_leaps: range(self.lame_leaps.len()),
            guards: range(self.guards.len()),
            ..SquareTargets::default()
        };
        // Every square some counted template may add a step to: a template that may
        // add to one of them too runs its code, as only the code tells two steps apart.
        let mut reached = 0u64;
        for (number, shape) in shapes.iter().enumerate().take(63) {
            let template = 1u64 << number;
            let origin = match shape {
                Some(Shape::Leap { origin, .. })
                | Some(Shape::Slide { origin, .. })
                | Some(Shape::Guarded { origin, .. }) => origin.as_slice(),
                None => &[],
            };
            let counted = match shape {
                None => false,
                // The square holds the moving piece, a friend: only zone tests pass,
                // where the square is in the zone.
                Some(_) if !board.passes_on_origin(origin, from) => true,
                Some(Shape::Leap {
                    steps, coded_in, ..
                }) => self.leap(board, steps, *coded_in, from, &mut square, &mut reached),
                Some(Shape::Slide { dir, then, .. }) => {
                    self.slide(board, *dir, then.as_deref(), from, &mut reached)
                }
                Some(Shape::Guarded { steps, .. }) => {
                    let walk = board.walk(steps, from);
                    match walk.tested.first() {
                        // The opening fails here whatever stands where: nothing to run.
                        _ if walk.end == NO_POS => true,
                        Some(&(_, 0)) => true,
                        Some(&(pos, needs)) => {
                            self.guards.push(Guard {
                                template,
                                square: 1 << pos,
                                needs,
                            });
                            false
                        }
                        None => false,
                    }
                }
            };
            if counted {
                square.counted |= template;
            }
        }
        square.rays.1 = self.rays.len() as u32;
        square.lame_leaps.1 = self.lame_leaps.len() as u32;
        square.guards.1 = self.guards.len() as u32;
        square
    }

    /// Notes the target of a [`Shape::Leap`] from `from`; whether it is counted.
    fn leap(
        &mut self,
        board: &Board<'_>,
        steps: &[LeapStep],
        coded_in: Option<u16>,
        from: Pos,
        square: &mut SquareTargets,
        reached: &mut u64,
    ) -> bool {
        let Walk { end, mut tested } = board.walk(steps, from);
        if end == NO_POS {
            return true;
        }
        let needs = match tested.last() {
            Some(&(pos, needs)) if pos == end => {
                tested.pop();
                needs
            }
            _ => ANYTHING,
        };
        let target = 1u64 << end;
        if end == from
            || tested.len() > 1
            || coded_in.is_some_and(|zone| board.in_zone(zone, end))
            || target & *reached != 0
        {
            return false;
        }
        if needs == 0 || tested.iter().any(|&(_, needs)| needs == 0) {
            return true;
        }
        match tested.first() {
            Some(&(past, past_needs)) => self.lame_leaps.push(LameLeap {
                past: 1 << past,
                past_needs,
                target,
                needs,
            }),
            None => match LEAP_CLASSES.iter().position(|&c| c == needs) {
                Some(class) => square.leaps[class] |= target,
                None => return false,
            },
        }
        *reached |= target;
        true
    }

    /// Notes the ray of a [`Shape::Slide`] from `from`; whether it is counted.
    fn slide(
        &mut self,
        board: &Board<'_>,
        dir: Dir,
        then: Option<&[Test]>,
        from: Pos,
        reached: &mut u64,
    ) -> bool {
        let start = self.ray_squares.len();
        let mut mask = 0u64;
        let mut pos = board.link(from, dir);
        while pos != NO_POS {
            // Round a cycle, back to its start: the code decides.
            if pos == from || mask >> pos & 1 == 1 {
                mask = u64::MAX;
                break;
            }
            mask |= 1 << pos;
            self.ray_squares.push(pos);
            pos = board.link(pos, dir);
        }
        let len = self.ray_squares.len() - start;
        if len > MAX_LOOP as usize || mask & *reached != 0 {
            self.ray_squares.truncate(start);
            return false;
        }
        let (end, end_zones) = match then {
            None => (0, 0),
            Some(tests) => {
                let zones = (self.ray_squares[start..].iter())
                    .filter(|&&p| board.standing(tests, p).1)
                    .fold(0u64, |bits, &p| bits | 1 << p);
                (board.standing(tests, from).0 & !EMPTY, zones)
            }
        };
        self.rays.push(Ray {
            squares: mask,
            start: start as u32,
            len: len as u32,
            end,
            end_zones,
        });
        *reached |= mask;
        true
    }

    /// The squares the counted templates of a `kind` of `player`'s on `from` add steps
    /// to in a position seen as `occupancy`, how many loop iterations their code would
    /// spend, and the templates whose code need not run (counted, or skipped by their
    /// guards), or `u64::MAX` when none does.
    #[inline]
    pub(crate) fn targets(
        &self,
        player: PlayerIx,
        kind: Kind,
        from: Pos,
        occupancy: &Occupancy,
    ) -> Option<(u64, u32, u64)> {
        let at = (player as usize * self.kinds + kind as usize) * self.squares + from as usize;
        let square = self.targets.get(at)?;
        let mut not_run = square.counted;
        for guard in &self.guards[square.guards.0 as usize..square.guards.1 as usize] {
            if guard.square & occupancy.passing(guard.needs) == 0 {
                not_run |= guard.template;
            }
        }
        if not_run == 0 {
            return None;
        }
        let mut targets = 0;
        for (class, &leaps) in square.leaps.iter().enumerate() {
            if leaps != 0 {
                targets |= leaps & occupancy.passing(LEAP_CLASSES[class]);
            }
        }
        for leap in &self.lame_leaps[square.lame_leaps.0 as usize..square.lame_leaps.1 as usize] {
            if leap.past & occupancy.passing(leap.past_needs) != 0 {
                targets |= leap.target & occupancy.passing(leap.needs);
            }
        }
        let mut slid = 0;
        for ray in &self.rays[square.rays.0 as usize..square.rays.1 as usize] {
            let blockers = ray.squares & occupancy.occupied;
            if blockers == 0 {
                targets |= ray.squares;
                slid += ray.len;
                continue;
            }
            let squares = &self.ray_squares[ray.start as usize..(ray.start + ray.len) as usize];
            for &pos in squares {
                let bit = 1u64 << pos;
                if blockers & bit == 0 {
                    targets |= bit;
                    slid += 1;
                    continue;
                }
                targets |= bit & ray.end_zones & occupancy.passing(ray.end);
                break;
            }
        }
        let not_run = match not_run == square.all {
            true => u64::MAX,
            false => not_run,
        };
        Some((targets, slid, not_run))
    }
}

impl Tables {
    /// Where the shaped templates of each piece type may add steps, for counting them
    /// in bulk; none on a larger board, or without shapes. Worked out on the first count
    /// that asks.
    #[inline]
    pub(crate) fn bulk_targets(&self) -> Option<&BulkTargets> {
        (self.derived.bulk)
            .get_or_init(|| BulkTargets::new(self))
            .as_ref()
    }
}
