//! Every malformed file in `tests/fixtures/syntax/` gets its rendered diagnostics
//! snapshotted, source first, so each snapshot reads on its own.

use crate::{load_memory, rendered, snapshot_settings};

#[test]
fn malformed_files_give_precise_diagnostics() {
    snapshot_settings().bind(|| {
        insta::glob!("../fixtures/syntax", "*.zrf", |path| {
            let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{e}"));
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("input.zrf");
            let (sources, loaded) = load_memory(&[(name, &bytes)], name, &[]);
            assert!(
                !loaded.errors.is_empty(),
                "{name} should have syntax errors"
            );
            let source = sources.file(loaded.root).text();
            let shown: String = if source.len() > 600 {
                format!("{}... ({} bytes)", &source[..200], source.len())
            } else {
                source.to_string()
            };
            insta::assert_snapshot!(format!(
                "----- SOURCE\n{shown}\n----- DIAGNOSTICS\n{}",
                rendered(&sources, &loaded)
            ));
        });
    });
}

#[test]
fn unclosed_list_points_at_open_paren_and_end_of_file() {
    let text = b"(game\n  (title \"x\")\n";
    let (_, loaded) = load_memory(&[("a.zrf", text)], "a.zrf", &[]);
    let diagnostic = loaded.errors[0].to_diagnostic();
    let spans: Vec<_> = diagnostic
        .labels
        .iter()
        .map(|l| (l.primary, l.span.start, l.span.end))
        .collect();
    assert_eq!(diagnostic.code, "E0101");
    assert_eq!(spans, [(true, 0, 1), (false, 20, 20)]);
}

#[test]
fn recovery_keeps_reading_after_a_missing_paren() {
    let text = b"(game (title \"a\"\n(define x (y))\n(variant (title \"b\"))\n)\n";
    let (_, loaded) = load_memory(&[("a.zrf", text)], "a.zrf", &[]);
    let codes: Vec<_> = loaded
        .errors
        .iter()
        .map(|e| e.to_diagnostic().code)
        .collect();
    assert_eq!(codes, ["E0101", "E0102"]);
    let heads: Vec<_> = loaded.files[0].forms.iter().map(|f| f.head()).collect();
    assert_eq!(heads, [Some("game"), Some("define"), Some("variant")]);
}

#[test]
fn windows_1252_spans_are_offsets_into_the_original_bytes() {
    // "é" is one byte on disk; the stray `)` is at byte 9.
    let text = b"; \xe9\xe9\xe9\n(a))";
    let (sources, loaded) = load_memory(&[("w.zrf", text)], "w.zrf", &[]);
    let span = loaded.errors[0].span();
    assert_eq!((span.start, span.end), (9, 10));
    let file = sources.file(span.file);
    assert_eq!(file.line_column(span.start).to_string(), "2:4");
    assert_eq!(sources.snippet(span), ")");
}
