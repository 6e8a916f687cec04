//! Property tests of the whole front end: random macro programs (recursive, exponential,
//! with missing or pasted parameters) and mutated sample files never panic, always
//! finish within the expansion limits, and report every failure as a diagnostic.

use std::path::Path;

use proptest::prelude::*;

use zrf::frontend::{self, FrontEndOptions};
use zrf::source::SourceMap;
use zrf::syntax::MemoryLoader;

/// Runs the front end on one in-memory file with small limits.
fn run(text: &[u8]) {
    let mut loader = MemoryLoader::new();
    loader.insert("p.zrf", text.to_vec());
    let mut options = FrontEndOptions::default();
    options.expand.max_nodes = 20_000;
    options.expand.max_call_depth = 16;
    let mut sources = SourceMap::new();
    let result = frontend::run(Path::new("p.zrf"), &loader, &options, &mut sources)
        .unwrap_or_else(|e| panic!("{e}"));
    if let Some(expanded) = &result.expanded {
        assert!(
            expanded.created_nodes <= 20_000 + 64,
            "{}",
            expanded.created_nodes
        );
    }
    // Every game either lowers or has an error diagnostic.
    for game in &result.games {
        if game.game.is_none() {
            assert!(
                result.diagnostics.iter().any(|d| d.is_error()),
                "{}",
                game.title
            );
        }
    }
    let _ = zrf::diag::render_plain(&sources, &result.diagnostics);
}

/// A body item of a random macro: plain atoms, parameters (some beyond what calls pass),
/// pasted names, strings with parameters, and calls of any macro (itself included).
fn body_item(macros: usize) -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("n".to_string()),
        Just("add".to_string()),
        Just("(verify empty?)".to_string()),
        (1u32..4).prop_map(|k| format!("${k}")),
        (1u32..4).prop_map(|k| format!("t-${k}")),
        (1u32..3).prop_map(|k| format!("\"img/${k}.bmp\"")),
        (0..macros, 0usize..3).prop_map(|(m, args)| {
            let args: Vec<String> = (0..args).map(|a| format!("a{a}")).collect();
            format!("(m{m} {})", args.join(" "))
        }),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop::collection::vec(inner, 1..4).prop_map(|items| format!("({})", items.join(" ")))
    })
}

fn macro_program() -> impl Strategy<Value = String> {
    (1usize..6).prop_flat_map(|macros| {
        (
            prop::collection::vec(prop::collection::vec(body_item(macros), 1..4), macros),
            prop::collection::vec(body_item(macros), 1..4),
        )
            .prop_map(|(bodies, uses)| {
                let mut text = String::new();
                for (m, body) in bodies.iter().enumerate() {
                    text.push_str(&format!("(define m{m} {})\n", body.join(" ")));
                }
                text.push_str(&format!(
                    "(game (title \"g\") (players A B)\n  (board (grid (dimensions (\"a/b\" (1 0)) (\"2/1\" (0 1))) (directions (n 0 -1))))\n  (piece (name P) (moves ({}))))\n",
                    uses.join(" ")
                ));
                text
            })
    })
}

fn mutated_sample() -> impl Strategy<Value = Vec<u8>> {
    let samples: Vec<Vec<u8>> = ["tictactoe.zrf", "breakthrough.zrf", "checkers.zrf"]
        .iter()
        .map(|name| {
            std::fs::read(
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("zrf-samples")
                    .join(name),
            )
            .unwrap_or_default()
        })
        .collect();
    // Token-level edits keep most of the file meaningful, so the checker sees real games.
    let edits = prop::collection::vec(
        (
            any::<prop::sample::Index>(),
            0u8..5,
            any::<prop::sample::Index>(),
        ),
        1..6,
    );
    (prop::sample::select(samples), edits).prop_map(|(bytes, edits)| {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let mut words: Vec<String> = text.split(' ').map(str::to_string).collect();
        let vocabulary = [
            "add", "n", "(", ")", "$1", "Man", "a1", "capture", "(verify", "King", "zz", "\"s\"",
        ];
        for (at, kind, other) in edits {
            let i = at.index(words.len());
            match kind {
                0 => {
                    words.remove(i);
                }
                1 => words.insert(i, vocabulary[other.index(vocabulary.len())].to_string()),
                2 => {
                    let j = other.index(words.len());
                    words.swap(i, j);
                }
                3 => words[i] = vocabulary[other.index(vocabulary.len())].to_string(),
                _ => {
                    let copy = words[i].clone();
                    words.insert(i, copy);
                }
            }
            if words.is_empty() {
                words.push(String::new());
            }
        }
        words.join(" ").into_bytes()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_macro_programs_terminate_with_diagnostics(text in macro_program()) {
        run(text.as_bytes());
    }

    #[test]
    fn mutated_samples_never_panic_the_front_end(bytes in mutated_sample()) {
        run(&bytes);
    }
}

/// `macros` macros each wrapping the previous one in 10 more levels of `if`.
fn deep_program(macros: usize) -> String {
    let mut text = String::from("(define d0 (verify empty?))\n");
    for m in 1..macros {
        text.push_str(&format!(
            "(define d{m} {}(d{}){})\n",
            "(if true ".repeat(10),
            m - 1,
            ")".repeat(10)
        ));
    }
    text.push_str(&format!(
        "(game (title \"g\") (players A) (board (grid (dimensions (\"a\" (1 0)))))\n (piece (name P) (moves ((d{}) add))))",
        macros - 1
    ));
    text
}

fn run_default(text: &str) -> (SourceMap, frontend::FrontEnd) {
    let mut loader = MemoryLoader::new();
    loader.insert("deep.zrf", text.as_bytes());
    let mut sources = SourceMap::new();
    let result = frontend::run(
        Path::new("deep.zrf"),
        &loader,
        &FrontEndOptions::default(),
        &mut sources,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    (sources, result)
}

#[test]
fn deep_expansions_stop_at_the_nesting_limit_without_overflowing() {
    // 600 levels after expansion, over the 512 limit.
    let (_, result) = run_default(&deep_program(60));
    let codes: Vec<_> = result.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["E0305"]);
    // Just under the limit, the checker walks the whole depth.
    let (sources, result) = run_default(&deep_program(50));
    assert!(
        result.diagnostics.is_empty(),
        "{}",
        zrf::diag::render_plain(&sources, &result.diagnostics)
    );
    assert!(result.games[0].game.is_some());
}
