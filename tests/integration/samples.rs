//! The bundled sample games parse cleanly; their trees are snapshotted.

use std::path::Path;

use zrf::source::SourceMap;
use zrf::syntax::{self, FsLoader, LoadOptions};

use crate::snapshot_settings;

#[test]
fn sample_parse_trees() {
    snapshot_settings().bind(|| {
        insta::glob!("../../zrf-samples", "*.zrf", |path| {
            let mut sources = SourceMap::new();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("sample.zrf");
            let loaded = syntax::load(path, &FsLoader, &LoadOptions::default(), &mut sources)
                .unwrap_or_else(|e| panic!("{e}"));
            assert!(loaded.errors.is_empty(), "{name} should parse cleanly");
            let parsed = &loaded.files[0];
            insta::assert_snapshot!(format!(
                "----- PRINTED {name}\n{}\n----- TREE\n{}",
                syntax::to_zrf(&parsed.forms),
                syntax::to_tree_dump(&sources, &parsed.forms)
            ));
        });
    });
}

#[test]
fn samples_round_trip_through_the_printer() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("zrf-samples");
    let mut count = 0;
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{e}")) {
        let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
        if path.extension().is_some_and(|e| e == "zrf") {
            crate::properties::assert_round_trip(
                &std::fs::read(&path).unwrap_or_else(|e| panic!("{e}")),
            );
            count += 1;
        }
    }
    assert!(count >= 3, "expected the bundled samples, found {count}");
}

#[test]
fn sample_ir_dumps() {
    snapshot_settings().bind(|| {
        insta::glob!("../../zrf-samples", "*.zrf", |path| {
            let mut sources = SourceMap::new();
            let result = zrf::frontend::run(path, &FsLoader, &Default::default(), &mut sources)
                .unwrap_or_else(|e| panic!("{e}"));
            assert!(
                result.diagnostics.is_empty(),
                "{}",
                zrf::diag::render_plain(&sources, &result.diagnostics)
            );
            let dumps: Vec<String> = result
                .games
                .iter()
                .map(|g| {
                    zrf::ir::dump(
                        g.game
                            .as_ref()
                            .unwrap_or_else(|| panic!("{} failed", g.title)),
                    )
                })
                .collect();
            insta::assert_snapshot!(dumps.join("\n"));
        });
    });
}
