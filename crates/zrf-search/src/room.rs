//! How much room a piece has: the squares its turns reach on the empty board that are
//! empty in a position, a line's farther squares only while the nearer ones are. A
//! mobility that needs no move generation, so that a learned evaluation can weigh it
//! at every leaf of a search and a fit can count it from a position's pieces alone.

use zrf_runtime::{Kind, PieceSquares, PlayerIx, Pos, Tables, NO_POS};

/// Per player, piece type and square: the squares a piece there reaches in one turn on
/// the empty board, nearest first, each with the index (in the same list) of the square
/// before it on its line, where it is reached by sliding.
#[derive(Clone, Debug)]
pub struct Room {
    layout: PieceSquares,
    reach: Vec<Box<[Target]>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Target {
    square: Pos,
    /// The entry that must be empty too (`u16::MAX`: a step or a leap).
    behind: u16,
}

const NONE_BEHIND: u16 = u16::MAX;

impl Room {
    /// The room table of a game of `tables`, from `arrivals(player, kind, square)`: the
    /// squares a lone piece reaches in one turn (none where it was not tried).
    pub fn new(tables: &Tables, arrivals: impl Fn(usize, usize, usize) -> Vec<Pos>) -> Room {
        let layout = tables.layout();
        let mut reach = vec![Box::default(); layout.squares()];
        for player in 0..layout.players {
            for kind in 0..layout.kinds {
                for from in 0..layout.positions {
                    let targets = arrivals(player, kind, from);
                    reach[layout.square(player, kind, from)] = lines(tables, from as Pos, &targets);
                }
            }
        }
        Room { layout, reach }
    }

    /// The room of `player`'s piece of `kind` on `pos`, where `is_empty` says which
    /// squares are empty.
    pub fn of(
        &self,
        player: PlayerIx,
        kind: Kind,
        pos: Pos,
        is_empty: impl Fn(Pos) -> bool,
    ) -> u32 {
        let entry = self
            .layout
            .square(player as usize, kind as usize, pos as usize);
        let Some(targets) = self.reach.get(entry) else {
            return 0;
        };
        // Nearest first: an entry's `behind` is already decided. Bit `i` of `open`: the
        // entry `i` is empty and counted.
        let mut open = [0u64; 4];
        let mut room = 0;
        for (i, target) in targets.iter().enumerate().take(256) {
            let behind = usize::from(target.behind);
            let clear = target.behind == NONE_BEHIND || open[behind / 64] >> (behind % 64) & 1 == 1;
            if clear && is_empty(target.square) {
                open[i / 64] |= 1 << (i % 64);
                room += 1;
            }
        }
        room
    }
}

/// `targets` (reached from `from`) nearest first, each with the target before it on the
/// line from `from` along one direction, where every square before it on that line is a
/// target too. One walk per direction, so that a rider on a large board costs its lines,
/// not its targets squared.
fn lines(tables: &Tables, from: Pos, targets: &[Pos]) -> Box<[Target]> {
    let directions = tables.directions.len();
    let link = |pos: Pos, dir: usize| tables.links[pos as usize * directions + dir];
    // Per target: (distance along its line, the square before it); a leap by default.
    let mut found: Vec<(usize, Pos, Pos)> = targets.iter().map(|&t| (1, t, NO_POS)).collect();
    let index: std::collections::HashMap<Pos, usize> =
        targets.iter().enumerate().map(|(i, &t)| (t, i)).collect();
    for dir in 0..directions {
        let (mut before, mut at, mut distance) = (NO_POS, link(from, dir), 1);
        while let Some(&i) = index.get(&at) {
            // The nearest line to a target is kept.
            if found[i].2 == NO_POS && distance > 1 || found[i].0 > distance {
                found[i] = (distance, at, before);
            }
            if distance >= targets.len() {
                break;
            }
            (before, at, distance) = (at, link(at, dir), distance + 1);
        }
    }
    found.sort_by_key(|&(distance, square, _)| (distance, square));
    let position: std::collections::HashMap<Pos, u16> = (found.iter().enumerate())
        .map(|(i, &(_, square, _))| (square, u16::try_from(i).unwrap_or(NONE_BEHIND)))
        .collect();
    found
        .iter()
        .map(|&(_, square, before)| Target {
            square,
            behind: match before {
                NO_POS => NONE_BEHIND,
                before => position.get(&before).copied().unwrap_or(NONE_BEHIND),
            },
        })
        .collect()
}
