//! UI tests in the manner of rustc and Gleam: each `tests/ui/*.zrf` is run through the
//! whole front end and its rendered diagnostics are snapshotted beside the source.

use zrf::diag;
use zrf::frontend::{self, FrontEndOptions};
use zrf::source::SourceMap;
use zrf::syntax::MemoryLoader;

use crate::snapshot_settings;

#[test]
fn ui() {
    snapshot_settings().bind(|| {
        insta::glob!("../ui", "*.zrf", |path| {
            let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{e}"));
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("input.zrf");
            let mut loader = MemoryLoader::new();
            loader.insert(name, bytes.clone());
            let mut sources = SourceMap::new();
            let mut options = FrontEndOptions::default();
            // Small limits keep the macro-bomb cases fast.
            options.expand.max_nodes = 200_000;
            let result = frontend::run(name.as_ref(), &loader, &options, &mut sources)
                .unwrap_or_else(|e| panic!("{e}"));
            assert!(
                !result.diagnostics.is_empty(),
                "{name} should produce diagnostics"
            );
            insta::assert_snapshot!(format!(
                "----- SOURCE\n{}\n----- DIAGNOSTICS\n{}",
                String::from_utf8_lossy(&bytes),
                diag::render_plain(&sources, &result.diagnostics)
            ));
        });
    });
}
