//! zrf: a compiler from Zillions of Games rule files (`.zrf`) to native game engines.
//!
//! The compiler is a pipeline of stages, each a module with one public entry point and
//! its own error type:
//!
//! 1. [`syntax`]: bytes to trees of lists, atoms and strings, with spans; includes resolved.
//! 2. [`expand`]: macros expanded, includes spliced, one [`expand::GameSpec`] per game and
//!    variant with inherited sections merged.
//!
//! [`frontend::run`] runs the stages built so far in order. Later stages (checking into a typed IR, interpretation and code generation) build on
//! the expanded games. Problems are reported as [`diag::Diagnostic`] values
//! and rendered in one place, [`diag`]; positions come from the [`source::SourceMap`].

pub mod build;
pub mod check;
pub mod codegen;
pub mod diag;
pub mod expand;
pub mod frontend;
pub mod intern;
pub mod interp;
pub mod ir;
pub mod source;
pub mod syntax;
pub mod zsg;

#[cfg(feature = "cli")]
pub mod cli;
