//! Compiles the bundled sample games into `OUT_DIR` with the build.rs API, and, when
//! `ZRF_BENCH_CORPUS` names the shared corpus folder, the corpus games the speed targets
//! name, for `benches/perft.rs`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use zrf::build::{write_if_changed, BuildError, Config};

/// The corpus games measured by the perft benchmark: module, file under the corpus
/// folder, game or variant title, and the perft depth measured.
const CORPUS_GAMES: [(&str, &str, &str, u32); 2] = [
    (
        "chess",
        "stepney141-Dagaz/src/debug/games/chess/chess.zrf",
        "Chess",
        6,
    ),
    (
        "english_checkers",
        "DagazProject-ZRF/CheckersCollection/CheckersCollection.zrf",
        "Checkers (English draughts)",
        9,
    ),
];

fn main() -> Result<(), BuildError> {
    zrf::build::compile(&[
        "../../zrf-samples/breakthrough.zrf",
        "../../zrf-samples/checkers.zrf",
        "../../zrf-samples/chess.zrf",
        "../../zrf-samples/hopdrop.zrf",
        "../../zrf-samples/tictactoe.zrf",
        // Names and strings that a careless generator would turn into broken or
        // injected Rust.
        "games/hostile.zrf",
        "games/flags.zrf",
    ])?;
    corpus_games()
}

/// Writes `corpus_games.rs`: a module per corpus game and `GAMES` listing them, or an
/// empty list without `ZRF_BENCH_CORPUS` (an environment variable, not a path looked
/// for, so that builds without the corpus do not rerun this script every time).
fn corpus_games() -> Result<(), BuildError> {
    println!("cargo:rerun-if-env-changed=ZRF_BENCH_CORPUS");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").ok_or(BuildError::NoOutDir)?);
    let mut modules = String::new();
    let mut games = String::new();
    if let Some(corpus) = std::env::var_os("ZRF_BENCH_CORPUS") {
        // Relative to the workspace, where `cargo bench` is run from.
        let corpus = Path::new("../..").join(corpus);
        for (module, file, title, depth) in CORPUS_GAMES {
            // Absolute: the benchmark reads it again from another folder.
            let file = corpus.join(file);
            let file = std::fs::canonicalize(&file).unwrap_or(file);
            println!("cargo:rerun-if-changed={}", file.display());
            // Quiet: the corpus files' own warnings are not this build's business.
            Config::new()
                .out_dir(out_dir.join(module))
                .variant(title)
                .quiet(true)
                .compile(&[&file])?;
            let stem = zrf::build::module_name(&file);
            let _ = writeln!(
                modules,
                "pub mod {module} {{ include!(concat!(env!(\"OUT_DIR\"), \"/{module}/{stem}.rs\")); }}"
            );
            let _ = writeln!(
                games,
                "    CompiledGame {{ file: {file:?}, title: {title:?}, depth: {depth}, perft: |depth| {{ \
                 thread_local! {{ static GAME: zrf_runtime::Engine<{module}::Rules> = {module}::engine(); }} \
                 GAME.with(|game| zrf_search::perft(game, &game.start(), depth)) }}, \
                 search: |limits| zrf_play::driver::measure_search(&{module}::engine(), limits), \
                 playouts: |seconds| zrf_play::driver::measure_playouts(&{module}::engine(), seconds) }},",
                file = file.display().to_string(),
            );
        }
    }
    let listing = format!("{modules}\npub const GAMES: &[CompiledGame] = &[\n{games}];\n");
    write_if_changed(&out_dir.join("corpus_games.rs"), &listing)?;
    Ok(())
}
