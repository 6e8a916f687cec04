//! Property tests: any bytes parse without panicking, in bounded time, with valid spans;
//! printing a parsed tree and reading it back gives the same tree and no errors.

use proptest::prelude::*;

use zrf::source::SourceMap;
use zrf::syntax::{self, Node};

/// Parses `bytes`, checks every span lies in the file, and returns the forms.
fn parse_checked(bytes: &[u8]) -> (Vec<Node>, usize) {
    let mut sources = SourceMap::new();
    let file = sources.add("input.zrf", bytes.to_vec());
    let parsed = syntax::parse_file(file, sources.file(file));
    let len = bytes.len() as u32;
    let mut pending: Vec<&Node> = parsed.forms.iter().collect();
    while let Some(node) = pending.pop() {
        assert!(
            node.span.start <= node.span.end && node.span.end <= len,
            "{:?}",
            node.span
        );
        if let Some(items) = node.as_list() {
            pending.extend(items);
        }
    }
    for error in &parsed.errors {
        let span = error.span();
        assert!(span.start <= span.end && span.end <= len);
        let diagnostic = error.to_diagnostic();
        let _ = zrf::diag::render_plain(&sources, &[diagnostic]);
    }
    (parsed.forms, parsed.errors.len())
}

/// print(parse(x)) reads back to the same shape with no errors, whatever x was.
pub fn assert_round_trip(bytes: &[u8]) {
    let (forms, _) = parse_checked(bytes);
    let printed = syntax::to_zrf(&forms);
    let (again, errors) = parse_checked(printed.as_bytes());
    assert_eq!(errors, 0, "printed text has errors:\n{printed}");
    assert_eq!(forms.len(), again.len());
    for (a, b) in forms.iter().zip(&again) {
        assert!(a.same_shape(b), "round trip changed a form:\n{printed}");
    }
}

/// Mostly ZRF-like text, with the characters that matter to the lexer over-represented.
fn zrf_like() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        Just(b"(".to_vec()),
        Just(b")".to_vec()),
        Just(b"\"".to_vec()),
        Just(b";".to_vec()),
        Just(b"\n".to_vec()),
        Just(b"\r\n".to_vec()),
        Just(b" ".to_vec()),
        Just(b"game".to_vec()),
        Just(b"define".to_vec()),
        Just(b"$1".to_vec()),
        Just(vec![0xE9]),
        Just(vec![0xEF, 0xBB, 0xBF]),
        prop::collection::vec(any::<u8>(), 1..4),
    ];
    prop::collection::vec(piece, 0..200).prop_map(|pieces| pieces.concat())
}

/// A sample file with a few random edits.
fn mutated_sample() -> impl Strategy<Value = Vec<u8>> {
    let samples: Vec<Vec<u8>> = ["tictactoe.zrf", "breakthrough.zrf", "checkers.zrf"]
        .iter()
        .map(|name| {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("zrf-samples")
                .join(name);
            std::fs::read(path).unwrap_or_default()
        })
        .collect();
    (prop::sample::select(samples), crate::mutate::edits(1..8))
        .prop_map(|(bytes, edits)| crate::mutate::mutate(bytes, &edits))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic_and_round_trip(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
        assert_round_trip(&bytes);
    }

    #[test]
    fn zrf_like_text_never_panics_and_round_trips(bytes in zrf_like()) {
        assert_round_trip(&bytes);
    }

    #[test]
    fn mutated_samples_never_panic_and_round_trip(bytes in mutated_sample()) {
        assert_round_trip(&bytes);
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let mut bytes = vec![b'('; 100_000];
    bytes.extend(vec![b')'; 100_000]);
    let (forms, errors) = parse_checked(&bytes);
    assert_eq!(errors, 1);
    assert_eq!(forms.len(), 1);
    // Unbalanced too: 100,000 opens and nothing else.
    let (_, errors) = parse_checked(&vec![b'('; 100_000]);
    assert_eq!(errors, 2);
}

#[test]
fn errors_per_file_are_capped() {
    let (_, errors) = parse_checked(") x ".repeat(150).as_bytes());
    assert_eq!(errors, syntax::MAX_ERRORS_PER_FILE + 1);
    let mut sources = SourceMap::new();
    let file = sources.add("input.zrf", ") x ".repeat(150).into_bytes());
    let parsed = syntax::parse_file(file, sources.file(file));
    let last = parsed.errors.last().map(|e| e.to_diagnostic().message);
    assert_eq!(last.as_deref(), Some("50 more syntax errors in this file"));
}

#[test]
fn corpus_files_round_trip() {
    let Some(corpus) = crate::shared_corpus() else {
        return;
    };
    let files = crate::files_under(&corpus);
    for path in &files {
        assert_round_trip(&std::fs::read(path).unwrap_or_else(|e| panic!("{e}")));
    }
    let count = files.len();
    assert_eq!(count, 541, "540 .zrf files and sokoban.inc");
}
