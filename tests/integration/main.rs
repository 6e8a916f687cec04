//! All integration tests, built into one binary to keep link time down.

mod boards;
mod cli;
mod codegen;
mod codes;
mod embed;
mod expand;
mod fidelity;
mod format;
mod frontend_properties;
mod includes;
mod layering;
mod learn;
mod lsp;
mod move_text;
#[path = "../common/mutate.rs"]
mod mutate;
mod perft;
mod properties;
mod replay;
mod samples;
mod search;
mod shapes;
mod syntax_diagnostics;
mod uci;
mod ui;
mod web;
mod zsg;

use std::path::Path;

use zrf::diag;
use zrf::source::SourceMap;
use zrf::syntax::{self, LoadOptions, Loaded, MemoryLoader};

/// Snapshots live in the top-level `snapshots/` folder.
pub fn snapshot_settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings
}

/// Loads `root` from an in-memory set of files.
pub fn load_memory(
    files: &[(&str, &[u8])],
    root: &str,
    include_dirs: &[&str],
) -> (SourceMap, Loaded) {
    let mut loader = MemoryLoader::new();
    for (name, bytes) in files {
        loader.insert(name, *bytes);
    }
    let options = LoadOptions {
        include_dirs: include_dirs.iter().map(Into::into).collect(),
        ..LoadOptions::default()
    };
    let mut sources = SourceMap::new();
    let loaded = syntax::load(Path::new(root), &loader, &options, &mut sources)
        .unwrap_or_else(|e| panic!("root should load: {e}"));
    (sources, loaded)
}

/// The rendered diagnostics of a load, plain text.
pub fn rendered(sources: &SourceMap, loaded: &Loaded) -> String {
    let diagnostics: Vec<_> = loaded.errors.iter().map(|e| e.to_diagnostic()).collect();
    diag::render_plain(sources, &diagnostics)
}

/// The index of the position named `name` in `engine`'s game.
pub fn position(engine: &zrf::interp::Interpreted, name: &str) -> u32 {
    engine
        .tables
        .positions
        .iter()
        .position(|p| p == name)
        .unwrap_or_else(|| panic!("no {name}")) as u32
}

/// `../shared/corpus` beside the project, if present.
pub fn shared_corpus() -> Option<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("SKIPPED: ../shared/corpus not found; corpus checks run in .ci/run");
        None
    }
}

/// `../shared/oracles` beside the project, if present.
pub fn shared_oracles() -> Option<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/oracles");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("SKIPPED: ../shared/oracles not found; oracle checks run in .ci/run");
        None
    }
}

/// Every file below `dir`, sorted.
pub fn files_under(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{e}")) {
            let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
            if path.is_dir() {
                pending.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}
