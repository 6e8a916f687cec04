//! The bundled sample games, compiled from their `.zrf` files at build time by
//! `zrf::build::compile` (see `build.rs`). Each module is one game: `chess::engine()` is
//! a [`zrf_runtime::Engine`] ready for `zrf_search::perft` or a playing program.

pub mod breakthrough {
    include!(concat!(env!("OUT_DIR"), "/breakthrough.rs"));
}

pub mod checkers {
    include!(concat!(env!("OUT_DIR"), "/checkers.rs"));
}

pub mod chess {
    include!(concat!(env!("OUT_DIR"), "/chess.rs"));
}

/// `games/flags.zrf`: flags, attributes and position flags set to values the run
/// works out itself.
pub mod flags {
    include!(concat!(env!("OUT_DIR"), "/flags.rs"));
}

/// `games/hostile.zrf`: awkward names and strings, compiled like any other game.
pub mod hostile {
    include!(concat!(env!("OUT_DIR"), "/hostile.rs"));
}

pub mod hopdrop {
    include!(concat!(env!("OUT_DIR"), "/hopdrop.rs"));
}

pub mod tictactoe {
    include!(concat!(env!("OUT_DIR"), "/tictactoe.rs"));
}

/// Corpus games for `benches/perft.rs`, compiled when the build runs with
/// `ZRF_BENCH_CORPUS` set to the shared corpus folder (relative to the workspace); empty
/// otherwise, as the corpus is not part of this repository.
pub mod corpus {
    /// A compiled corpus game and a perft from its start position.
    pub struct CompiledGame {
        /// The rules file, as the build found it.
        pub file: &'static str,
        pub title: &'static str,
        /// The depth the benchmark measures.
        pub depth: u32,
        pub perft: fn(u32) -> u64,
        /// Alpha-beta from the start within the limits: the last iteration completed.
        pub search: fn(zrf_search::Limits) -> Option<zrf_search::Iteration>,
        /// Random games from the start for about so many seconds.
        pub playouts: fn(f64) -> zrf_search::driver::PlayoutSpeed,
    }

    include!(concat!(env!("OUT_DIR"), "/corpus_games.rs"));
}
