//! Where each piece's moves can take effect, so that the attack test (is a royal piece
//! capturable?) runs only the pieces that could reach it.

use smallvec::SmallVec;

use crate::{Kind, PlayerIx, Pos};

/// Per moving player, piece type and square: the squares a move of that piece could
/// remove a piece from (capture, create, place, or move onto), over-approximated from
/// its templates with every condition taken both ways. A type whose templates continue
/// with partial moves, or jump to the last move's squares, is unbounded: it may hit
/// anything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    kinds: usize,
    positions: usize,
    words: usize,
    /// `bounded[player * kinds + kind]`.
    bounded: Vec<bool>,
    /// Bitset over squares, `words` long, at `((player * kinds + kind) * positions + from)`.
    bits: Vec<u64>,
}

impl Reach {
    /// `bits` holds one bitset of `positions.div_ceil(64)` words per player, kind and
    /// square, in that order. Inconsistent sizes make every piece unbounded.
    pub fn new(
        players: usize,
        kinds: usize,
        positions: usize,
        bounded: Vec<bool>,
        bits: Vec<u64>,
    ) -> Reach {
        let words = positions.div_ceil(64);
        let consistent =
            bounded.len() == players * kinds && bits.len() == players * kinds * positions * words;
        Reach {
            kinds,
            positions,
            words,
            bounded: if consistent { bounded } else { Vec::new() },
            bits: if consistent { bits } else { Vec::new() },
        }
    }

    /// Whether a move of a `kind` piece of `player` standing on `from` could remove a
    /// piece from one of `targets`.
    #[inline]
    pub fn may_hit(&self, player: PlayerIx, kind: Kind, from: Pos, targets: &[Pos]) -> bool {
        let slot = player as usize * self.kinds + kind as usize;
        if !self.bounded.get(slot).copied().unwrap_or(false) {
            return true;
        }
        let start = (slot * self.positions + from as usize) * self.words;
        let Some(set) = self.bits.get(start..start + self.words) else {
            return true;
        };
        targets.iter().any(|&t| {
            set.get(t as usize / 64)
                .is_some_and(|w| w >> (t % 64) & 1 == 1)
        })
    }

    /// [`Reach::may_hit`] for one player and fixed targets, asked of many pieces: the
    /// targets' words and bits are worked out once.
    pub fn toward(&self, player: PlayerIx, targets: &[Pos]) -> ReachToward<'_> {
        ReachToward {
            reach: self,
            first_slot: player as usize * self.kinds,
            marks: targets
                .iter()
                .map(|&t| (t as usize / 64, 1 << (t % 64)))
                .collect(),
        }
    }

    /// The raw tables, in the order [`Reach::new`] takes them (for code generation).
    pub fn parts(&self) -> (&[bool], &[u64]) {
        (&self.bounded, &self.bits)
    }
}

/// [`Reach::toward`]: whether a piece could hit one of the targets.
pub struct ReachToward<'a> {
    reach: &'a Reach,
    first_slot: usize,
    /// Per target: its word in a reach bitset, and its bit there.
    marks: SmallVec<[(usize, u64); 4]>,
}

impl ReachToward<'_> {
    /// Whether a move of a `kind` piece standing on `from` could remove a piece from
    /// one of the targets.
    #[inline]
    pub fn may_hit(&self, kind: Kind, from: Pos) -> bool {
        let reach = self.reach;
        let slot = self.first_slot + kind as usize;
        if !reach.bounded.get(slot).copied().unwrap_or(false) {
            return true;
        }
        let start = (slot * reach.positions + from as usize) * reach.words;
        let Some(set) = reach.bits.get(start..start + reach.words) else {
            return true;
        };
        self.marks
            .iter()
            .any(|&(word, bit)| set.get(word).is_some_and(|w| w & bit != 0))
    }
}
