//! The transposition table: a fixed-size hash table of search results keyed by
//! [`Game::search_key`](zrf_runtime::Game::search_key), shared by every thread of a
//! search without locks. Each slot is two words, the second the packed entry and the
//! first the key xor that entry, so a slot torn by two threads writing at once reads as
//! a miss instead of a wrong answer.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// How a stored score bounds the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The score is exact.
    Exact,
    /// The true score is at least this (the search failed high).
    Lower,
    /// The true score is at most this (no move raised alpha).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
    /// The best move's index in the position's legal move list (move generation is
    /// deterministic, so the index names the move), or [`Entry::NO_MOVE`].
    pub best: u16,
    /// The search that wrote it (modulo 64): older entries are replaced first.
    age: u8,
}

impl Entry {
    pub const NO_MOVE: u16 = u16::MAX;

    fn pack(self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        u64::from(self.score as u32)
            | u64::from(self.best) << 32
            | u64::from(self.depth) << 48
            | bound << 56
            | u64::from(self.age & 63) << 58
    }

    fn unpack(data: u64) -> Entry {
        let bound = match data >> 56 & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        };
        Entry {
            score: data as u32 as i32,
            best: (data >> 32) as u16,
            depth: (data >> 48) as u8,
            bound,
            age: (data >> 58) as u8,
        }
    }
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// Search results by position, in buckets of two slots: a new result replaces the
/// slot of the same position, else the older or shallower of the two.
pub struct TranspositionTable {
    slots: Box<[Slot]>,
    /// Buckets minus one (their count is a power of two).
    mask: usize,
    age: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (at least one bucket).
    pub fn with_megabytes(megabytes: usize) -> TranspositionTable {
        let fitting = ((megabytes.max(1) << 20) / size_of::<Slot>() / 2).max(1);
        // The largest power of two that fits.
        let buckets = 1 << (usize::BITS - 1 - fitting.leading_zeros());
        TranspositionTable {
            slots: (0..buckets * 2).map(|_| Slot::default()).collect(),
            mask: buckets - 1,
            age: AtomicU8::new(0),
        }
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        for slot in self.slots.iter() {
            slot.check.store(0, Relaxed);
            slot.data.store(0, Relaxed);
        }
    }

    /// Marks the start of a new search: entries of earlier ones are replaced first.
    pub fn new_search(&self) {
        let age = self.age.load(Relaxed).wrapping_add(1) & 63;
        self.age.store(age, Relaxed);
    }

    fn bucket(&self, key: u64) -> &[Slot] {
        let first = (key as usize & self.mask) * 2;
        &self.slots[first..first + 2]
    }

    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key).iter().find_map(|slot| {
            let data = slot.data.load(Relaxed);
            (slot.check.load(Relaxed) ^ data == key && data != 0).then(|| Entry::unpack(data))
        })
    }

    pub(crate) fn store(&self, key: u64, score: i32, depth: u8, bound: Bound, best: u16) {
        let age = self.age.load(Relaxed);
        let entry = Entry {
            score,
            depth,
            bound,
            best,
            age,
        };
        let bucket = self.bucket(key);
        let read = |slot: &Slot| {
            let data = slot.data.load(Relaxed);
            (slot.check.load(Relaxed) ^ data, Entry::unpack(data))
        };
        let same = bucket.iter().find(|slot| read(slot).0 == key);
        let slot = match same {
            Some(slot) => {
                let (_, old) = read(slot);
                // A shallower result for the same position keeps the deeper one,
                // unless it is exact or the old one is stale.
                if old.age == age && old.depth > depth && bound != Bound::Exact {
                    return;
                }
                slot
            }
            None => {
                let worth = |slot: &Slot| {
                    let (_, old) = read(slot);
                    let stale = if old.age == age { 0 } else { 256 };
                    i32::from(old.depth) - stale
                };
                let [a, b] = bucket else { return };
                if worth(a) <= worth(b) {
                    a
                } else {
                    b
                }
            }
        };
        let data = entry.pack();
        slot.data.store(data, Relaxed);
        slot.check.store(key ^ data, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_packs_and_unpacks_unchanged() {
        for (score, bound) in [
            (-1_000_000, Bound::Upper),
            (0, Bound::Exact),
            (77, Bound::Lower),
        ] {
            let entry = Entry {
                score,
                depth: 12,
                bound,
                best: 300,
                age: 5,
            };
            assert_eq!(Entry::unpack(entry.pack()), entry);
        }
    }

    #[test]
    fn a_stored_result_is_found_by_its_key_only() {
        let table = TranspositionTable::with_megabytes(1);
        table.store(0xDEAD_BEEF, 42, 3, Bound::Exact, 7);
        let found = table.probe(0xDEAD_BEEF).map(|e| (e.score, e.depth, e.best));
        assert_eq!(found, Some((42, 3, 7)));
        assert_eq!(table.probe(0xDEAD_BEEE), None);
        table.clear();
        assert_eq!(table.probe(0xDEAD_BEEF), None);
    }

    #[test]
    fn a_deeper_result_for_the_same_position_is_kept() {
        let table = TranspositionTable::with_megabytes(1);
        table.store(99, 10, 6, Bound::Lower, 1);
        table.store(99, 20, 2, Bound::Lower, 2);
        assert_eq!(table.probe(99).map(|e| e.depth), Some(6));
        table.new_search();
        table.store(99, 20, 2, Bound::Lower, 2);
        assert_eq!(table.probe(99).map(|e| e.depth), Some(2));
    }
}
