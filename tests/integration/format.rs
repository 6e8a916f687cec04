//! `zrfc fmt` on real files: every corpus file that parses is formatted, formatting it
//! again changes nothing, and the formatted file parses to exactly the same forms.

use zrf::source::SourceMap;
use zrf::syntax::format::format;
use zrf::syntax::{parse_file, to_zrf};

/// The forms of `bytes` printed back (spans left out), and whether it parsed cleanly.
fn forms(bytes: &[u8]) -> (String, bool) {
    let mut sources = SourceMap::new();
    let file = sources.add("f.zrf", bytes.to_vec());
    let parsed = parse_file(file, sources.file(file));
    (to_zrf(&parsed.forms), parsed.errors.is_empty())
}

#[test]
fn every_corpus_file_formats_idempotently_to_the_same_forms() {
    let Some(corpus) = crate::shared_corpus() else {
        eprintln!("../shared/corpus is missing: skipped");
        return;
    };
    let (mut formatted, mut refused) = (0, 0);
    for path in crate::files_under(&corpus) {
        if path.extension().is_none_or(|e| e != "zrf" && e != "inc") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{e}"));
        let (before, clean) = forms(&bytes);
        let Ok(once) = format(&bytes) else {
            assert!(!clean, "{} parses but is not formatted", path.display());
            refused += 1;
            continue;
        };
        let (after, _) = forms(&once);
        assert_eq!(before, after, "{} changed meaning", path.display());
        let twice = format(&once).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            twice == once,
            "{} is not formatted idempotently",
            path.display()
        );
        formatted += 1;
    }
    assert!(formatted > 500, "{formatted} formatted, {refused} refused");
}

#[test]
fn fmt_rewrites_in_place_and_check_reports_without_writing() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("a.zrf");
    std::fs::write(&file, "(game\n(title \"A\")   )\n").unwrap_or_else(|e| panic!("{e}"));
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_zrfc"))
            .args(args)
            .arg(&file)
            .output()
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let checked = run(&["fmt", "--check"]);
    assert_eq!(checked.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&checked.stdout),
        format!("{}: would be reformatted\n", file.display())
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap_or_default(),
        "(game\n(title \"A\")   )\n"
    );
    assert_eq!(run(&["fmt"]).status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(&file).unwrap_or_default(),
        "(game\n   (title \"A\"))\n"
    );
    let again = run(&["fmt", "--check"]);
    assert_eq!((again.status.code(), again.stdout.len()), (Some(0), 0));
    std::fs::write(&file, "(game (title \"A\")").unwrap_or_else(|e| panic!("{e}"));
    let refused = run(&["fmt"]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("1 unclosed `(` at the end of the file")
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap_or_default(),
        "(game (title \"A\")"
    );
}
