//! The bundled sample games, compiled from their `.zrf` files at build time by
//! `zrf::build::compile` (see `build.rs`). Each module is one game: `chess::engine()` is
//! a [`zrf_runtime::Engine`] ready for `zrf_search::perft` or a playing program.

pub mod breakthrough {
    zrf_runtime::include_game!("breakthrough");
}

pub mod checkers {
    zrf_runtime::include_game!("checkers");
}

pub mod chess {
    zrf_runtime::include_game!("chess");
}

/// `games/flags.zrf`: flags, attributes and position flags set to values the run
/// works out itself.
pub mod flags {
    zrf_runtime::include_game!("flags");
}

/// `games/hostile.zrf`: awkward names and strings, compiled like any other game.
pub mod hostile {
    zrf_runtime::include_game!("hostile");
}

pub mod hopdrop {
    zrf_runtime::include_game!("hopdrop");
}

pub mod tictactoe {
    zrf_runtime::include_game!("tictactoe");
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
        /// Perft from the start to a depth, on an engine built by the thread's first
        /// call and kept, so that a benchmark times the perft alone.
        pub perft: fn(u32) -> u64,
        /// Alpha-beta from the start within the limits: the last iteration completed.
        pub search: fn(zrf_search::Limits) -> Option<zrf_search::Iteration>,
        /// Random games from the start for about so many seconds.
        pub playouts: fn(f64) -> zrf_play::driver::PlayoutSpeed,
    }

    zrf_runtime::include_game!("corpus_games");
}
