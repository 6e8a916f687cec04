//! Every saved game Zillions recorded reads without error and writes back byte for
//! byte (line ends aside).

use zrf::source::SourceMap;
use zrf::zsg;

#[test]
fn oracle_saved_games_round_trip() {
    let Some(oracles) = crate::shared_oracles() else {
        return;
    };
    let files = crate::files_under(&oracles.join("zsg"));
    for path in &files {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{e}"));
        let mut sources = SourceMap::new();
        let file = sources.add(path.display().to_string(), bytes);
        let (game, errors) = zsg::parse(file, sources.file(file), None);
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
        let game = game.unwrap_or_else(|| panic!("{}", path.display()));
        let original = sources.file(file).text().replace("\r\n", "\n");
        let written = zsg::write(&game).replace("\r\n", "\n");
        assert_eq!(
            written.trim_end(),
            original.trim_end(),
            "{}",
            path.display()
        );
    }
    let count = files.len();
    assert_eq!(count, 63, "the public saved games");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

    /// Any record lines after a valid header: no panic, and every line either reads or
    /// is reported with a span inside the file.
    #[test]
    fn arbitrary_records_never_panic(lines in proptest::collection::vec(
        proptest::string::string_regex("[0-9xX=@.()a-e1-3 -]{0,24}").unwrap_or_else(|e| panic!("{e}")),
        0..12,
    )) {
        let text = format!(
            "Zillions Save Game File Version 0.02 CC\nRulesFile=a.zrf\nVariantName=v\n{}\n",
            lines.join("\n")
        );
        let mut sources = SourceMap::new();
        let file = sources.add("p.zsg", text.clone().into_bytes());
        let (game, errors) = zsg::parse(file, sources.file(file), None);
        let read = game.map_or(0, |g| g.records.len());
        let non_empty = lines.iter().filter(|l| !l.is_empty()).count();
        proptest::prop_assert_eq!(read + errors.len(), non_empty);
        for error in &errors {
            proptest::prop_assert!(error.span.end as usize <= text.len());
            let _ = zrf::diag::render_plain(&sources, &[error.to_diagnostic()]);
        }
    }
}
