//! What an attack test looks at: the royal squares and the pieces that may hit them,
//! carried from a position to the position after each candidate turn, and whether a
//! step removes a protected piece.

use smallvec::SmallVec;

use crate::bits::squares_in;
use crate::layout::{KnownSizes, ReadSizes};
use crate::piece::Piece;
use crate::reach::Reach;
use crate::run::hits_any;
use crate::state::changed::{changed_squares, for_each_changed_square, one_piece_moving};
use crate::state::{State, Step};
use crate::tables::Tables;
use crate::turn::Move;
use crate::{Kind, PlayerIx, Pos};

/// The squares an attack test looks at, found once for a position and carried over to
/// the position after each candidate move, so that testing a candidate does not scan
/// the board: the royal pieces of the side that may be attacked, and the threats, the
/// attacker's pieces whose reach includes a royal square.
pub(crate) struct Watched {
    pub(crate) owner: PlayerIx,
    pub(crate) attacker: PlayerIx,
    pub(crate) targets: SmallVec<[Pos; 4]>,
    /// Ascending.
    pub(crate) threats: SmallVec<[Pos; 8]>,
}

/// Whether `piece`'s kind is marked in `royal`.
pub(crate) fn is_royal(royal: &[bool], piece: Piece) -> bool {
    royal.get(piece.kind as usize) == Some(&true)
}

/// The squares of `owner`'s pieces whose kinds are marked in `royal`, ascending: read
/// off the bitsets of those types, without a look at the other pieces.
pub(crate) fn royal_squares(state: &State, owner: PlayerIx, royal: &[bool]) -> SmallVec<[Pos; 4]> {
    let mut squares = SmallVec::new();
    royal_squares_into::<ReadSizes>(&mut squares, state, owner, royal);
    squares
}

/// [`royal_squares`] into `squares`, emptied first: in place, where they are kept (a
/// small vector returned is copied out, and the one it replaces dropped), the bitsets
/// read in the sizes `S` knows.
fn royal_squares_into<S: KnownSizes + ?Sized>(
    squares: &mut SmallVec<[Pos; 4]>,
    state: &State,
    owner: PlayerIx,
    royal: &[bool],
) {
    squares.clear();
    let mut types = 0;
    for (kind, _) in royal.iter().enumerate().filter(|&(_, &r)| r) {
        push_squares(squares, state.kind_words_in::<S>(owner, kind as Kind));
        types += 1;
    }
    // Each type's squares come ascending; those of several are merged.
    if types > 1 {
        squares.sort_unstable();
    }
}

/// Appends the squares of the bitset `words`, ascending.
fn push_squares<const N: usize>(squares: &mut SmallVec<[Pos; N]>, words: &[u64])
where
    [Pos; N]: smallvec::Array<Item = Pos>,
{
    for (word, &bits) in words.iter().enumerate() {
        let mut bits = bits;
        while bits != 0 {
            squares.push((word * 64) as Pos + bits.trailing_zeros());
            bits &= bits - 1;
        }
    }
}

/// [`royal_squares`] of `owner` in `after`, the position after `steps`, from `before`,
/// those of the position before: for a turn that moves one piece and perhaps captures
/// another, patched without a look at the bitsets (on shogi's three words and many
/// types that look costs as much as the attack test's first part).
pub(crate) fn royal_squares_after(
    before: &[Pos],
    steps: &[Step],
    after: &State,
    owner: PlayerIx,
    royal: &[bool],
) -> SmallVec<[Pos; 4]> {
    let squares = match one_piece_moving(steps) {
        // A royal piece taken, or one landed on: looked up again.
        Some((_, to, captured))
            if before.contains(&to) || captured.is_some_and(|pos| before.contains(&pos)) =>
        {
            royal_squares(after, owner, royal)
        }
        Some((from, to, _)) => {
            let mut squares = SmallVec::from_slice(before);
            for square in &mut squares {
                if *square == from {
                    *square = to;
                }
            }
            // Ascending, as the lookup answers them.
            squares.sort_unstable();
            squares
        }
        None => royal_squares(after, owner, royal),
    };
    // The invariant: the squares are those the bitsets of the position after hold.
    debug_assert_eq!(squares, royal_squares(after, owner, royal));
    squares
}

/// The squares of an attacker's pieces that may hit some targets, as a bitset over
/// squares: on the stack for boards of up to 256 squares.
pub(crate) struct ThreatMask {
    inline: [u64; 4],
    spilled: Vec<u64>,
    words: usize,
}

impl ThreatMask {
    /// The pieces of `attacker` in `state` that could hit one of `targets` by the reach
    /// read backwards: on a board of one word, type by type (every piece of an
    /// unbounded type, and of a bounded one those standing where its reach includes a
    /// target); on a larger one, those standing where some type's reach includes a
    /// target. Some of them may still not hit (the reach over-approximates): the attack
    /// test runs their templates.
    pub(crate) fn of<S: KnownSizes + ?Sized>(
        reach: &Reach,
        state: &State,
        attacker: PlayerIx,
        targets: &[Pos],
    ) -> ThreatMask {
        let pieces = state.own_words_in::<S>(attacker);
        let words = pieces.len();
        // Made zeroed, and ored into: no second pass to clear it.
        let mut mask = ThreatMask {
            inline: [0; 4],
            spilled: Vec::new(),
            words,
        };
        if words == 1 {
            // Boards of up to 64 squares: each type's bitset is one word, and the types
            // fold into one without a word index to keep.
            let own = state.kinds_words_in::<S>(attacker);
            mask.inline[0] = threats_in_one_word(reach, own, attacker, targets);
            debug_assert_eq!(
                mask.inline[0],
                {
                    let mut general = [0];
                    or_threats_type_by_type(&mut general, reach, own, attacker, targets);
                    general[0]
                },
                "the one-word threat mask differs from the type-by-type one"
            );
            return mask;
        }
        // Larger boards: the attacker's pieces on squares from which a piece of some type
        // could hit, a word at a time, not type by type (shogi has fourteen types over
        // three words). The reach of each candidate's own type is then read as its
        // templates are chosen ([`Reach::templates_hitting`]).
        if words > 4 {
            mask.spilled = vec![0; words];
        }
        for &target in targets {
            let hitting = hitting_row(reach, pieces, attacker, target);
            match words <= 4 {
                // The usual boards, as four fixed steps: a loop of a length known only
                // here costs more to set up than to run.
                true => {
                    let word = |words: &[u64], w: usize| words.get(w).copied().unwrap_or(0);
                    for (w, bits) in mask.inline.iter_mut().enumerate() {
                        *bits |= word(pieces, w) & word(hitting, w);
                    }
                }
                false => (mask.spilled.iter_mut().zip(pieces).zip(hitting))
                    .for_each(|((m, &p), &h)| *m |= p & h),
            }
        }
        debug_assert!(
            {
                let own = state.kinds_words_in::<S>(attacker);
                let mut by_type = vec![0; words];
                or_threats_type_by_type(&mut by_type, reach, own, attacker, targets);
                let bits = mask.inline.get(..words).unwrap_or(&mask.spilled);
                by_type.iter().zip(bits).all(|(&t, &m)| t & !m == 0)
            },
            "the threat mask misses a piece the type-by-type one has"
        );
        mask
    }

    /// The marked squares, ascending.
    pub(crate) fn squares(&self) -> impl Iterator<Item = Pos> + '_ {
        squares_in(self.words().iter().copied())
    }

    /// The marked squares, as a bitset.
    fn words(&self) -> &[u64] {
        self.inline.get(..self.words).unwrap_or(&self.spilled)
    }
}

/// The squares from which a piece of some type of `attacker` could hit `target`, a word
/// for each word of `pieces` (the attacker's): the reach table's row, or `pieces`
/// themselves for a target outside the table.
fn hitting_row<'a>(
    reach: &'a Reach,
    pieces: &'a [u64],
    attacker: PlayerIx,
    target: Pos,
) -> &'a [u64] {
    let hitting = reach.hitting_any_from(attacker, target);
    match hitting.len() == pieces.len() {
        true => hitting,
        false => pieces,
    }
}

/// [`ThreatMask::of`] for one target, as the squares are visited: the attacker's pieces
/// read through the target's row, without building the mask (on boards of several
/// words, the usual test of a large game, building it costs more than the test's use
/// of it).
pub(crate) fn threats_toward<'a>(
    reach: &'a Reach,
    state: &'a State,
    attacker: PlayerIx,
    target: Pos,
) -> impl Iterator<Item = Pos> + 'a {
    let pieces = state.own_words(attacker);
    let hitting = hitting_row(reach, pieces, attacker, target);
    let words = pieces.iter().zip(hitting).map(|(&p, &h)| p & h);
    squares_in(words)
}

/// [`ThreatMask::of`] on a board of one word: the attacker's pieces (`own`, a word per
/// type) that may hit one of `targets`.
fn threats_in_one_word(reach: &Reach, own: &[u64], attacker: PlayerIx, targets: &[Pos]) -> u64 {
    let mut threats = 0;
    for &target in targets {
        let hitting = reach.hitting_from(attacker, target);
        threats |= if hitting.len() == own.len() {
            own.iter().zip(hitting).fold(0, |m, (&o, &h)| m | (o & h))
        } else {
            // A target outside the table: every piece.
            own.iter().fold(0, |m, &o| m | o)
        };
    }
    threats
}

/// Ors into `mask` (a word per word of the board) the attacker's pieces (`own`, one
/// bitset per type) that may hit one of `targets`, type by type.
fn or_threats_type_by_type(
    mask: &mut [u64],
    reach: &Reach,
    own: &[u64],
    attacker: PlayerIx,
    targets: &[Pos],
) {
    let words = mask.len();
    if words == 0 {
        return;
    }
    // A type's bitset at a time, each word ored into the same word of the mask.
    for &target in targets {
        let hitting = reach.hitting_from(attacker, target);
        if hitting.len() == own.len() {
            for (pieces, reaching) in own.chunks_exact(words).zip(hitting.chunks_exact(words)) {
                for ((m, &p), &r) in mask.iter_mut().zip(pieces).zip(reaching) {
                    *m |= p & r;
                }
            }
        } else {
            // A target outside the table: every piece.
            for pieces in own.chunks_exact(words) {
                for (m, &p) in mask.iter_mut().zip(pieces) {
                    *m |= p;
                }
            }
        }
    }
}

/// What to test in the position after a candidate move: whether the royal squares are
/// those of the position before (if not, the new ones, and the attackers of the
/// position before that may hit them), and the squares the move changed that now hold
/// an attacker not watched before.
#[derive(Default)]
pub(crate) struct Probe {
    pub(crate) same_targets: bool,
    pub(crate) moved_targets: SmallVec<[Pos; 4]>,
    /// Ascending.
    pub(crate) moved_threats: SmallVec<[Pos; 8]>,
    pub(crate) new_attackers: SmallVec<[Pos; 4]>,
}

impl Watched {
    /// Watches nothing yet (see [`Watched::scan`]).
    pub(crate) fn unscanned() -> Watched {
        Watched {
            owner: 0,
            attacker: 0,
            targets: SmallVec::new(),
            threats: SmallVec::new(),
        }
    }

    /// Watches the threats of `attacker`'s pieces to the squares of `owner`'s royal
    /// pieces (of the types marked in `royal`) in `state`. In place: one is made per
    /// move listing, and moving it costs as much as filling it. The bitsets are read in
    /// the sizes `S` knows.
    pub(crate) fn scan<S: KnownSizes + ?Sized>(
        &mut self,
        tables: &Tables,
        state: &State,
        royal: &[bool],
        owner: PlayerIx,
        attacker: PlayerIx,
    ) {
        self.owner = owner;
        self.attacker = attacker;
        royal_squares_into::<S>(&mut self.targets, state, owner, royal);
        self.threats.clear();
        match &tables.reach {
            None => push_squares(&mut self.threats, state.own_words_in::<S>(attacker)),
            Some(reach) => {
                let threats = ThreatMask::of::<S>(reach, state, attacker, &self.targets);
                push_squares(&mut self.threats, threats.words());
            }
        }
    }

    /// What to test in `after`, the position after `mv` from `before`, the scanned one.
    /// Only the squares `mv` changed can hold something new; while the royal squares
    /// stay the same, an attacker that was no threat is still none (reach depends only
    /// on the piece and its square). Most moves change neither, and build nothing.
    pub(crate) fn after_move(
        &self,
        reach: Option<&Reach>,
        before: &State,
        after: &State,
        mv: &Move,
        royal: &[bool],
        out: &mut Probe,
    ) {
        let royal_at = |pos: Pos| {
            after
                .at(pos)
                .is_some_and(|p| p.owner == self.owner && royal.get(p.kind as usize) == Some(&true))
        };
        out.same_targets = self.targets.iter().all(|&t| royal_at(t));
        if !out.new_attackers.is_empty() {
            out.new_attackers.clear();
        }
        for_each_changed_square(&mv.steps, |pos| {
            if royal_at(pos) && !self.targets.contains(&pos) {
                out.same_targets = false;
            }
            let attacker = after.at(pos).is_some_and(|p| p.owner == self.attacker);
            if attacker && !out.new_attackers.contains(&pos) {
                out.new_attackers.push(pos);
            }
        });
        if !out.same_targets {
            out.moved_targets.clear();
            out.moved_targets
                .extend(self.targets.iter().copied().filter(|&t| royal_at(t)));
            for_each_changed_square(&mv.steps, |pos| {
                if royal_at(pos) && !out.moved_targets.contains(&pos) {
                    out.moved_targets.push(pos);
                }
            });
            // A royal piece moved: the attackers whose reach includes its new square
            // (every attacker without a reach table). Those on squares the move left
            // alone are the same pieces after it.
            out.moved_threats.clear();
            match reach {
                Some(reach) => {
                    let threats = ThreatMask::of::<ReadSizes>(
                        reach,
                        before,
                        self.attacker,
                        &out.moved_targets,
                    );
                    out.moved_threats.extend(threats.squares());
                }
                None => out.moved_threats.extend(before.squares_of(self.attacker)),
            }
        }
        if !out.new_attackers.is_empty() {
            let tested = match out.same_targets {
                true => &self.threats,
                false => &out.moved_threats,
            };
            out.new_attackers.retain(|pos| !tested.contains(pos));
        }
    }

    /// The royal squares in the position the probe describes.
    pub(crate) fn targets<'a>(&'a self, probe: &'a Probe) -> &'a [Pos] {
        if probe.same_targets {
            &self.targets
        } else {
            &probe.moved_targets
        }
    }

    /// The attackers of the scanned position that the probe must still test (in
    /// ascending order): the threats, or once a royal piece moved, those that may hit
    /// its new square. The probe's new attackers come after them.
    pub(crate) fn attackers_to_test<'s>(&'s self, probe: &'s Probe) -> &'s [Pos] {
        match probe.same_targets {
            true => &self.threats,
            false => &probe.moved_threats,
        }
    }
}

/// The squares of the pieces of `attacker` that may hit one of `targets` by their
/// type's reach (read backwards, [`Reach::hitting_from`]) in the position after a step
/// that moves the piece on `from` to `to` and perhaps captures on a third square
/// (`moving`, as [`one_piece_moving`] gives it), as a bitset (bit `p % 64` of word
/// `p / 64` for square `p`): read off `before`, the pieces' bitsets masked by each
/// target's rows, the squares the step empties or fills set right. Every piece of the
/// attacker that could capture on a target after the step is among them. `None` where
/// the table cannot tell (a target outside it), on boards of more than 256 squares, or
/// where the origin is empty. The bitsets are read in the sizes `S` knows.
pub(crate) fn threats_after_one_piece_moving<S: KnownSizes + ?Sized>(
    reach: &Reach,
    before: &State,
    attacker: PlayerIx,
    targets: &[Pos],
    moving: (Pos, Pos, Option<Pos>),
) -> Option<[u64; 4]> {
    let piece = before.at(moving.0)?;
    let own = before.kinds_words_in::<S>(attacker);
    let threats_on = match before.own_words_in::<S>(attacker).len() {
        1 => threats_on::<1>,
        2 => threats_on::<2>,
        3 => threats_on::<3>,
        4 => threats_on::<4>,
        _ => return None,
    };
    let moved = (piece.owner == attacker).then_some(piece.kind);
    let mut threats = [0; 4];
    for &target in targets {
        let hitting = reach.hitting_from(attacker, target);
        if hitting.len() != own.len() {
            return None;
        }
        threats_on(own, hitting, moving, moved, &mut threats)?;
    }
    Some(threats)
}

/// Ors into `threats` the squares of [`threats_after_one_piece_moving`] for one
/// target, on a board of `N` words: `own` the attacker's bitsets by type, `hitting`
/// the target's rows by type, and `moved` the moving piece's type where it is the
/// attacker's. `None` for a step beyond the board's words.
#[inline]
fn threats_on<const N: usize>(
    own: &[u64],
    hitting: &[u64],
    (from, to, captured): (Pos, Pos, Option<Pos>),
    moved: Option<Kind>,
    threats: &mut [u64; 4],
) -> Option<()> {
    let mut found = [0u64; N];
    for (pieces, row) in own.chunks_exact(N).zip(hitting.chunks_exact(N)) {
        for (w, threat) in found.iter_mut().enumerate() {
            *threat |= pieces[w] & row[w];
        }
    }
    // The pieces the step moves or takes stand elsewhere, or nowhere, after it.
    for pos in [Some(from), Some(to), captured].into_iter().flatten() {
        *found.get_mut(pos as usize / 64)? &= !(1 << (pos % 64));
    }
    let (word, mask) = (to as usize / 64, 1u64 << (to % 64));
    if let Some(kind) = moved {
        found[word] |= hitting.get(kind as usize * N + word)? & mask;
    }
    for (threat, found) in threats.iter_mut().zip(found) {
        *threat |= found;
    }
    Some(())
}

/// Whether `step`, played on `before`, removes a piece from one of `targets` (not
/// leaving a piece of its owner of a type marked in `kept` there), counting as an attack:
/// Zillions does not count a capture that leaves as many pieces of the protected types
/// on the board, whoever owns them (a taker that becomes one, PassiveChess.zsg); a king
/// taking a king counts. Without protected types (`attacked?`), every removal does.
pub(crate) fn removes_protected(
    tables: &Tables,
    before: &State,
    step: &Step,
    targets: &[Pos],
    kept: &[bool],
) -> bool {
    if !hits_any(&step.changes, targets) {
        return false;
    }
    // The commonest steps, a piece moving and perhaps capturing another elsewhere, are
    // read off the position before, without a copy of it.
    let steps = std::slice::from_ref(step);
    let changed = changed_squares(steps);
    match one_piece_moving(steps).filter(|&(from, ..)| before.at(from).is_some()) {
        Some((from, to, captured)) => {
            let after = |pos: Pos| match pos {
                _ if pos == to => before.at(from),
                _ if pos == from || Some(pos) == captured => None,
                _ => before.at(pos),
            };
            takes_protected(before, after, &changed, targets, kept)
        }
        None => {
            let mut after = before.clone();
            after.apply_step(tables, step);
            takes_protected(before, |pos| after.at(pos), &changed, targets, kept)
        }
    }
}

/// [`removes_protected`], with what the position after the step holds on each square
/// (`after`) and the squares the step changed.
fn takes_protected(
    before: &State,
    after: impl Fn(Pos) -> Option<Piece>,
    changed: &[Pos],
    targets: &[Pos],
    kept: &[bool],
) -> bool {
    let protected = |p: &Piece| kept.get(p.kind as usize) == Some(&true);
    let taken = targets.iter().any(|&t| {
        before
            .at(t)
            .is_some_and(|royal| !after(t).is_some_and(|p| p.owner == royal.owner && protected(&p)))
    });
    let any_protected = kept.contains(&true);
    taken
        && (!any_protected || {
            let before_count = changed.iter().filter_map(|&pos| before.at(pos));
            let after_count = changed.iter().filter_map(|&pos| after(pos));
            after_count.filter(protected).count() < before_count.filter(protected).count()
        })
}
