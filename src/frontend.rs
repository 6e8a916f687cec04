//! The front end as one call: every stage built so far, run in order on one root file.
//! The CLI, the tests and (later) the build.rs API all go through [`run`], so they all
//! report the same diagnostics.

use std::path::Path;

use crate::diag::Diagnostic;
use crate::expand::{self, ExpandOptions, Expanded};
use crate::source::SourceMap;
use crate::syntax::{self, LoadError, LoadOptions, SourceLoader};

/// Settings of every front-end stage.
#[derive(Clone, Debug, Default)]
pub struct FrontEndOptions {
    pub load: LoadOptions,
    pub expand: ExpandOptions,
}

/// What the front end made of one file.
pub struct FrontEnd {
    pub diagnostics: Vec<Diagnostic>,
    /// `None` when syntax errors stopped the run before expansion.
    pub expanded: Option<Expanded>,
}

/// Reads, parses and expands the file at `path`.
pub fn run(
    path: &Path,
    loader: &dyn SourceLoader,
    options: &FrontEndOptions,
    sources: &mut SourceMap,
) -> Result<FrontEnd, LoadError> {
    let loaded = syntax::load(path, loader, &options.load, sources)?;
    let mut diagnostics: Vec<Diagnostic> =
        loaded.errors.iter().map(|e| e.to_diagnostic()).collect();
    // Expanding a tree rebuilt around syntax errors mostly reports their echoes.
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Ok(FrontEnd {
            diagnostics,
            expanded: None,
        });
    }
    let expanded = expand::expand(&loaded, &options.expand);
    diagnostics.extend(expanded.errors.iter().map(|e| e.to_diagnostic(&expanded)));
    Ok(FrontEnd {
        diagnostics,
        expanded: Some(expanded),
    })
}
