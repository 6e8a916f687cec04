//! Compiles the bundled sample games into `OUT_DIR` with the build.rs API.

fn main() -> Result<(), zrf::build::BuildError> {
    zrf::build::compile(&[
        "../../zrf-samples/breakthrough.zrf",
        "../../zrf-samples/checkers.zrf",
        "../../zrf-samples/chess.zrf",
        "../../zrf-samples/hopdrop.zrf",
        "../../zrf-samples/tictactoe.zrf",
        // Names and strings that a careless generator would turn into broken or
        // injected Rust.
        "games/hostile.zrf",
    ])
}
