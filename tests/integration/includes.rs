//! Include resolution: relative to the including file, then search paths; cycles and
//! missing files reported at the `include` form.

use crate::{load_memory, rendered, snapshot_settings};

fn names(sources: &zrf::source::SourceMap, loaded: &zrf::syntax::Loaded) -> Vec<String> {
    loaded
        .files
        .iter()
        .map(|f| sources.file(f.file).name().to_string())
        .collect()
}

#[test]
fn include_resolves_next_to_the_including_file() {
    let (sources, loaded) = load_memory(
        &[
            (
                "games/main.zrf",
                b"(include \"lib/moves.zrf\")\n(game (title \"g\"))",
            ),
            (
                "games/lib/moves.zrf",
                b"(include \"..\\common.zrf\")\n(define a (b))",
            ),
            ("games/common.zrf", b"(define c (d))"),
        ],
        "games/main.zrf",
        &[],
    );
    assert!(loaded.errors.is_empty(), "{}", rendered(&sources, &loaded));
    assert_eq!(
        names(&sources, &loaded),
        ["games/main.zrf", "games/lib/moves.zrf", "games/common.zrf"]
    );
    assert_eq!(loaded.includes.len(), 2);
    let first_include = loaded.files[0].forms[0].span;
    assert_eq!(
        loaded.include_target(first_include),
        Some(loaded.files[1].file)
    );
}

#[test]
fn include_falls_back_to_search_paths_in_order() {
    let (sources, loaded) = load_memory(
        &[
            ("levels/one.zrf", b"(include \"sokoban.inc\")"),
            ("first/sokoban.inc", b"(define from-first)"),
            ("second/sokoban.inc", b"(define from-second)"),
        ],
        "levels/one.zrf",
        &["first", "second"],
    );
    assert!(loaded.errors.is_empty());
    assert_eq!(
        names(&sources, &loaded),
        ["levels/one.zrf", "first/sokoban.inc"]
    );
}

#[test]
fn a_file_included_twice_is_read_once() {
    let (sources, loaded) = load_memory(
        &[
            ("main.zrf", b"(include \"a.zrf\") (include \"b.zrf\")"),
            ("a.zrf", b"(include \"common.zrf\")"),
            ("b.zrf", b"(include \"common.zrf\")"),
            ("common.zrf", b"(define x)"),
        ],
        "main.zrf",
        &[],
    );
    assert!(loaded.errors.is_empty());
    assert_eq!(
        names(&sources, &loaded),
        ["main.zrf", "a.zrf", "common.zrf", "b.zrf"]
    );
    assert_eq!(loaded.includes.len(), 4);
}

#[test]
fn include_cycle_is_reported_at_the_include_form() {
    let (sources, loaded) = load_memory(
        &[
            ("main.zrf", b"(include \"a.zrf\")\n(game (title \"g\"))"),
            ("a.zrf", b"(define x)\n(include \"b.zrf\")"),
            ("b.zrf", b"(include \"a.zrf\")"),
        ],
        "main.zrf",
        &[],
    );
    snapshot_settings().bind(|| {
        insta::assert_snapshot!(rendered(&sources, &loaded));
    });
}

#[test]
fn missing_include_lists_every_place_searched() {
    let (sources, loaded) = load_memory(
        &[(
            "rules/levels.zrf",
            b"(game (title \"x\"))\n(include \"sokoban.inc\")\n",
        )],
        "rules/levels.zrf",
        &["extra"],
    );
    snapshot_settings().bind(|| {
        insta::assert_snapshot!(rendered(&sources, &loaded));
    });
}

#[test]
fn syntax_errors_in_included_files_are_reported_in_those_files() {
    let (sources, loaded) = load_memory(
        &[
            ("main.zrf", b"(include \"lib.zrf\")\n(game)"),
            ("lib.zrf", b"(define x\n"),
        ],
        "main.zrf",
        &[],
    );
    snapshot_settings().bind(|| {
        insta::assert_snapshot!(rendered(&sources, &loaded));
    });
}
