//! The positions a game went through, for repetition: hashes kept in shared blocks, so
//! that a turn played adds a hash to a block instead of allocating an entry.
//!
//! A [`History`] is the first entries of a [`Block`] and every block before it. The
//! first line of play to go on from a history writes its next hash into the block's next
//! free slot, in place. Another line going on from the same history finds the slot
//! taken: where nothing holds that slot any more (the line that wrote it was taken back,
//! as a search takes back one sibling before it plays the next), it writes over it;
//! else it copies the entries it shares into a block of its own. A random playout, a
//! game or a search allocates once every [`BLOCK`] turns of a line; only lines kept
//! side by side (a search's tree kept in memory) copy.

use std::cell::{Cell, OnceCell};
use std::rc::Rc;

/// Entries per block: a random playout allocates a block every this many turns, and a
/// repetition test compares the hash with this many at most one by one (in random chess
/// games 16 takes 1% fewer instructions a turn than 8, and 32 no fewer than 16).
const BLOCK: usize = 16;

/// Up to this many entries before a block, a repetition test walks the blocks: cheaper
/// than keeping the counts (an insertion in a persistent map per block), which longer
/// games need. The filters tell most positions apart without walking up to about this
/// depth (a quarter of their bits).
const WALKED_DEPTH: u32 = 1024;

/// Up to this many entries before a block, its filters are of 512 bits, kept in the
/// block (a short game copies a few words per block); deeper, of 4,096 bits, shared
/// between the blocks that go on from one (a long game allocates them once a block).
const SMALL_DEPTH: u32 = 256;

type Counts = rpds::HashTrieMap<u64, u32>;

/// What the hashes of the blocks before one are known to be, without counting them.
#[derive(Clone, Debug)]
enum Filters {
    Small(Filter<8>),
    Large(Rc<Filter<64>>),
}

/// A bit per value of a hash's top bits, `64 * W` of them.
#[derive(Clone, Copy, Debug)]
struct Filter<const W: usize> {
    /// The bit of every hash: a position whose bit is clear occurred nowhere there,
    /// known without counting (and so after most moves of a game).
    seen: [u64; W],
    /// The bits of `seen` set more than once: a position whose bit is clear here
    /// occurred at most once there. The draw by threefold repetition, asked after every
    /// turn, is then told without counting for nearly every position of a game (where
    /// `seen` alone fills up).
    seen_twice: [u64; W],
}

impl<const W: usize> Filter<W> {
    const EMPTY: Filter<W> = Filter {
        seen: [0; W],
        seen_twice: [0; W],
    };

    /// The word and bit of `hash`.
    #[inline]
    fn bit(hash: u64) -> (usize, u64) {
        let index = hash >> (64 - (64 * W).ilog2());
        ((index / 64) as usize, 1 << (index % 64))
    }

    fn add(&mut self, hash: u64) {
        let (word, bit) = Self::bit(hash);
        self.seen_twice[word] |= self.seen[word] & bit;
        self.seen[word] |= bit;
    }

    /// Whether `hash` may occur `times` times or more (1 or 2: more is asked as 2).
    #[inline]
    fn may_hold(&self, hash: u64, times: usize) -> bool {
        let (word, bit) = Self::bit(hash);
        let filter = if times <= 1 {
            &self.seen
        } else {
            &self.seen_twice
        };
        filter[word] & bit != 0
    }
}

impl Filters {
    /// Whether `hash` may occur `times` times or more (1 or 2: more is asked as 2).
    #[inline]
    fn may_hold(&self, hash: u64, times: usize) -> bool {
        match self {
            Filters::Small(filter) => filter.may_hold(hash, times),
            Filters::Large(filter) => filter.may_hold(hash, times),
        }
    }

    /// The filters of the blocks up to `block`, which these are the filters before.
    fn after(&self, block: &Block) -> Filters {
        let depth = block.depth_before + BLOCK as u32;
        match self {
            Filters::Small(filter) if depth <= SMALL_DEPTH => {
                let mut filter = *filter;
                block.hashes.iter().for_each(|h| filter.add(h.get()));
                Filters::Small(filter)
            }
            Filters::Small(_) => {
                // Deep enough for the large filters: made from every hash so far.
                let mut filter = Filter::EMPTY;
                let mut here = Some(block);
                while let Some(b) = here {
                    b.hashes.iter().for_each(|h| filter.add(h.get()));
                    here = b.before.as_deref();
                }
                Filters::Large(Rc::new(filter))
            }
            Filters::Large(filter) => {
                let mut filter = **filter;
                block.hashes.iter().for_each(|h| filter.add(h.get()));
                Filters::Large(Rc::new(filter))
            }
        }
    }
}

/// Up to [`BLOCK`] consecutive positions of a game, shared by the histories that hold
/// them.
#[derive(Debug)]
struct Block {
    /// Oldest first; the slots below `filled` are written, and are written again only
    /// once `holders` shows nothing holds them.
    hashes: [Cell<u64>; BLOCK],
    filled: Cell<u8>,
    /// At `i`: the histories whose last entry is slot `i` of this block, and for the
    /// last slot the blocks that follow this one too (which hold it whole). Slot `i` is
    /// held while any count from `i` on is not zero. A count that reaches `u32::MAX`
    /// stays there: the slot is then held for good.
    holders: [Cell<u32>; BLOCK],
    /// A bit per value of the top bits of each hash written in the block
    /// ([`top_bit`]): a hash whose bit is clear occurs in none of its slots, known
    /// without comparing it with them (nearly every repetition test).
    written: Cell<u64>,
    /// The block before this one, full.
    before: Option<Rc<Block>>,
    /// Entries in the blocks before this one.
    depth_before: u32,
    /// The filters of the hashes of the blocks before this one.
    filters: Filters,
    /// How often each hash occurs in the blocks before this one, for blocks deeper than
    /// [`WALKED_DEPTH`]: made when first asked for, from the previous block's (a
    /// persistent map, so the blocks share it), so that a repetition test costs the same
    /// at any length of game.
    counts: OnceCell<Counts>,
}

/// The positions of a game up to one of them, oldest first.
#[derive(Debug)]
pub(crate) struct History {
    block: Rc<Block>,
    /// Entries of `block` in this history (at least one).
    len: u8,
}

impl Clone for History {
    fn clone(&self) -> History {
        History::holding(self.block.clone(), self.len)
    }
}

impl Drop for History {
    fn drop(&mut self) {
        self.block.release(self.len);
    }
}

impl History {
    /// `previous` (none: the game's first position) with `hash` after it.
    pub(crate) fn pushed(previous: Option<&History>, hash: u64) -> History {
        let Some(previous) = previous else {
            return History::starting_block(None, 0, Filters::Small(Filter::EMPTY), &[hash]);
        };
        let (block, len) = (&previous.block, previous.len);
        // What holds a block is what refers to it: its histories, and the blocks after.
        debug_assert_eq!(
            Rc::strong_count(block),
            (block.holders.iter())
                .map(|count| count.get() as usize)
                .sum::<usize>(),
            "a block's holders counted otherwise than its references"
        );
        if usize::from(len) == BLOCK {
            let filters = block.filters.after(block);
            let depth = block.depth_before + BLOCK as u32;
            return History::starting_block(Some(block.clone()), depth, filters, &[hash]);
        }
        if block.filled.get() == len || !block.held_from(len) {
            // The slot is free, or written by a line of play since taken back: written
            // (again), and the slots past it forgotten.
            let written = match block.filled.get() == len {
                true => block.written.get(),
                false => (block.hashes[..usize::from(len)].iter())
                    .fold(0, |bits, h| bits | top_bit(h.get())),
            };
            block.hashes[usize::from(len)].set(hash);
            block.filled.set(len + 1);
            block.written.set(written | top_bit(hash));
            return History::holding(block.clone(), len + 1);
        }
        // Another line of play went on from here first: the entries shared, copied.
        let mut entries = [0; BLOCK];
        for (entry, slot) in entries.iter_mut().zip(&block.hashes[..usize::from(len)]) {
            *entry = slot.get();
        }
        entries[usize::from(len)] = hash;
        History::starting_block(
            block.before.clone(),
            block.depth_before,
            block.filters.clone(),
            &entries[..=usize::from(len)],
        )
    }

    fn starting_block(
        before: Option<Rc<Block>>,
        depth_before: u32,
        filters: Filters,
        entries: &[u64],
    ) -> History {
        let hashes = std::array::from_fn(|i| Cell::new(entries.get(i).copied().unwrap_or(0)));
        if let Some(before) = &before {
            before.hold(BLOCK as u8);
        }
        let block = Rc::new(Block {
            hashes,
            filled: Cell::new(entries.len() as u8),
            holders: Default::default(),
            written: Cell::new(entries.iter().fold(0, |bits, &h| bits | top_bit(h))),
            before,
            depth_before,
            filters,
            counts: OnceCell::new(),
        });
        History::holding(block, entries.len() as u8)
    }

    /// The history of the first `len` entries of `block` (and the blocks before it),
    /// noted among the block's holders.
    fn holding(block: Rc<Block>, len: u8) -> History {
        block.hold(len);
        History { block, len }
    }

    /// This history's entries in its own block.
    fn newest(&self) -> impl Iterator<Item = u64> + '_ {
        self.block.hashes[..usize::from(self.len)]
            .iter()
            .map(Cell::get)
    }

    /// Occurrences of `hash` among this history's entries in its own block.
    fn occurrences_here(&self, hash: u64) -> usize {
        self.block.occurrences_in_first(usize::from(self.len), hash)
    }

    /// Whether `hash` occurs at least `times` times in this history.
    pub(crate) fn occurs_at_least(&self, hash: u64, times: usize) -> bool {
        let here = self.occurrences_here(hash);
        let Some(missing) = times.checked_sub(here).filter(|&m| m > 0) else {
            return true;
        };
        self.block.filters.may_hold(hash, missing) && self.block.occurrences_before(hash) >= missing
    }

    /// Occurrences of `hash` in this history.
    pub(crate) fn occurrences_of(&self, hash: u64) -> usize {
        self.occurrences_here(hash) + self.block.occurrences_before(hash)
    }

    /// The hashes, oldest first.
    pub(crate) fn hashes(&self) -> Vec<u64> {
        let mut blocks = Vec::new();
        let mut block = self.block.before.as_deref();
        while let Some(here) = block {
            blocks.push(here);
            block = here.before.as_deref();
        }
        let mut hashes: Vec<u64> = blocks
            .iter()
            .rev()
            .flat_map(|b| b.hashes.iter().map(Cell::get))
            .collect();
        hashes.extend(self.newest());
        hashes
    }
}

/// The bit of `hash` in [`Block::written`]: one of 64, by its top six bits.
#[inline]
fn top_bit(hash: u64) -> u64 {
    1 << (hash >> 58)
}

impl Block {
    /// Notes one more holder of the first `len` slots (at least one).
    #[inline]
    fn hold(&self, len: u8) {
        let count = &self.holders[usize::from(len) - 1];
        count.set(count.get().saturating_add(1));
    }

    /// Notes one holder fewer of the first `len` slots, as [`Block::hold`] noted it.
    #[inline]
    fn release(&self, len: u8) {
        let count = &self.holders[usize::from(len) - 1];
        debug_assert!(
            count.get() > 0,
            "a block released by more holders than it had"
        );
        if count.get() != u32::MAX {
            count.set(count.get() - 1);
        }
    }

    /// Whether something holds slot `slot` or one past it.
    #[inline]
    fn held_from(&self, slot: u8) -> bool {
        let filled = usize::from(self.filled.get());
        (self.holders[usize::from(slot)..filled].iter()).any(|count| count.get() != 0)
    }

    /// Occurrences of `hash` in the first `len` slots of this block (written ones).
    #[inline]
    fn occurrences_in_first(&self, len: usize, hash: u64) -> usize {
        let count = || {
            (self.hashes[..len].iter())
                .filter(|h| h.get() == hash)
                .count()
        };
        // The invariant: `written` holds the bit of every hash written in the block.
        if self.written.get() & top_bit(hash) == 0 {
            debug_assert_eq!(count(), 0, "a hash of the block missing from its bits");
            return 0;
        }
        count()
    }

    /// Occurrences of `hash` in the blocks before this one.
    fn occurrences_before(&self, hash: u64) -> usize {
        if !self.filters.may_hold(hash, 1) {
            return 0;
        }
        if self.depth_before <= WALKED_DEPTH {
            let mut count = 0;
            let mut block = self.before.as_deref();
            while let Some(here) = block {
                count += here.occurrences_in_first(BLOCK, hash);
                block = here.before.as_deref();
            }
            return count;
        }
        self.counts().get(&hash).map_or(0, |&n| n as usize)
    }

    fn counts(&self) -> &Counts {
        if let Some(counts) = self.counts.get() {
            return counts;
        }
        // The blocks back to the newest one that has its counts, filled oldest first
        // (by a loop: a long game must not recurse once per block).
        let mut missing = vec![self];
        let mut block = self;
        while let Some(before) = block.before.as_deref() {
            if before.counts.get().is_some() {
                break;
            }
            missing.push(before);
            block = before;
        }
        for block in missing.into_iter().rev() {
            let counts = match block.before.as_deref() {
                None => Counts::default(),
                Some(before) => {
                    let mut counts = before.counts().clone();
                    for slot in &before.hashes {
                        let count = counts.get(&slot.get()).copied().unwrap_or(0);
                        counts.insert_mut(slot.get(), count + 1);
                    }
                    counts
                }
            };
            let _ = block.counts.set(counts);
        }
        self.counts.get().expect("filled above")
    }
}

impl Drop for Block {
    /// Unlinks the blocks one by one: dropping a long game's list by recursion would
    /// overflow the stack.
    fn drop(&mut self) {
        let mut next = self.before.take();
        while let Some(mut block) = next {
            // The block dropped held the whole of the one before it.
            block.release(BLOCK as u8);
            // Unlinked in place (moving a whole block out of its `Rc` copies it); the
            // block then drops with nothing left to follow.
            let Some(only) = Rc::get_mut(&mut block) else {
                break;
            };
            next = only.before.take();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_of_play_taken_back_leaves_its_slot_to_the_next_and_one_kept_does_not() {
        let base = History::pushed(None, 1);
        let first = History::pushed(Some(&base), 2);
        let beside = History::pushed(Some(&base), 3);
        assert!(
            !Rc::ptr_eq(&beside.block, &base.block),
            "copied beside the first"
        );
        drop(first);
        let next = History::pushed(Some(&base), 4);
        assert!(
            Rc::ptr_eq(&next.block, &base.block),
            "written over the first"
        );
        assert_eq!((next.hashes(), beside.hashes()), (vec![1, 4], vec![1, 3]));
    }
}
