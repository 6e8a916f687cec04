//! The error that tables which cannot be played are refused with, and the size and
//! index tests that make it. It reads nothing of the tables, so that both the check of
//! whole tables (`crate::consistency`) and a part of the tables that checks itself (the
//! reach table) report with it without an import cycle.

use std::fmt;

use crate::PieceSquares;

/// Why tables cannot be played: the first size or index found wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inconsistency(pub(crate) String);

impl fmt::Display for Inconsistency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "inconsistent game tables: {}", self.0)
    }
}

impl std::error::Error for Inconsistency {}

impl Inconsistency {
    /// An error unless templates that know their game's sizes (`known`, see
    /// [`KnownSizes`](crate::KnownSizes)) are given tables of those sizes.
    pub(crate) fn expect_sizes(
        known: Option<PieceSquares>,
        tables: PieceSquares,
    ) -> Result<(), Inconsistency> {
        match known {
            Some(known) if known != tables => Err(Inconsistency(format!(
                "the templates were compiled for {} players, {} piece types and {} positions; \
                 the tables have {}, {} and {}",
                known.players,
                known.kinds,
                known.positions,
                tables.players,
                tables.kinds,
                tables.positions
            ))),
            _ => Ok(()),
        }
    }

    /// An error unless the table `what` has the `expected` length.
    pub(crate) fn expect_len(what: &str, len: usize, expected: usize) -> Result<(), Inconsistency> {
        match len == expected {
            true => Ok(()),
            false => Err(Inconsistency(format!(
                "{what}: {len} entries where {expected} are needed"
            ))),
        }
    }

    /// An error unless `index`, found in `what`, is below `bound`.
    pub(crate) fn expect_index(
        what: &str,
        index: usize,
        bound: usize,
    ) -> Result<(), Inconsistency> {
        match index < bound {
            true => Ok(()),
            false => Err(Inconsistency(format!(
                "{what}: index {index} where there are {bound}"
            ))),
        }
    }
}
