//! Macro expansion and variant inheritance, asserted on exact printed output.

use std::path::Path;

use zrf::expand::Expanded;
use zrf::frontend::{self, FrontEndOptions};
use zrf::source::SourceMap;
use zrf::syntax::{self, MemoryLoader};

fn front_end(text: &str, options: &FrontEndOptions) -> (SourceMap, Expanded, Vec<String>) {
    let mut loader = MemoryLoader::new();
    loader.insert("t.zrf", text.as_bytes());
    let mut sources = SourceMap::new();
    let result = frontend::run(Path::new("t.zrf"), &loader, options, &mut sources)
        .unwrap_or_else(|e| panic!("{e}"));
    let expanded = result
        .expanded
        .unwrap_or_else(|| panic!("syntax errors in {text}"));
    // Only the expansion stage's own diagnostics: these games are not meant to check.
    let codes = expanded
        .errors
        .iter()
        .map(|e| e.to_diagnostic(&expanded).code.to_string())
        .collect();
    (sources, expanded, codes)
}

/// The expanded top-level forms, printed one per line (flat).
fn expanded_forms(text: &str) -> (String, Vec<String>) {
    let (_, expanded, codes) = front_end(text, &FrontEndOptions::default());
    let nodes: Vec<_> = expanded
        .forms
        .iter()
        .map(|f| f.to_node(&expanded.interner))
        .collect();
    (syntax::to_zrf(&nodes), codes)
}

/// Every game and variant, printed with its merged sections.
fn games(text: &str) -> (Vec<String>, Vec<String>) {
    let (_, expanded, codes) = front_end(text, &FrontEndOptions::default());
    let printed = (0..expanded.games.len())
        .map(|g| syntax::to_zrf(&[expanded.game_as_node(g)]))
        .collect();
    (printed, codes)
}

#[test]
fn calls_splice_body_items_and_substitute_whole_atoms() {
    let (out, codes) = expanded_forms(
        "(define step ($1 (verify empty?) add))\n(define two (a) (b $1))\n(game (title \"t\") (moves (step n) (two x)))",
    );
    assert_eq!(
        out,
        "(game (title \"t\") (moves (n (verify empty?) add) (a) (b x)))\n"
    );
    assert!(codes.is_empty(), "{codes:?}");
}

#[test]
fn parameters_paste_into_atoms_and_strings() {
    let (out, _) = expanded_forms(
        "(define img (image $1 \"images/$1$2.bmp\" t-$1 $1-01))\n(game (title \"t\") (img Red 7))",
    );
    assert_eq!(
        out,
        "(game (title \"t\") (image Red \"images/Red7.bmp\" t-Red Red-01))\n"
    );
}

#[test]
fn missing_parameters_come_from_the_enclosing_call() {
    let (out, codes) = expanded_forms(
        "(define body (step $1 $2))\n(define outer (body))\n(define mid (outer z))\n\
         (game (title \"t\") (outer e w) (mid q r))",
    );
    // In `(mid q r)`: `$1` comes from `(outer z)`, `$2` from `(mid q r)`, two calls out.
    assert_eq!(out, "(game (title \"t\") (step e w) (step z r))\n");
    assert!(codes.is_empty());
}

#[test]
fn macros_are_visible_before_their_definition_and_the_last_one_wins() {
    let (out, codes) =
        expanded_forms("(game (title \"t\") (m))\n(define m (first))\n(define m (second))");
    assert_eq!(out, "(game (title \"t\") (second))\n");
    assert_eq!(codes, ["W0301"]);
}

#[test]
fn list_arguments_replace_whole_atoms_and_cannot_be_pasted() {
    let (out, codes) =
        expanded_forms("(define w (while $1 x-$1))\n(game (title \"t\") (w (empty? n)))");
    assert_eq!(out, "(game (title \"t\") (while (empty? n) x-))\n");
    assert_eq!(codes, ["E0306"]);
}

#[test]
fn a_bare_macro_name_is_not_a_call() {
    let (out, _) = expanded_forms("(define add (x))\n(game (title \"t\") (moves (add) add))");
    assert_eq!(out, "(game (title \"t\") (moves (x) add))\n");
}

#[test]
fn includes_are_spliced_and_their_definitions_used() {
    let mut loader = MemoryLoader::new();
    loader.insert(
        "main.zrf",
        "(include \"lib.zrf\")\n(game (title \"g\") (lib-piece))".as_bytes(),
    );
    loader.insert(
        "lib.zrf",
        "(define lib-piece (piece (name Man)))".as_bytes(),
    );
    let mut sources = SourceMap::new();
    let result = frontend::run(
        Path::new("main.zrf"),
        &loader,
        &FrontEndOptions::default(),
        &mut sources,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let expanded = result.expanded.unwrap_or_else(|| panic!("no expansion"));
    let nodes: Vec<_> = expanded
        .forms
        .iter()
        .map(|f| f.to_node(&expanded.interner))
        .collect();
    assert_eq!(
        syntax::to_zrf(&nodes),
        "(game (title \"g\") (piece (name Man)))\n"
    );
}

#[test]
fn recursion_and_exponential_macros_stop_with_errors() {
    let (_, _, codes) = front_end(
        "(define r (x (r)))\n(game (title \"t\") (r))",
        &FrontEndOptions::default(),
    );
    assert_eq!(codes, ["E0303"]);
    let bomb = "(define a0 (x))\n".to_string()
        + &(1..40)
            .map(|i| format!("(define a{i} (a{}) (a{}))\n", i - 1, i - 1))
            .collect::<String>()
        + "(game (title \"t\") (a39))";
    let mut options = FrontEndOptions::default();
    options.expand.max_nodes = 100_000;
    let (_, expanded, codes) = front_end(&bomb, &options);
    assert_eq!(codes, ["E0304"]);
    assert!(
        expanded.created_nodes <= 100_001,
        "{}",
        expanded.created_nodes
    );
}

#[test]
fn variants_merge_pieces_by_name_and_replace_sections() {
    let (printed, codes) = games(
        "(game (title \"G\") (players A B) (piece (name P) (moves a)) (piece (name Q))
               (option \"pass turn\" false) (option \"animate captures\" true)
               (board (grid)) (loss-condition (A B) stalemated))
         (variant (title \"V\") (piece (name P) (moves b)) (piece (name R))
               (option \"pass-turn\" true) (players X Y))
         (variant (title \"-\"))
         (variant (title \"W\") (default) (win-condition (A B) stalemated) (board (grid 2)))",
    );
    assert!(codes.is_empty(), "{codes:?}");
    assert_eq!(
        printed,
        [
            "(game\n  (title \"G\")\n  (players A B)\n  (piece (name P) (moves a))\n  (piece (name Q))\n  \
             (option \"pass turn\" false)\n  (option \"animate captures\" true)\n  (board (grid))\n  \
             (loss-condition (A B) stalemated))\n",
            "(game\n  (title \"V\")\n  (players X Y)\n  (piece (name P) (moves b))\n  (piece (name Q))\n  \
             (option \"pass-turn\" true)\n  (option \"animate captures\" true)\n  (board (grid))\n  \
             (loss-condition (A B) stalemated)\n  (piece (name R)))\n",
            "(game\n  (title \"W\")\n  (players A B)\n  (piece (name P) (moves a))\n  (piece (name Q))\n  \
             (option \"pass turn\" false)\n  (option \"animate captures\" true)\n  (board (grid 2))\n  \
             (default)\n  (win-condition (A B) stalemated))\n",
        ]
    );
}

#[test]
fn variants_before_the_game_inherit_from_the_next_game() {
    let (_, expanded, codes) = front_end(
        "(variant (title \"Early\") (players C))\n(game (title \"G1\") (players A))\n\
         (variant (title \"V1\"))\n(game (title \"G2\") (players B))\n(variant (title \"V2\"))",
        &FrontEndOptions::default(),
    );
    assert!(codes.is_empty());
    let bases: Vec<_> = expanded
        .games
        .iter()
        .map(|g| {
            (
                expanded.name(g.title.unwrap_or_else(|| panic!("title"))),
                g.base,
            )
        })
        .collect();
    assert_eq!(
        bases,
        [
            ("Early", Some(1)),
            ("G1", None),
            ("V1", Some(1)),
            ("G2", None),
            ("V2", Some(3))
        ]
    );
}

#[test]
fn a_call_depth_limit_above_the_ceiling_stops_at_the_ceiling_without_overflowing() {
    let options = FrontEndOptions {
        expand: zrf::expand::ExpandOptions {
            max_call_depth: 100_000,
            ..Default::default()
        },
        ..Default::default()
    };
    // Run on a thread of the smallest stack tests get: the ceiling must fit there.
    let codes = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || front_end("(define r (r $1))\n(game (title \"R\") (r x))\n", &options).2)
        .unwrap_or_else(|e| panic!("{e}"))
        .join()
        .unwrap_or_else(|_| panic!("expansion panicked"));
    assert_eq!(codes, ["E0303"]);
}
