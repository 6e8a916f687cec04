//! Stage 1: bytes to trees.
//!
//! | input | output | holds afterwards |
//! |---|---|---|
//! | a root path and a [`SourceLoader`] | [`Loaded`]: a tree of lists, atoms and strings per file, every node with a [`Span`](crate::source::Span) | text decoded (UTF-8, else Windows-1252), comments gone, every top-level `(include "...")` resolved to a file but not yet spliced |
//!
//! The entry point is [`load`]; [`parse_file`] parses one file already in a
//! [`SourceMap`](crate::source::SourceMap). Errors are [`SyntaxError`] values, turned into
//! diagnostics by [`SyntaxError::to_diagnostic`]. Every error is recovered from, so one
//! run reports all the syntax errors of a file.

mod error;
pub mod format;
mod include;
mod lex;
mod parse;
mod print;
mod tree;

pub use error::SyntaxError;
pub use include::{
    load, FsLoader, Include, LoadError, LoadOptions, Loaded, MemoryLoader, SourceLoader,
};
pub use parse::{parse_file, ParsedFile, MAX_ERRORS_PER_FILE, MAX_NESTING};
pub use print::{to_tree_dump, to_zrf};
pub use tree::{Node, NodeKind};
