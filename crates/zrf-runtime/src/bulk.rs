//! The turns of shaped templates (see [`crate::shape`]) counted in bulk from
//! precomputed target sets instead of run step by step, on the first 64, 128 or 256
//! positions of a board ([`SquareSet`]; a template from one of them that may go beyond
//! runs its code, as do pieces on the others). A perft's last ply
//! (`Steps::count_plain`) counts a piece's shaped turns as the popcount of the squares
//! they reach that the attack test before decides, as each of them would be counted one
//! by one anyway (see `BulkCount`); the others are added one by one, and its other
//! templates run their code unless their guard fails. The shaped templates of one move
//! type are counted (never the first of `move-priorities`: once a step of that type
//! comes, counting in bulk stops).
//!
//! Pieces of a type the player starts with more of than it has leaps are first counted
//! together where every template of theirs is a leap or guarded, no guard passes and
//! the screen decides every turn: their bitset shifted by each leap's offsets
//! ([`crate::shape::KindTargets`]), a few operations for all of a player's men or
//! pawns instead of a pass per piece.
//!
//! The invariant: for every piece, the turns counted in bulk plus those added one by
//! one are exactly the steps its shaped templates' code would add, with the same loop
//! work. Debug builds check every count against the length of the general path's list
//! ([`crate::Engine::legal_move_count`]), and the corpus playouts check it on every
//! position of every game (`count-error`).
//!
//! The royal guard's test after a turn that moves one piece reads the same targets, and
//! the rays of strikes ([`Shape::Strike`], kept for it alone): see `crate::strikes`.
//! Move listing reads the guards, and the templates counted where they never add, to
//! tell where a chain of partial steps ends: see `crate::chains`.

use std::sync::atomic::{AtomicU64, Ordering};

use smallvec::SmallVec;

use crate::layout::KnownSizes;
use crate::run::{MAX_LIST_MOVES, MAX_LOOP};
use crate::shape::{
    shifted, Bulk, BulkTargets, Guard, GuardedJump, KindGuard, KindLeap, KindTargets, LameLeap,
    LeapStep, Ray, Shape, SquareSet, SquareTargets, Standing, TemplatesByType, Test, Words,
    ANYTHING, EMPTY, ENEMY, FRIEND, LEAP_CLASSES, NEUTRAL,
};
use crate::state::State;
use crate::tables::{is_active_in, PlayerView, Setup, Tables, NO_POS};
use crate::{Dir, Kind, MoveType, Piece, PlayerIx, Pos};

/// The squares of one position by what stands there, as the mover sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Occupancy<B> {
    occupied: B,
    /// For each [`Standing`], the squares where what stands passes it.
    passing: [B; 16],
}

impl<B: SquareSet> Occupancy<B> {
    /// The squares of `state` (its first [`SquareSet::WIDTH`] positions) as `mover`
    /// sees them, its bitsets read in the sizes `S` knows.
    #[inline(always)]
    pub(crate) fn of<S: KnownSizes + ?Sized>(
        tables: &Tables,
        state: &State,
        mover: PlayerIx,
    ) -> Occupancy<B> {
        let active = tables.active_players();
        let (mut occupied, mut friend, mut enemy) = (B::default(), B::default(), B::default());
        for player in 0..tables.players.len() as PlayerIx {
            let word = B::from_words(state.own_words_in::<S>(player));
            occupied |= word;
            if player == mover {
                friend = word;
            } else if is_active_in(&active, player) {
                enemy |= word;
            }
        }
        let width = tables.positions.len().clamp(1, B::WIDTH as usize) as u32;
        let board = B::ALL >> (B::WIDTH - width);
        Occupancy::sorted([
            board & !occupied,
            friend,
            enemy,
            occupied & !friend & !enemy,
        ])
    }

    /// The occupancy whose squares that are empty, hold a friend, an enemy or a neutral
    /// piece are `by_bit`, in that order (the bits of [`Standing`]).
    #[inline(always)]
    fn sorted(by_bit: [B; 4]) -> Occupancy<B> {
        // Each set of what may stand is a smaller set and its lowest bit.
        let mut passing = [B::default(); 16];
        for standing in 1..16 {
            passing[standing] =
                passing[standing & (standing - 1)] | by_bit[standing.trailing_zeros() as usize];
        }
        let occupied = by_bit[1] | by_bit[2] | by_bit[3];
        Occupancy { occupied, passing }
    }

    /// This occupancy after the mover's piece on `from` jumped to `to`, taking the pieces
    /// on `captured` off (the squares all on the board): that of the position after,
    /// without sorting every square again.
    #[inline]
    pub(crate) fn after_jumping(&self, from: B, to: B, captured: B) -> Occupancy<B> {
        let changed = from | to | captured;
        let [empty, friend, enemy, neutral] =
            [EMPTY, FRIEND, ENEMY, NEUTRAL].map(|standing| self.passing(standing) & !changed);
        Occupancy::sorted([
            empty | ((from | captured) & !to),
            friend | to,
            enemy,
            neutral,
        ])
    }

    /// The squares where what stands passes `standing`.
    #[inline]
    pub(crate) fn passing(&self, standing: Standing) -> B {
        self.passing[standing as usize & 15]
    }
}

/// What `piece` (none: an empty square) is to `viewer`, as [`Occupancy`] sorts squares,
/// where `active` are the players who take turns ([`Tables::active_players`]).
#[inline]
pub(crate) fn standing(active: &[u64; 4], viewer: PlayerIx, piece: Option<Piece>) -> Standing {
    match piece {
        None => EMPTY,
        Some(piece) if piece.owner == viewer => FRIEND,
        Some(piece) if is_active_in(active, piece.owner) => ENEMY,
        Some(_) => NEUTRAL,
    }
}

/// The board as one player moves on it, for working out where shapes go.
struct Board<'a> {
    view: &'a PlayerView,
    directions: usize,
}

/// Where the steps of a leap (or the opening of a template) end: the last square, or
/// [`NO_POS`] where a step leaves the board or a zone test fails, the squares on the
/// way (the last included) that must hold what a test wants, with what, and whether a
/// step reached a square beyond those whose bits the targets have.
struct Walk {
    end: Pos,
    tested: SmallVec<[(Pos, Standing); 2]>,
    beyond: bool,
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
                Test::NotInZone(zone) => (standing, zoned && !self.in_zone(zone, pos)),
            })
    }

    /// The step a [`Shape::Jump`] listed under `move_type` adds from `from` where its
    /// tests pass, if it adds it without running its code there: not where its last
    /// square is in the zone where the code runs, nor where a step leaves the board or
    /// the squares moved from, to and captured are not three.
    fn jump(&self, shape: &Shape, move_type: Option<MoveType>, from: Pos) -> Option<GuardedJump> {
        let Shape::Jump {
            steps,
            captured,
            continue_with,
            coded_in,
            ..
        } = shape
        else {
            return None;
        };
        let (mut to, mut taken) = (from, NO_POS);
        for (number, step) in steps.iter().enumerate() {
            to = self.link(to, step.dir);
            if to == NO_POS {
                return None;
            }
            if number == *captured as usize {
                taken = to;
            }
        }
        let distinct = taken != NO_POS && from != to && taken != from && taken != to;
        let coded = coded_in.is_some_and(|zone| self.in_zone(zone, to));
        (distinct && !coded).then_some(GuardedJump {
            to,
            captured: taken,
            continue_with: *continue_with,
            move_type,
        })
    }

    /// Whether `tests` pass on `from`, which holds a friend (the moving piece).
    fn passes_on_origin(&self, tests: &[Test], from: Pos) -> bool {
        let (needs, zoned) = self.standing(tests, from);
        zoned && needs & FRIEND != 0
    }

    fn walk(&self, steps: &[LeapStep], from: Pos, width: Pos) -> Walk {
        let mut walk = Walk {
            end: from,
            tested: SmallVec::new(),
            beyond: false,
        };
        for step in steps {
            walk.end = self.link(walk.end, step.dir);
            if walk.end == NO_POS {
                break;
            }
            walk.beyond |= walk.end >= width;
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

impl Bulk {
    /// The targets of the shaped templates of `tables`, in the narrowest set that holds
    /// the squares pieces start on; `None` for a game without shapes, or one where
    /// pieces start beyond the first 256 positions. Pieces counted in bulk on some
    /// squares and run their code on others cost more than running the code everywhere
    /// (measured on shogi and xiangqi counted on their first 64 squares: 3 to 8% slower
    /// perft). A board of a few more squares that start empty (checkers with a dummy
    /// square) is counted on the narrower set.
    fn new(tables: &Tables) -> Option<Bulk> {
        if (tables.pieces.iter()).all(|p| p.shapes.iter().all(Option::is_none)) {
            return None;
        }
        let start_within = |width: u32| {
            let within = |setup: &Setup| setup.positions.iter().all(|&pos| pos < width);
            tables.setup.iter().all(within)
        };
        match () {
            _ if start_within(u64::WIDTH) => Some(Bulk::OneWord(BulkTargets::new(tables))),
            _ if start_within(u128::WIDTH) => Some(Bulk::TwoWords(BulkTargets::new(tables))),
            _ if start_within(Words::<4>::WIDTH) => Some(Bulk::FourWords(BulkTargets::new(tables))),
            _ => None,
        }
    }
}

impl<B: SquareSet> BulkTargets<B> {
    /// The targets of the shaped templates of `tables` from the first
    /// [`SquareSet::WIDTH`] positions, seen through each player's view.
    fn new(tables: &Tables) -> BulkTargets<B> {
        let layout = tables.layout();
        // Counted turns are tallied under one move type, never the first of the
        // priorities: a step of that one drops the others (`Keep::Narrowing`).
        let narrowing = tables.priorities.first().copied();
        let counted_type = (tables.pieces.iter())
            .flat_map(|p| p.shapes.iter().zip(&p.template_types))
            .find_map(|(shape, &move_type)| match shape {
                Some(Shape::Leap { .. } | Shape::Slide { .. } | Shape::Hop { .. })
                    if narrowing.is_none() || move_type != narrowing =>
                {
                    Some(move_type)
                }
                _ => None,
            })
            .flatten();
        static GAMES: AtomicU64 = AtomicU64::new(1);
        let mut bulk = BulkTargets::<B> {
            id: GAMES.fetch_add(1, Ordering::Relaxed),
            counted_type,
            layout,
            targets: Vec::with_capacity(layout.squares()),
            rays: Vec::new(),
            strikes: Vec::new(),
            ray_bits: Vec::new(),
            lame_leaps: Vec::new(),
            guards: Vec::new(),
            guarded_jumps: Vec::new(),
            templates_by_type: templates_by_type(tables),
            kind_targets: Vec::with_capacity(tables.players.len()),
        };
        let directions = tables.directions.len();
        for player in 0..tables.players.len() as PlayerIx {
            let view = tables.player_view(player);
            let board = Board { view, directions };
            let mut together = Vec::new();
            for (kind, piece) in tables.pieces.iter().enumerate() {
                let mut targets = KindTargets::<B>::default();
                for from in 0..layout.positions as Pos {
                    let (shapes, types) = (&piece.shapes, &piece.template_types);
                    let square = match from < B::WIDTH {
                        true => bulk.square_targets(&board, shapes, types, from, &mut targets),
                        // Nothing counted: the code runs.
                        false => SquareTargets::default(),
                    };
                    bulk.targets.push(square);
                }
                // Counting a type's pieces together costs a few operations per leap,
                // however many pieces there are; one by one, a lookup per piece. So it
                // pays where the player starts with more pieces of the type than it
                // has leaps: eight pawns of three or four leaps, not two knights of
                // eight (corpus chess.zrf perft 4: 3.8% fewer instructions with the
                // knights counted one by one). On a wider set, shifting a bitset by a
                // variable amount costs about a word's work per word, so each leap
                // counts once per word: shogi's nine pawns of one leap are counted
                // together on four words (corpus shogi.zrf perft 4: 11% fewer
                // instructions), xiangqi's five soldiers of three leaps one by one on
                // two (xiangqi perft 4: +5.6% instructions counted together).
                let starting = (tables.setup.iter())
                    .filter(|s| (s.player, s.kind as usize) == (player, kind))
                    .map(|s| s.positions.len())
                    .sum::<usize>();
                let words = B::WIDTH as usize / 64;
                let batched = starting > 1 && starting > targets.leaps.len() * words;
                if batched && !targets.simple.is_empty() && !targets.leaps.is_empty() {
                    together.push((kind as Kind, targets));
                }
            }
            bulk.kind_targets.push(together);
        }
        if bulk.guarded_jumps.iter().all(Option::is_none) {
            bulk.guarded_jumps = Vec::new();
        }
        bulk
    }

    /// The targets of the templates of `shapes`, listed under move `types`, from `from`;
    /// its leaps and guards also go to `kind`, and `from` is one of its simple squares
    /// where every template is a counted leap or guarded. A template not of the counted
    /// type is counted only where it never adds (`crate::chains` reads this).
    fn square_targets(
        &mut self,
        board: &Board<'_>,
        shapes: &[Option<Shape>],
        types: &[Option<MoveType>],
        from: Pos,
        kind: &mut KindTargets<B>,
    ) -> SquareTargets<B> {
        let range = |len: usize| (len as u32, len as u32);
        let mut square = SquareTargets {
            // A type none of whose templates has a shape lists no shapes: every bit.
            all: match shapes.len() {
                n @ 1..=63 => (1 << n) - 1,
                _ => u64::MAX,
            },
            rays: range(self.rays.len()),
            strikes: range(self.strikes.len()),
            lame_leaps: range(self.lame_leaps.len()),
            guards: range(self.guards.len()),
            ..SquareTargets::default()
        };
        // Every square some counted template may add a step to: a template that may
        // add to one of them too runs its code, as only the code tells two steps apart.
        let mut reached = B::default();
        let mut guarded = 0u64;
        for (number, shape) in shapes.iter().enumerate().take(63) {
            let template = 1u64 << number;
            let origin = match shape {
                Some(Shape::Leap { origin, .. })
                | Some(Shape::Slide { origin, .. })
                | Some(Shape::Hop { origin, .. })
                | Some(Shape::Strike { origin, .. })
                | Some(Shape::Guarded { origin, .. })
                | Some(Shape::Jump { origin, .. }) => origin.as_slice(),
                None => &[],
            };
            let countable = types.get(number).copied().flatten() == self.counted_type;
            let counted = match shape {
                None => false,
                // The square holds the moving piece, a friend: only zone tests pass,
                // where the square is in the zone.
                Some(_) if !board.passes_on_origin(origin, from) => true,
                Some(Shape::Leap {
                    steps, coded_in, ..
                }) if countable => {
                    let leap = self.leap(board, steps, *coded_in, from, &mut square, &mut reached);
                    if let Some(Some(leap)) = leap {
                        kind.add_leap(leap);
                    }
                    leap.is_some()
                }
                Some(Shape::Slide { dir, then, .. }) if countable => {
                    let ends = [then.as_deref(), None];
                    self.slide(board, *dir, ends, from, &mut reached)
                }
                Some(Shape::Hop { dir, tests, .. }) if countable => {
                    let ends = [None, Some(tests.as_slice())];
                    self.slide(board, *dir, ends, from, &mut reached)
                }
                Some(
                    shape @ (Shape::Leap { steps, .. }
                    | Shape::Guarded { steps, .. }
                    | Shape::Jump { steps, .. }),
                ) => {
                    let move_type = types.get(number).copied().flatten();
                    let jump = board.jump(shape, move_type, from);
                    match self.guard(board, steps, from, template, jump) {
                        Some(None) => true,
                        Some(Some(guard)) => {
                            kind.add_guard(guard);
                            guarded |= template;
                            false
                        }
                        None => false,
                    }
                }
                Some(Shape::Strike {
                    dir, tests, piece, ..
                }) => {
                    let ends = [Some(tests.as_slice()), None];
                    match self.ray(board, *dir, ends, from, B::default()) {
                        // Its first step leaves the board: it adds nothing.
                        Some(ray) if ray.squares.is_empty() => true,
                        Some(ray) => {
                            self.strikes.push((ray, *piece));
                            square.struck |= template;
                            false
                        }
                        None => false,
                    }
                }
                Some(Shape::Slide { .. } | Shape::Hop { .. }) => false,
            };
            if counted {
                square.counted |= template;
            }
        }
        square.rays.1 = self.rays.len() as u32;
        square.strikes.1 = self.strikes.len() as u32;
        square.lame_leaps.1 = self.lame_leaps.len() as u32;
        square.guards.1 = self.guards.len() as u32;
        let ranges = |(start, end): (u32, u32)| start as usize..end as usize;
        let lame_leaps = self.lame_leaps[ranges(square.lame_leaps)].iter();
        let guards = self.guards[ranges(square.guards)].iter();
        square.reads = (square.leaps.iter().copied())
            .chain(lame_leaps.map(|leap| leap.past | leap.target))
            .chain(guards.map(|guard| guard.squares[0] | guard.squares[1]))
            .fold(B::default(), |reads, squares| reads | squares);
        square.leap_classes = (square.leaps.iter().enumerate())
            .filter(|(_, leaps)| !leaps.is_empty())
            .fold(0, |classes, (class, _)| classes | 1 << class);
        if square.counted | guarded == square.all && square.rays.0 == square.rays.1 {
            kind.simple |= B::bit(from);
        }
        square
    }

    /// Notes the guard of `template`, whose code opens with `steps`, from `from`:
    /// `Some(None)` where it never runs (its opening fails whatever stands where),
    /// `Some(guard)` with the guard noted, `None` where it always runs. The `jump` it
    /// adds (see [`Board::jump`]) is noted with the guard where the guard holds every
    /// test of the opening.
    fn guard(
        &mut self,
        board: &Board<'_>,
        steps: &[LeapStep],
        from: Pos,
        template: u64,
        jump: Option<GuardedJump>,
    ) -> Option<Option<KindGuard<B>>> {
        let walk = board.walk(steps, from, B::WIDTH);
        if walk.end == NO_POS || walk.tested.iter().any(|&(_, needs)| needs == 0) {
            return Some(None);
        }
        let (first, second) = match walk.tested[..] {
            _ if walk.beyond => return None,
            [] => return None,
            [only] => (only, only),
            [first, second, ..] => (first, second),
        };
        self.guards.push(Guard {
            template,
            squares: [B::bit(first.0), B::bit(second.0)],
            needs: [first.1, second.1],
        });
        let jump = jump.filter(|_| walk.tested.len() <= 2);
        self.guarded_jumps.push(jump);
        Some(Some(KindGuard {
            from: B::bit(from),
            offsets: [offset(from, first.0), offset(from, second.0)],
            needs: [first.1, second.1],
        }))
    }

    /// Notes the target of a [`Shape::Leap`] from `from`: `None` where it is not
    /// counted, `Some(None)` where it never adds, else the leap.
    fn leap(
        &mut self,
        board: &Board<'_>,
        steps: &[LeapStep],
        coded_in: Option<u16>,
        from: Pos,
        square: &mut SquareTargets<B>,
        reached: &mut B,
    ) -> Option<Option<KindLeap<B>>> {
        let Walk {
            end,
            mut tested,
            beyond,
        } = board.walk(steps, from, B::WIDTH);
        if end == NO_POS {
            return Some(None);
        }
        if beyond {
            return None;
        }
        let needs = match tested.last() {
            Some(&(pos, needs)) if pos == end => {
                tested.pop();
                needs
            }
            _ => ANYTHING,
        };
        let target = B::bit(end);
        if end == from
            || tested.len() > 1
            || coded_in.is_some_and(|zone| board.in_zone(zone, end))
            || !(target & *reached).is_empty()
        {
            return None;
        }
        if needs == 0 || tested.iter().any(|&(_, needs)| needs == 0) {
            return Some(None);
        }
        let leap = match tested.first() {
            Some(&(past, past_needs)) => {
                self.lame_leaps.push(LameLeap {
                    past: B::bit(past),
                    past_needs,
                    target,
                    needs,
                });
                KindLeap {
                    from: B::bit(from),
                    first: offset(from, past),
                    past_needs,
                    then: offset(past, end),
                    needs,
                }
            }
            None => match LEAP_CLASSES.iter().position(|&c| c == needs) {
                Some(class) => {
                    square.leaps[class] |= target;
                    KindLeap {
                        from: B::bit(from),
                        first: offset(from, end),
                        past_needs: ANYTHING,
                        then: 0,
                        needs,
                    }
                }
                None => return None,
            },
        };
        *reached |= target;
        Some(Some(leap))
    }

    /// Notes the ray of a [`Shape::Slide`] or [`Shape::Hop`] from `from`, which adds
    /// a step on the first square that is not empty, or on the next one past it, where
    /// it passes the tests of `ends`; whether it is counted.
    fn slide(
        &mut self,
        board: &Board<'_>,
        dir: Dir,
        ends: [Option<&[Test]>; 2],
        from: Pos,
        reached: &mut B,
    ) -> bool {
        let Some(ray) = self.ray(board, dir, ends, from, *reached) else {
            return false;
        };
        self.rays.push(ray);
        *reached |= ray.squares;
        true
    }

    /// The ray along `dir` from `from`, its squares noted in [`BulkTargets::ray_bits`],
    /// where the last square that is not empty, or the next one past it, passes the
    /// tests of `ends`; `None` where the code must decide: round a cycle, beyond the
    /// set's squares, longer than a loop may run, or onto a square of `reached`.
    fn ray(
        &mut self,
        board: &Board<'_>,
        dir: Dir,
        ends: [Option<&[Test]>; 2],
        from: Pos,
        reached: B,
    ) -> Option<Ray<B>> {
        let mut squares: SmallVec<[Pos; 16]> = SmallVec::new();
        let mut mask = B::default();
        let mut pos = board.link(from, dir);
        while pos != NO_POS {
            // Round a cycle, back to its start, or beyond the set's squares: the code
            // decides.
            if pos == from || pos >= B::WIDTH || mask.has(pos) {
                return None;
            }
            mask |= B::bit(pos);
            squares.push(pos);
            pos = board.link(pos, dir);
        }
        if squares.len() > MAX_LOOP as usize || !(mask & reached).is_empty() {
            return None;
        }
        let [(end, end_zones), (hop, hop_zones)] = ends.map(|tests| match tests {
            None => (0, B::default()),
            Some(tests) => {
                let zones = (squares.iter())
                    .filter(|&&p| board.standing(tests, p).1)
                    .fold(B::default(), |bits, &p| bits | B::bit(p));
                (board.standing(tests, from).0 & !EMPTY, zones)
            }
        });
        let (start, len) = (self.ray_bits.len(), squares.len());
        self.ray_bits.extend(squares.into_iter().map(B::bit));
        Some(Ray {
            squares: mask,
            start: start as u32,
            len: len as u32,
            end,
            end_zones,
            hop,
            hop_zones,
        })
    }

    /// Where the entry of `player`'s piece of `kind` on `from` stands in
    /// [`BulkTargets::targets`].
    #[inline]
    pub(crate) fn entry(&self, player: PlayerIx, kind: Kind, from: Pos) -> usize {
        (self.layout).square(player as usize, kind as usize, from as usize)
    }

    /// Whether a count keeps the targets it works out for the next (`crate::kept`):
    /// where some piece slides or leaps past a square. Leaps alone are looked up as
    /// cheaply as a kept answer (English checkers perft 8: 4.4% more instructions
    /// with its men's targets kept).
    pub(crate) fn keeps(&self) -> bool {
        !self.rays.is_empty() || !self.lame_leaps.is_empty()
    }

    /// The squares [`BulkTargets::targets`] reads for a `kind` of `player`'s on `from`
    /// but for its slides' ([`SquareTargets::reads`]).
    pub(crate) fn reads(&self, player: PlayerIx, kind: Kind, from: Pos) -> B {
        let square = self.targets.get(self.entry(player, kind, from));
        square.map_or(B::default(), |square| square.reads)
    }

    /// The squares the counted templates of a `kind` of `player`'s on `from` add steps
    /// to in a position seen as `occupancy`, how many loop iterations their code would
    /// spend, the templates whose code need not run (counted, or skipped by their
    /// guards), or `u64::MAX` when none does, and the squares of its slides read (each
    /// up to the piece that stops it; beyond [`SquareTargets::reads`], nothing else is
    /// read).
    #[inline]
    pub(crate) fn targets(
        &self,
        player: PlayerIx,
        kind: Kind,
        from: Pos,
        occupancy: &Occupancy<B>,
    ) -> Option<(B, u32, u64, B)> {
        let square = self.targets.get(self.entry(player, kind, from))?;
        let mut not_run = square.counted;
        for guard in &self.guards[square.guards.0 as usize..square.guards.1 as usize] {
            let [first, second] = guard.squares;
            if (first & occupancy.passing(guard.needs[0])).is_empty()
                || (second & occupancy.passing(guard.needs[1])).is_empty()
            {
                not_run |= guard.template;
            }
        }
        if not_run == 0 {
            return None;
        }
        let mut targets = B::default();
        let mut classes = square.leap_classes;
        while classes != 0 {
            let class = classes.trailing_zeros() as usize;
            targets |= square.leaps[class] & occupancy.passing(LEAP_CLASSES[class]);
            classes &= classes - 1;
        }
        for leap in &self.lame_leaps[square.lame_leaps.0 as usize..square.lame_leaps.1 as usize] {
            if !(leap.past & occupancy.passing(leap.past_needs)).is_empty() {
                targets |= leap.target & occupancy.passing(leap.needs);
            }
        }
        let (mut slid, mut read) = (0, B::default());
        for ray in &self.rays[square.rays.0 as usize..square.rays.1 as usize] {
            let blockers = ray.squares & occupancy.occupied;
            if blockers.is_empty() {
                targets |= ray.squares;
                read |= ray.squares;
                slid += ray.len;
                continue;
            }
            let squares = &self.ray_bits[ray.start as usize..(ray.start + ray.len) as usize];
            let mut squares = squares.iter().copied();
            for bit in squares.by_ref() {
                read |= bit;
                if (blockers & bit).is_empty() {
                    targets |= bit;
                    slid += 1;
                    continue;
                }
                targets |= bit & ray.end_zones & occupancy.passing(ray.end);
                break;
            }
            if ray.hop == 0 {
                continue;
            }
            // Past the first piece, the empty squares are passed, not added to.
            for bit in squares {
                read |= bit;
                if (blockers & bit).is_empty() {
                    slid += 1;
                    continue;
                }
                targets |= bit & ray.hop_zones & occupancy.passing(ray.hop);
                break;
            }
        }
        let not_run = match not_run == square.all {
            true => u64::MAX,
            false => not_run,
        };
        Some((targets, slid, not_run, read))
    }
}

/// Per piece type of `tables`, its templates of each move type it lists (see
/// [`TemplatesByType`]).
fn templates_by_type(tables: &Tables) -> Vec<TemplatesByType> {
    let of_kind = |types: &[Option<MoveType>]| {
        let mut by_type = TemplatesByType::new();
        for (number, &move_type) in types.iter().enumerate() {
            let at = match by_type.iter().position(|&(listed, _)| listed == move_type) {
                Some(at) => at,
                None => {
                    by_type.push((move_type, Some(0)));
                    by_type.len() - 1
                }
            };
            let templates = &mut by_type[at].1;
            *templates = templates
                .filter(|_| number < 63)
                .map(|bits| bits | 1 << number);
        }
        by_type
    };
    (tables.pieces.iter())
        .map(|piece| of_kind(&piece.template_types))
        .collect()
}

/// The offset from square `from` to `to`, both in the set (of at most 256 squares).
fn offset(from: Pos, to: Pos) -> i16 {
    (to as i32 - from as i32) as i16
}

impl<B: SquareSet> KindLeap<B> {
    /// The last squares of this leap from `pieces` in a position seen as `occupancy`.
    #[inline(always)]
    fn targets(&self, pieces: B, occupancy: &Occupancy<B>) -> B {
        let past = shifted(pieces & self.from, self.first) & occupancy.passing(self.past_needs);
        shifted(past, self.then) & occupancy.passing(self.needs)
    }

    /// The squares this leap reaches `targets` from.
    #[inline(always)]
    fn origins(&self, targets: B) -> B {
        shifted(shifted(targets, -self.then), -self.first)
    }
}

impl<B: SquareSet> BulkTargets<B> {
    /// Whether some of `player`'s pieces may be counted together by type.
    #[inline]
    pub(crate) fn counts_together(&self, player: PlayerIx) -> bool {
        self.kind_targets
            .get(player as usize)
            .is_some_and(|kinds| !kinds.is_empty())
    }

    /// The turns of `player`'s pieces counted together by type ([`KindTargets`]) in
    /// `state`, seen as `occupancy`, and the squares of those pieces: the pieces on
    /// simple squares where no guard passes, and where the screen decides every turn
    /// (none of them or their targets on the `danger` squares). The other pieces are
    /// left to be counted one by one.
    #[inline(always)]
    pub(crate) fn count_by_kind<S: KnownSizes + ?Sized>(
        &self,
        state: &State,
        player: PlayerIx,
        occupancy: &Occupancy<B>,
        danger: B,
    ) -> (u32, B) {
        let (mut turns, mut origins) = (0, B::default());
        let kinds = self
            .kind_targets
            .get(player as usize)
            .map_or(&[][..], Vec::as_slice);
        for (kind, targets) in kinds {
            let own = state.kind_words_in::<S>(player, *kind);
            let mut pieces = targets.simple & !danger & B::from_words(own);
            for guard in &targets.guards {
                let [first, second] = guard.offsets;
                let passes = guard.from
                    & shifted(occupancy.passing(guard.needs[0]), -first)
                    & shifted(occupancy.passing(guard.needs[1]), -second);
                pieces &= !passes;
            }
            // One piece alone is counted as cheaply by itself.
            if pieces.without_lowest().is_empty() {
                continue;
            }
            // One pass counts every piece's leaps and finds the pieces with a target the
            // screen leaves undecided; those are then left out, their leaps' turns taken
            // off again. A leap moves distinct pieces to distinct squares, so the turns
            // of a set of pieces are the sum of those of its parts.
            let (mut kind_turns, mut undecided) = (0, B::default());
            if danger.is_empty() {
                for leap in &targets.leaps {
                    kind_turns += leap.targets(pieces, occupancy).count();
                }
            } else {
                for leap in &targets.leaps {
                    let reached = leap.targets(pieces, occupancy);
                    kind_turns += reached.count();
                    // The danger squares are few: most leaps reach none of them.
                    let endangered = reached & danger;
                    if !endangered.is_empty() {
                        undecided |= leap.origins(endangered);
                    }
                }
            }
            if !undecided.is_empty() {
                pieces &= !undecided;
                for leap in &targets.leaps {
                    kind_turns -= leap.targets(undecided, occupancy).count();
                }
            }
            debug_assert_eq!(
                kind_turns,
                (targets.leaps.iter())
                    .map(|leap| leap.targets(pieces, occupancy).count())
                    .sum::<u32>(),
                "the turns of {kind}'s pieces counted together, undecided ones taken off"
            );
            turns += kind_turns;
            origins |= pieces;
        }
        (turns, origins)
    }

    /// How many turns `player` has in `state`, where the bulk targets tell it before any
    /// template runs (see [`crate::Gen::count_before_runs`]):
    /// - where every piece of theirs is counted together by type
    ///   ([`BulkTargets::count_by_kind`], with no screen): then each of their templates
    ///   is a leap counted there or a guarded one whose guard fails, so those leaps are
    ///   every step they have;
    /// - else, under `move-priorities` whose `first` type is not the counted one, where
    ///   the other pieces' templates of that type add steps their guards tell, and some
    ///   do ([`BulkTargets::count_first_type_jumps`]): priorities then keep only those
    ///   (the pieces counted together add none of that type).
    ///
    /// `None` elsewhere, or where the turns might not fit in a list (the count together
    /// then counts nothing, [`crate::run::BulkCount::count_together`]).
    pub(crate) fn count_before_runs<S: KnownSizes + ?Sized>(
        &self,
        tables: &Tables,
        state: &State,
        player: PlayerIx,
        first: Option<MoveType>,
    ) -> Option<u32> {
        let first = first.filter(|&first| Some(first) != self.counted_type);
        let counts_together = self.counts_together(player);
        // Neither count applies (but to a player without pieces, whose none the list
        // counts as well): the squares need not be sorted.
        if !counts_together && first.is_none() {
            return None;
        }
        let occupancy = Occupancy::of::<S>(tables, state, player);
        let (turns, together) = match counts_together {
            true => self.count_by_kind::<S>(state, player, &occupancy, B::default()),
            false => (0, B::default()),
        };
        let together = together.words();
        let every_piece = (state.own_words_in::<S>(player).iter().enumerate())
            .all(|(word, &own)| own == together.get(word).copied().unwrap_or(0));
        let turns = match every_piece {
            true => turns,
            false => {
                let others = state.squares_of_except::<S>(player, together);
                self.count_first_type_jumps(tables, state, player, others, first?, &occupancy)?
            }
        };
        ((turns as usize + B::WIDTH as usize) < MAX_LIST_MOVES).then_some(turns)
    }
}

impl Tables {
    /// Where the shaped templates of each piece type may add steps, for counting them
    /// in bulk; none where pieces start beyond the first 256 squares, or without
    /// shapes. Worked out on the first count that asks.
    #[inline]
    pub(crate) fn bulk_targets(&self) -> Option<&Bulk> {
        (self.derived.bulk).get_or_init(|| Bulk::new(self)).as_ref()
    }
}
