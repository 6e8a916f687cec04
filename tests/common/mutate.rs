//! Byte-level edits of rules files and saved games, shared by the property tests and the
//! fuzzer: deletions, insertions of any byte or of a structural one, copied runs.

use proptest::prelude::*;

/// Where (a fraction of the length), what kind of edit, and a byte for it.
pub type Edit = (prop::sample::Index, u8, u8);

/// A list of edits, as many as `count` allows.
pub fn edits(count: std::ops::Range<usize>) -> impl Strategy<Value = Vec<Edit>> {
    prop::collection::vec((any::<prop::sample::Index>(), 0u8..4, any::<u8>()), count)
}

/// `bytes` with `edits` made in turn.
pub fn mutate(mut bytes: Vec<u8>, edits: &[Edit]) -> Vec<u8> {
    for (at, kind, byte) in edits {
        if bytes.is_empty() {
            break;
        }
        let i = at.index(bytes.len());
        match kind {
            0 => {
                bytes.remove(i);
            }
            1 => bytes.insert(i, *byte),
            2 => bytes.insert(i, b"()\";$ \n"[usize::from(*byte) % 7]),
            _ => {
                let end = (i + usize::from(*byte)).min(bytes.len());
                let copy = bytes[i..end].to_vec();
                bytes.splice(i..i, copy);
            }
        }
    }
    bytes
}
