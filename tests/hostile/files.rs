//! Files that are not what they claim, and outputs that must not be clobbered.

use std::io::Read as _;

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

/// Issue 28 item 5: files and input streams that never end are read only up to a limit
/// (a device that never ends is refused before reading: issue 44).
#[test]
fn endless_files_and_input_are_read_up_to_a_limit() {
    let dir = folder(&[("game.zrf", &super::game(""))]);
    zrfc(dir.path(), &["replay", "/dev/zero"]).expect(2, "/dev/zero: a device, not a file");
    let pagemap = folder(&[("pagemap.zrf", "(include \"/proc/self/pagemap\")\n")]);
    let ran = zrfc(
        pagemap.path(),
        &["check", "pagemap.zrf", "--include-anywhere"],
    );
    assert_eq!(ran.code, Some(1), "{}", ran.stderr_head());
    let mut zeros = std::io::repeat(0).take(64 << 20);
    let ran = super::zrfc_in(
        dir.path(),
        &["play", "game.zrf", "--human", "White", "--save", "out.zsg"],
        Some(&mut zeros),
    );
    assert_eq!(ran.code, Some(0), "{}", ran.stderr_head());
}

/// Issue 28 item 6: includes stay under the rules' folders; absolute paths and `..`
/// out of them are refused without reading the file (its lines would be echoed).
#[test]
fn includes_outside_the_rules_folders_are_refused() {
    let dir = folder(&[
        ("rules/abs.zrf", "(include \"/proc/self/environ\")\n"),
        ("rules/up.zrf", "(include \"../secret.zrf\")\n"),
        ("secret.zrf", "(define secret-marker 1)\n"),
    ]);
    let rules = dir.path().join("rules");
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_zrfc"));
    let ran = command
        .args(["check", "abs.zrf"])
        .current_dir(&rules)
        .env("HOSTILE_SECRET", "do-not-print-me")
        .output()
        .expect("zrfc runs");
    let stderr = String::from_utf8_lossy(&ran.stderr);
    assert_eq!(ran.status.code(), Some(1));
    assert!(stderr.contains("error[E0205]"), "{stderr}");
    assert!(!stderr.contains("do-not-print-me"), "{stderr}");
    zrfc(&rules, &["check", "up.zrf"]).expect(1, "error[E0205]: included file `../secret.zrf`");
    // Allowed on request, and from an `-I` folder.
    let anywhere = zrfc(&rules, &["check", "up.zrf", "--include-anywhere"]);
    assert!(
        !anywhere.stderr.contains("E0205"),
        "{}",
        anywhere.stderr_head()
    );
    let searched = zrfc(&rules, &["check", "up.zrf", "-I", ".."]);
    assert!(
        !searched.stderr.contains("E0205"),
        "{}",
        searched.stderr_head()
    );
}

/// Issue 28 item 6: `../../lib.zrf` from a root named without a folder is two folders
/// up, not `./lib.zrf`.
#[test]
fn parent_folders_in_includes_are_not_cancelled_by_each_other() {
    let dir = folder(&[
        ("main.zrf", "(include \"../../lib.zrf\")\n"),
        ("lib.zrf", "(define x 1)\n"),
    ]);
    let ran = zrfc(dir.path(), &["check", "main.zrf", "--include-anywhere"]);
    ran.expect(1, "error[E0202]: included file `../../lib.zrf` not found");
    assert!(
        ran.stderr.contains("looked for ../../lib.zrf"),
        "{}",
        ran.stderr_head()
    );
}

/// Issue 28 item 7: `build -o` leaves alone files it did not write and links, unless
/// `--force`; inputs that would share an output are reported.
#[test]
fn build_replaces_only_its_own_files() {
    let dir = folder(&[
        ("game.zrf", &super::game("")),
        ("mine/Cargo.toml", "[package]\nname = \"mine\"\n"),
        ("victim.txt", "precious\n"),
    ]);
    let ran = zrfc(dir.path(), &["build", "game.zrf", "-o", "mine"]);
    ran.expect(2, "a file not written by zrfc is there");
    let kept = std::fs::read_to_string(dir.path().join("mine/Cargo.toml")).expect("kept");
    assert_eq!(kept, "[package]\nname = \"mine\"\n");
    zrfc(dir.path(), &["build", "game.zrf", "-o", "mine", "--force"]).expect(0, "next:");
    // Its own files it updates freely.
    zrfc(dir.path(), &["build", "game.zrf", "-o", "mine"]).expect(0, "next:");

    std::fs::create_dir_all(dir.path().join("linked/src")).expect("folder");
    std::os::unix::fs::symlink(
        dir.path().join("victim.txt"),
        dir.path().join("linked/src/lib.rs"),
    )
    .expect("link");
    zrfc(dir.path(), &["build", "game.zrf", "-o", "linked"]).expect(2, "a symbolic link is there");
    let victim = std::fs::read_to_string(dir.path().join("victim.txt")).expect("victim");
    assert_eq!(victim, "precious\n");

    let twins = folder(&[("a-1.zrf", &super::game("")), ("a_1.zrf", &super::game(""))]);
    let ran = zrfc(twins.path(), &["build", "a-1.zrf", "a_1.zrf", "-o", "out"]);
    ran.expect(2, "a-1.zrf and a_1.zrf would both be written to out/a-1");
    assert!(ran.stdout.contains("1 built, 1 failed"), "{}", ran.stdout);
}

/// Issue 28 item 7: a saved game goes to a free name rather than over a file or
/// through a link (even a dangling one).
#[test]
fn saved_games_never_overwrite_or_follow_links() {
    let dir = folder(&[("game.zrf", &super::game("")), ("mine.zsg", "my game\n")]);
    let ran = zrfc(
        dir.path(),
        &["play", "game.zrf", "--save", "mine.zsg", "--max-turns", "2"],
    );
    assert_eq!(ran.code, Some(0), "{}", ran.stderr_head());
    assert!(ran.stdout.contains("to mine-2.zsg"), "{}", ran.stdout);
    let kept = std::fs::read_to_string(dir.path().join("mine.zsg")).expect("kept");
    assert_eq!(kept, "my game\n");

    std::os::unix::fs::symlink(
        dir.path().join("elsewhere.zsg"),
        dir.path().join("game.zsg"),
    )
    .expect("link");
    let ran = zrfc(
        dir.path(),
        &["play", "game.zrf", "--max-turns", "2", "--save", "game.zsg"],
    );
    assert_eq!(ran.code, Some(0), "{}", ran.stderr_head());
    assert!(ran.stdout.contains("to game-2.zsg"), "{}", ran.stdout);
    assert!(!dir.path().join("elsewhere.zsg").exists());
}

/// Issue 44: `play` saves only when asked, and never a game of no moves.
#[test]
fn play_saves_only_when_asked_and_never_an_empty_game() {
    let dir = folder(&[("game.zrf", &super::game(""))]);
    let saved = |dir: &std::path::Path| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("listed")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(".zsg"))
            .collect();
        names.sort();
        names
    };
    let ran = zrfc(dir.path(), &["play", "game.zrf", "--max-turns", "2"]);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr_head());
    let ran = zrfc(
        dir.path(),
        &["play", "game.zrf", "--max-turns", "2", "--no-save"],
    );
    assert_eq!(ran.code, Some(0), "{}", ran.stderr_head());
    assert_eq!(saved(dir.path()), Vec::<String>::new());
    let ran = zrfc(
        dir.path(),
        &["play", "game.zrf", "--max-turns", "0", "--save", "x.zsg"],
    );
    assert_eq!(ran.code, Some(0), "{}", ran.stderr_head());
    assert!(
        ran.stdout
            .contains("no move was played: nothing saved to x.zsg"),
        "{}",
        ran.stdout
    );
    assert_eq!(saved(dir.path()), Vec::<String>::new());
}

/// Issue 44: a directory, a named pipe or a device given as a file is named for what
/// it is and refused at once (a pipe would block reading, a device never end).
#[test]
fn directories_pipes_and_devices_are_refused_as_files() {
    let dir = folder(&[("game.zrf", &super::game(""))]);
    std::fs::create_dir(dir.path().join("folder.zrf")).expect("a folder");
    let fifo = dir.path().join("pipe.zsg");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    zrfc(dir.path(), &["check", "folder.zrf"]).expect(2, "folder.zrf: a directory, not a file");
    zrfc(dir.path(), &["replay", "pipe.zsg", "--rules", "game.zrf"])
        .expect(2, "pipe.zsg: a named pipe (FIFO), not a file");
    zrfc(dir.path(), &["check", "pipe.zsg"]).expect(2, "pipe.zsg: a named pipe (FIFO), not a file");
    zrfc(dir.path(), &["check", "/dev/zero"]).expect(2, "/dev/zero: a device, not a file");
    zrfc(dir.path(), &["replay", "/dev/zero"]).expect(2, "/dev/zero: a device, not a file");
}
