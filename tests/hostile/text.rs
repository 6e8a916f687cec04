//! Names and text that would reach terminals and generated code.

use super::{folder, game, zrfc};

/// Issue 28 item 8: escape sequences and text-direction controls in titles, names,
/// descriptions and source lines never reach the terminal raw.
#[test]
fn control_characters_reach_terminals_only_escaped() {
    // No `;`: it starts a comment in rules files.
    let esc = "\u{1b}[2J\u{1b}[31mred\u{7}";
    let text = game(&format!(
        "(description \"ansi {esc} here\")\n(bad-section {esc}x)"
    ))
    .replacen(
        "(title \"Hostile\")",
        &format!("(title \"T{esc}\u{202e}\")"),
        1,
    );
    let dir = folder(&[("hostile.zrf", &text)]);
    let clean = |ran: &super::Ran| {
        for stream in [&ran.stdout, &ran.stderr] {
            assert!(!stream.contains('\u{1b}'), "ESC printed raw: {stream:?}");
            assert!(!stream.contains('\u{7}'), "BEL printed raw: {stream:?}");
            assert!(
                !stream.contains('\u{202e}'),
                "U+202E printed raw: {stream:?}"
            );
        }
    };
    let checked = zrfc(dir.path(), &["check", "hostile.zrf", "--list"]);
    checked.expect(1, "error[E0401]");
    clean(&checked);

    let fixed = text.replacen(&format!("(bad-section {esc}x)"), "", 1);
    std::fs::write(dir.path().join("hostile.zrf"), fixed).expect("rules");
    for args in [
        &["info", "hostile.zrf"][..],
        &["perft", "hostile.zrf", "--depth", "1"],
        &["check", "hostile.zrf", "--list"],
        &["eval", "hostile.zrf"],
    ] {
        let ran = zrfc(dir.path(), args);
        assert_eq!(ran.code, Some(0), "{args:?}: {}", ran.stderr_head());
        clean(&ran);
    }
    let info = zrfc(dir.path(), &["info", "hostile.zrf"]);
    assert!(
        info.stdout
            .contains("T\\u{1b}[2J\\u{1b}[31mred\\u{7}\\u{202e}"),
        "{}",
        info.stdout
    );
}
