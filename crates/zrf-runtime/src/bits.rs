//! The squares of a bitset over squares given word by word (bit `b` of word `w` is
//! square `64 * w + b`): one iterator for the position's occupancy, the reach tables
//! and the legality tests. A leaf: it knows squares and words, nothing of the game.

use crate::Pos;

/// The squares whose bits are set in a run of words, lowest first, but for those whose
/// bits are set in `except` (its first four words), masked off as each word is read. A
/// plain loop over the words, not a flattened iterator of iterators, whose every step
/// tests which part it is in.
pub(crate) struct Squares<I> {
    /// The words not yet started.
    words: I,
    /// The square of bit 0 of the current word, and of the next one.
    base: Pos,
    next_base: Pos,
    /// What is left of the current word.
    bits: u64,
    /// The squares to leave out of the next words (the first three after the first).
    except: [u64; 3],
}

/// The squares of the bitset `words`, lowest first.
#[inline]
pub(crate) fn squares_in<W: IntoIterator<Item = u64>>(words: W) -> Squares<W::IntoIter> {
    squares_except(words, [0; 4])
}

/// The squares of the bitset `words`, lowest first, but for those below 256 whose bits
/// are set in `except`.
#[inline]
pub(crate) fn squares_except<W: IntoIterator<Item = u64>>(
    words: W,
    except: [u64; 4],
) -> Squares<W::IntoIter> {
    // The first word read at once: most boards have one or two.
    let mut words = words.into_iter();
    let [first_except, beyond @ ..] = except;
    Squares {
        bits: words.next().map_or(0, |first| first & !first_except),
        words,
        base: 0,
        next_base: 64,
        except: beyond,
    }
}

impl<I: Iterator<Item = u64>> Iterator for Squares<I> {
    type Item = Pos;

    #[inline]
    fn next(&mut self) -> Option<Pos> {
        while self.bits == 0 {
            let word = self.words.next()?;
            let [except, beyond @ ..] = self.except;
            self.bits = word & !except;
            self.except = [beyond[0], beyond[1], 0];
            self.base = self.next_base;
            self.next_base += 64;
        }
        let bit = self.bits.trailing_zeros();
        self.bits &= self.bits - 1;
        Some(self.base + bit)
    }
}
