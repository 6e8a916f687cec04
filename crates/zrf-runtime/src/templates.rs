//! What a game's compiled or interpreted templates give the engine.

use crate::layout::KnownSizes;
use crate::run::{NoteReads, Run};
use crate::tables::Filter;
use crate::Kind;

/// The code of a game's templates: the interpreter, or generated Rust, which knows its
/// game's sizes ([`KnownSizes`]).
pub trait Templates: KnownSizes {
    /// Whether this game's runs may be asked to note what they look at: [`crate::MayNote`] if it
    /// has the `checkmated` filter (or may have, for the interpreter), else
    /// [`crate::NeverNote`].
    type Noting: NoteReads;

    /// Runs the move templates of piece type `kind` allowed by `filter` for the piece
    /// `run` has taken up ([`Run::for_move`], [`Run::take_piece`]), restarting the run
    /// before each; the steps they add go to the run's output.
    fn piece_moves(&self, run: &mut Run<'_, Self::Noting>, kind: Kind, filter: Filter);

    /// Runs the drop templates of piece type `kind` allowed by `filter` for the piece
    /// `run` holds ([`Run::for_drop`]), at every position in turn
    /// ([`crate::RunCore::restart_drop_at`]); the steps they add go to the run's output.
    fn drops(&self, run: &mut Run<'_, Self::Noting>, kind: Kind, filter: Filter);

    /// Whether piece type `kind` has drop templates at all.
    fn has_drops(&self, kind: Kind) -> bool;
}
