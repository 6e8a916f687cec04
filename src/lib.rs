//! zrf: a compiler from Zillions of Games rule files (`.zrf`) to native game engines.
//!
//! The compiler is a pipeline of stages, each a module with one public entry point and
//! its own error type; data flows one way:
//!
//! 1. [`syntax`]: bytes to trees of lists, atoms and strings, with spans; includes
//!    resolved (within the rules' folders).
//! 2. [`expand`]: macros expanded, includes spliced, one [`expand::GameSpec`] per game and
//!    variant with inherited sections merged.
//! 3. [`check`]: names resolved, forms checked, each game lowered to the typed [`ir`]
//!    (and its templates folded, [`ir::fold`]).
//! 4. [`lower`]: the IR as an executor-neutral [`lower::Program`]: the runtime's tables
//!    and the templates as operations of the `zrf-runtime` crate.
//! 5. [`interp`] performs a program's operations on the runtime (the reference
//!    interpreter); [`codegen`] prints them as Rust on the same runtime.
//!
//! [`frontend::run`] runs stages 1 to 3 in order; [`build`] is the build.rs API and
//! writes the packages of `zrfc build`; [`zsg`] reads, writes and replays Zillions' saved
//! games. Problems are [`diag::Diagnostic`] values, rendered in one place, [`diag`];
//! positions come from the [`source::SourceMap`]. The `zrfc` command line is [`cli`],
//! behind the default `cli` feature.

pub mod build;
pub mod check;
pub mod codegen;
pub mod diag;
pub mod expand;
pub mod frontend;
pub mod intern;
pub mod interp;
pub mod ir;
pub mod lint;
pub mod lower;
pub mod source;
pub mod syntax;
pub mod zsg;

#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "cli")]
pub mod lsp;
