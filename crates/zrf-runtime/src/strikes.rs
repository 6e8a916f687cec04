//! Legality: whether an attacker's pieces take a royal piece after a turn that moves
//! one piece, read off the bulk targets (see [`crate::bulk`]) instead of their code
//! run on the position after: the counted leaps, leaps past a square, slides and hops,
//! walked for the target square alone on the occupancy after the step, and the rays of
//! strikes ([`crate::Shape::Strike`]), which the targets keep for this test alone. The
//! royal guard's test after (`crate::guard`) asks; debug builds check every answer
//! against the templates' code run on the position after.

use smallvec::SmallVec;

use crate::bulk::standing;
use crate::shape::{Bulk, BulkTargets, SquareSet, SquareTargets, Standing, LEAP_CLASSES};
use crate::state::State;
use crate::tables::Tables;
use crate::{Kind, PlayerIx, Pos};

/// What the attacker's pieces that may hit a royal piece after a turn that moves one
/// piece do there, as the bulk targets tell ([`Tables::strikes_after_one_piece_moving`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Strikes {
    /// One of them takes a royal piece.
    Struck,
    /// None takes one by what the targets hold. The pieces on these squares (bit
    /// `p % 64` of word `p / 64` for square `p`) have other templates that may: their
    /// code must run on the position after.
    Unread([u64; 4]),
}

impl<B: SquareSet> BulkTargets<B> {
    /// Of the `attacker`'s pieces on `threats` (as [`Strikes::Unread`] holds squares),
    /// in `state` after a piece of another player's moves (`moving`, as
    /// [`crate::watched::one_piece_moving`] gives it): whether one of them adds a step
    /// on one of `targets` by a counted template or a strike, so takes what stands
    /// there; where none does, the pieces with other templates that may hit a target,
    /// whose code must run on the position after (all of `threats` where the targets
    /// cannot tell). The invariant: those templates add a step on a square exactly
    /// where [`BulkTargets::targets`] (or the code, for strikes) would, and their step
    /// onto a target, a plain `add` whose piece keeps its type, takes the royal piece
    /// there, leaving fewer of the protected types (`removes_protected`).
    fn strikes_after_one_piece_moving(
        &self,
        tables: &Tables,
        state: &State,
        attacker: PlayerIx,
        targets: &[Pos],
        threats: [u64; 4],
        (from, to, captured): (Pos, Pos, Option<Pos>),
    ) -> Strikes {
        let cannot_tell = Strikes::Unread(threats);
        let Some(reach) = &tables.reach else {
            return cannot_tell;
        };
        let Some(moved) = state.at(from) else {
            return cannot_tell;
        };
        let within = |pos: &Pos| *pos < B::WIDTH;
        if moved.owner == attacker || !([from, to].iter().chain(&captured)).all(within) {
            return cannot_tell;
        }
        let after = |pos: Pos| match pos {
            _ if pos == to => Some(moved),
            _ if pos == from || Some(pos) == captured => None,
            _ => state.at(pos),
        };
        let active = tables.active_players();
        // Each target as a set of one, what stands there, and its type: another
        // player's piece.
        let mut aims: SmallVec<[(B, Standing, Kind); 4]> = SmallVec::new();
        for &target in targets {
            match after(target) {
                Some(piece) if target < B::WIDTH && piece.owner != attacker => {
                    aims.push((
                        B::bit(target),
                        standing(&active, attacker, Some(piece)),
                        piece.kind,
                    ));
                }
                _ => return cannot_tell,
            }
        }
        let mut occupied = B::default();
        for player in 0..tables.players.len() as PlayerIx {
            occupied |= B::from_words(state.own_words(player));
        }
        let emptied = B::bit(from) | captured.map_or(B::default(), B::bit);
        let occupied = (occupied & !emptied) | B::bit(to);
        // What stands on a square after the step, as the attacker sees it.
        let standing_after = |pos: Pos| standing(&active, attacker, after(pos));
        let mut unread = [0; 4];
        for (word, &bits) in threats.iter().enumerate() {
            let mut rest = bits;
            while rest != 0 {
                let bit = rest & rest.wrapping_neg();
                rest ^= bit;
                let pos = (word * 64) as Pos + bit.trailing_zeros();
                // The step leaves the threats' squares as they were. Pieces beyond the
                // set's squares have no targets: their code runs.
                let square = (state.at(pos))
                    .filter(|_| pos < B::WIDTH)
                    .and_then(|piece| {
                        let square = self.targets.get(self.entry(attacker, piece.kind, pos))?;
                        Some((piece.kind, square))
                    });
                let Some((kind, square)) = square else {
                    unread[word] |= bit;
                    continue;
                };
                let code = square.all & !(square.counted | square.struck);
                if code != 0 && reach.templates_hitting(attacker, kind, pos, targets) & code != 0 {
                    unread[word] |= bit;
                    continue;
                }
                if (aims.iter()).any(|&aim| self.strikes(square, aim, occupied, standing_after)) {
                    return Strikes::Struck;
                }
            }
        }
        Strikes::Unread(unread)
    }

    /// Whether the counted templates or strikes of `square` add a step on a target
    /// (`bit`, where what stands passes `on_target`, a piece of type `kind`), in a
    /// position where `occupied` are the occupied squares and `standing` tells what
    /// stands on a square: the walk of [`BulkTargets::targets`] for one square.
    fn strikes(
        &self,
        square: &SquareTargets<B>,
        (bit, on_target, kind): (B, Standing, Kind),
        occupied: B,
        standing: impl Fn(Pos) -> Standing,
    ) -> bool {
        let mut classes = square.leap_classes;
        while classes != 0 {
            let class = classes.trailing_zeros() as usize;
            if !(square.leaps[class] & bit).is_empty() && LEAP_CLASSES[class] & on_target != 0 {
                return true;
            }
            classes &= classes - 1;
        }
        for leap in &self.lame_leaps[square.lame_leaps.0 as usize..square.lame_leaps.1 as usize] {
            if !(leap.target & bit).is_empty()
                && leap.needs & on_target != 0
                && leap.past_needs & standing(leap.past.lowest()) != 0
            {
                return true;
            }
        }
        let rays = self.rays[square.rays.0 as usize..square.rays.1 as usize].iter();
        let strikes = &self.strikes[square.strikes.0 as usize..square.strikes.1 as usize];
        let strikes = (strikes.iter()).filter(|(_, piece)| piece.is_none_or(|p| p == kind));
        for ray in rays.chain(strikes.map(|(ray, _)| ray)) {
            if (ray.squares & bit).is_empty() {
                continue;
            }
            let squares = &self.ray_bits[ray.start as usize..(ray.start + ray.len) as usize];
            let mut blockers = (squares.iter()).filter(|&&s| !(s & occupied).is_empty());
            // Where the ray adds on the target: its first piece, or the next past it.
            let (end, zones) = match blockers.next() {
                Some(&first) if first == bit => (ray.end, ray.end_zones),
                Some(_) if ray.hop != 0 && blockers.next() == Some(&bit) => {
                    (ray.hop, ray.hop_zones)
                }
                _ => continue,
            };
            if end & on_target != 0 && !(bit & zones).is_empty() {
                return true;
            }
        }
        false
    }
}

impl Tables {
    /// [`BulkTargets::strikes_after_one_piece_moving`] on the game's bulk targets;
    /// without them, the code of every threat runs.
    pub(crate) fn strikes_after_one_piece_moving(
        &self,
        state: &State,
        attacker: PlayerIx,
        targets: &[Pos],
        threats: [u64; 4],
        moving: (Pos, Pos, Option<Pos>),
    ) -> Strikes {
        match self.bulk_targets() {
            Some(Bulk::OneWord(bulk)) => {
                bulk.strikes_after_one_piece_moving(self, state, attacker, targets, threats, moving)
            }
            Some(Bulk::TwoWords(bulk)) => {
                bulk.strikes_after_one_piece_moving(self, state, attacker, targets, threats, moving)
            }
            Some(Bulk::FourWords(bulk)) => {
                bulk.strikes_after_one_piece_moving(self, state, attacker, targets, threats, moving)
            }
            None => Strikes::Unread(threats),
        }
    }
}
