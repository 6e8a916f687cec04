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
