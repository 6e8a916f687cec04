//! Files that are not what they claim, and outputs that must not be clobbered.

use super::{folder, zrfc};

/// Issue 28 item 12: a file without a game gets its own diagnostic and exit 1 from
/// every command.
#[test]
fn a_file_without_a_game_exits_1_everywhere() {
    let dir = folder(&[("macros.zrf", "(define step ($1 add))\n")]);
    for args in [
        &["check", "macros.zrf"][..],
        &["moves", "macros.zrf"],
        &["perft", "macros.zrf", "--depth", "1"],
        &["build", "macros.zrf", "-o", "out"],
    ] {
        zrfc(dir.path(), args).expect(1, "E0312");
    }
}
