//! Fixed pseudo-random numbers: the Zobrist keys of position hashes and seeded playouts
//! must come out the same on every platform and in every release.

/// SplitMix64: small, fast, and stable across platforms and crate versions.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next number, uniform over all of `u64`.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// One of `items`, chosen uniformly, taken out of it (the last item takes its place);
    /// `None` when there is none.
    pub(crate) fn take_one<T>(&mut self, items: &mut Vec<T>) -> Option<T> {
        (!items.is_empty()).then(|| items.swap_remove(self.below(items.len())))
    }

    /// A number in `0..n` (`n` > 0) by a multiplication instead of a division: each as
    /// likely as another to within `n / 2^64`.
    #[inline]
    pub fn below_fast(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// SplitMix64's finaliser: scatters the bits of `z`, so that nearby inputs give
/// unrelated outputs (hash keys of small numbers, say).
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Random keys for position hashes (Zobrist hashing): one per square, owner and piece
/// type, one per square and attribute, one per off-board stock slot. A position's hash
/// combines the keys of what it holds, so equal positions hash equally and a search can
/// tell most different ones apart by one word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Zobrist {
    seed: u64,
    players: usize,
    kinds: usize,
    attributes: usize,
    pieces: Vec<u64>,
    attribute_keys: Vec<u64>,
    stock: Vec<u64>,
}

/// What a game's [`Zobrist`] keys are drawn from: its seed and its sizes (what
/// generated code writes out, named, for [`Zobrist::new`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZobristData {
    /// Each game has its own, so that generated engines and the interpreter of the same
    /// rules agree.
    pub seed: u64,
    /// The positions, dummies included.
    pub positions: usize,
    /// The players, moving or not.
    pub players: usize,
    /// The piece types.
    pub kinds: usize,
    /// The piece attributes.
    pub attributes: usize,
}

impl Zobrist {
    /// The keys drawn from `data.seed` for a game of `data`'s sizes.
    pub fn new(data: ZobristData) -> Zobrist {
        let ZobristData {
            seed,
            positions,
            players,
            kinds,
            attributes,
        } = data;
        let mut rng = SplitMix64::new(seed);
        let mut draw = |n: usize| (0..n).map(|_| rng.next_u64()).collect::<Vec<u64>>();
        Zobrist {
            seed,
            players,
            kinds,
            attributes,
            pieces: draw(positions * players * kinds),
            attribute_keys: draw(positions * attributes),
            stock: draw(players * kinds),
        }
    }

    /// Whether these keys are drawn for a game of these sizes.
    pub fn fits(&self, positions: usize, players: usize, kinds: usize, attributes: usize) -> bool {
        (self.players, self.kinds, self.attributes) == (players, kinds, attributes)
            && self.pieces.len() == positions * players * kinds
            && self.attribute_keys.len() == positions * attributes
    }

    /// The seed the keys were drawn from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The key of a piece of `kind` owned by `owner` on square `pos`, with the attributes
    /// set in `attributes`.
    #[inline]
    pub fn piece(&self, pos: usize, owner: usize, kind: usize, attributes: u32) -> u64 {
        let index = (pos * self.players + owner) * self.kinds + kind;
        let mut key = self.pieces.get(index).copied().unwrap_or(0);
        let mut bits = attributes;
        while bits != 0 {
            let attribute = bits.trailing_zeros() as usize;
            if attribute < self.attributes {
                key ^= self.attribute_keys[pos * self.attributes + attribute];
            }
            bits &= bits - 1;
        }
        key
    }

    /// What `count` pieces off the board in stock slot `player * kinds + kind` add.
    #[inline]
    pub fn stock(&self, slot: usize, count: u32) -> u64 {
        self.stock
            .get(slot)
            .map_or(0, |key| key.wrapping_mul(u64::from(count)))
    }
}

/// FNV-1a: a fixed, platform-independent digest of bytes, for seeds and fingerprints.
#[derive(Clone, Copy, Debug)]
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Fnv1a {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    /// A digest of nothing yet.
    pub fn new() -> Fnv1a {
        Fnv1a::default()
    }

    /// Adds `bytes` to the digest.
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// The digest of everything written.
    pub fn finish(self) -> u64 {
        self.0
    }
}
