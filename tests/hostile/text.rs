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
    // The file printed back, before and after expansion, shows them escaped too.
    let printed = zrfc(dir.path(), &["parse", "hostile.zrf", "--print"]);
    assert_eq!(printed.code, Some(0), "{}", printed.stderr_head());
    clean(&printed);
    assert!(
        printed.stdout.contains("ansi \\u{1b}[2J"),
        "{}",
        printed.stdout
    );

    let fixed = text.replacen(&format!("(bad-section {esc}x)"), "", 1);
    std::fs::write(dir.path().join("hostile.zrf"), fixed).expect("rules");
    for args in [
        &["info", "hostile.zrf"][..],
        &["perft", "hostile.zrf", "--depth", "1"],
        &["check", "hostile.zrf", "--list"],
        &["eval", "hostile.zrf"],
        &["expand", "hostile.zrf"],
        &["ir", "hostile.zrf"],
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

/// Line and paragraph separators (U+2028, U+2029), which editors show as line breaks,
/// stay out of generated comments and the package description, escaped.
#[test]
fn line_separators_in_titles_are_escaped_in_generated_code() {
    let text = game("").replacen(
        "(title \"Hostile\")",
        "(title \"One\u{2028}Two\u{2029}\")",
        1,
    );
    let dir = folder(&[("hostile.zrf", &text)]);
    let built = zrfc(dir.path(), &["build", "hostile.zrf", "-o", "engine"]);
    assert_eq!(built.code, Some(0), "{}", built.stderr_head());
    for file in ["engine/src/lib.rs", "engine/Cargo.toml"] {
        let generated = std::fs::read_to_string(dir.path().join(file)).expect("generated");
        assert!(
            !generated.contains('\u{2028}') && !generated.contains('\u{2029}'),
            "{file}: {generated}"
        );
    }
    let lib = std::fs::read_to_string(dir.path().join("engine/src/lib.rs")).expect("lib.rs");
    assert!(lib.contains("// game: One\\u{2028}Two\\u{2029}\n"), "{lib}");
}
