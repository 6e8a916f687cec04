//! The front end as far as it is built, run on one root file; shared by `check` and
//! `corpus` so both report the same thing.

use std::collections::BTreeMap;
use std::path::Path;

use crate::diag::Diagnostic;
use crate::source::SourceMap;
use crate::syntax::{self, LoadError, LoadOptions, Node};

/// Every diagnostic for the file at `path` and its includes.
pub fn check(
    path: &Path,
    options: &LoadOptions,
    sources: &mut SourceMap,
) -> Result<Vec<Diagnostic>, LoadError> {
    let loaded = syntax::load(path, &syntax::FsLoader, options, sources)?;
    Ok(loaded.errors.iter().map(|e| e.to_diagnostic()).collect())
}

/// "1 game, 2 variant, 14 define": what a file holds at top level.
pub fn form_heads(forms: &[Node]) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for form in forms {
        *counts.entry(form.head().unwrap_or("(other)")).or_default() += 1;
    }
    counts
        .iter()
        .map(|(head, n)| format!("{n} {head}"))
        .collect::<Vec<_>>()
        .join(", ")
}
