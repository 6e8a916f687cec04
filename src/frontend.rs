//! The front end as one call: reading, macro expansion and checking, run in order on one
//! root file. The CLI, the tests and the build.rs API all go through [`run`], so they
//! all report the same diagnostics.

use std::path::Path;

use std::collections::HashSet;

use crate::check;
use crate::diag::Diagnostic;
use crate::expand::{self, ExpandOptions, Expanded, GameKind};
use crate::ir;
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
    /// Every diagnostic of the file, each reported once (a problem in a game's sections
    /// is not repeated for every variant that inherits them).
    pub diagnostics: Vec<Diagnostic>,
    /// `None` when syntax errors stopped the run before expansion.
    pub expanded: Option<Expanded>,
    /// One entry per game and variant, in file order.
    pub games: Vec<GameResult>,
}

/// One game or variant after checking.
pub struct GameResult {
    pub title: String,
    pub kind: GameKind,
    /// The lowered game, or `None` if it has errors.
    pub game: Option<ir::Game>,
    /// The code of its first error, if any.
    pub first_error: Option<&'static str>,
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
            games: Vec::new(),
        });
    }
    let expanded = expand::expand(&loaded, &options.expand);
    diagnostics.extend(expanded.errors.iter().map(|e| e.to_diagnostic(&expanded)));
    let expansion_failed = expanded
        .errors
        .iter()
        .any(|e| e.to_diagnostic(&expanded).is_error());
    let mut games = Vec::new();
    let mut seen: HashSet<(&'static str, String, Option<crate::source::Span>)> = HashSet::new();
    let mut checker = check::Checker::new(&expanded);
    for index in 0..expanded.games.len() {
        let spec = &expanded.games[index];
        let checked = checker.check(index);
        let mut first_error = checked
            .errors
            .iter()
            .find(|e| e.is_error())
            .map(|e| e.to_diagnostic(&expanded).code);
        for diagnostic in checked.diagnostics(&expanded) {
            if seen.insert((
                diagnostic.code,
                diagnostic.message.clone(),
                diagnostic.primary_span(),
            )) {
                diagnostics.push(diagnostic);
            }
        }
        // An expansion error may have dropped part of the game.
        if expansion_failed && first_error.is_none() {
            first_error = diagnostics.iter().find(|d| d.is_error()).map(|d| d.code);
        }
        games.push(GameResult {
            title: spec
                .title
                .map(|t| expanded.name(t).to_string())
                .unwrap_or_default(),
            kind: spec.kind,
            game: checked.game.filter(|_| first_error.is_none()),
            first_error,
        });
    }
    Ok(FrontEnd {
        diagnostics,
        expanded: Some(expanded),
        games,
    })
}
