//! The README's recipe for embedding a game, followed literally in a crate outside this
//! workspace: the files it shows (marked `<!-- embed: PATH -->`) are written as they
//! are, with `ZRF` standing for this repository, and the crate is built and run; before
//! that, a rules file with an error shows what a build script prints for it.

use std::path::Path;
use std::process::{Command, Output};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The files of the README's recipe: each `<!-- embed: PATH -->` line and the fenced
/// block after it.
fn readme_files() -> Vec<(String, String)> {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).expect("README");
    let mut files = Vec::new();
    let mut lines = readme.lines();
    while let Some(line) = lines.next() {
        let Some(path) = line
            .strip_prefix("<!-- embed: ")
            .and_then(|rest| rest.strip_suffix(" -->"))
        else {
            continue;
        };
        let fence = lines.next().expect("a fenced block after the embed marker");
        assert!(
            fence.starts_with("```"),
            "{path}: no code block after its marker"
        );
        let body: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
        files.push((path.to_string(), body.join("\n") + "\n"));
    }
    files
}

fn cargo(crate_dir: &Path, args: &[&str]) -> Output {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(args)
        .current_dir(crate_dir)
        // Its own target folder, kept between runs so that later runs only relink; not
        // the one `cargo test` holds locked.
        .env(
            "CARGO_TARGET_DIR",
            Path::new(ROOT).join("target/readme-crate"),
        )
        .env("CARGO_TERM_COLOR", "never")
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs")
}

/// What the failed build script printed, from Cargo's report of it, with the folder of
/// the crate and the Cargo-chosen paths taken out.
fn build_script_output(stderr: &str, crate_dir: &Path) -> String {
    let from = stderr
        .find("--- stdout")
        .expect("Cargo shows the build script's output");
    stderr[from..]
        .lines()
        .map(|line| line.replace(&crate_dir.display().to_string(), "[CRATE]"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn readme_recipe_builds_and_runs_outside_the_workspace() {
    let files = readme_files();
    let names: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(names, ["Cargo.toml", "build.rs", "src/main.rs"]);
    let dir = tempfile::tempdir().expect("temporary folder");
    let crate_dir = dir.path();
    for (path, text) in &files {
        let text = text.replace("\"ZRF", &format!("\"{ROOT}"));
        let target = crate_dir.join(path);
        std::fs::create_dir_all(target.parent().expect("a folder")).expect("folder");
        std::fs::write(target, text).expect("written");
    }
    // The versions this workspace was tested with (and built already, for speed).
    std::fs::copy(
        Path::new(ROOT).join("Cargo.lock"),
        crate_dir.join("Cargo.lock"),
    )
    .expect("lock file");
    std::fs::create_dir_all(crate_dir.join("games")).expect("games folder");
    let rules = crate_dir.join("games/chess.zrf");

    // A misspelt keyword: the build stops with the diagnostic in full and one line of
    // `Error:`.
    let chess =
        std::fs::read_to_string(Path::new(ROOT).join("zrf-samples/chess.zrf")).expect("sample");
    assert!(chess.contains("(turn-order"));
    std::fs::write(&rules, chess.replacen("(turn-order", "(turn-ordre", 1)).expect("rules");
    let failed = cargo(crate_dir, &["build", "--quiet"]);
    assert!(!failed.status.success(), "the build should fail");
    let shown = build_script_output(&String::from_utf8_lossy(&failed.stderr), crate_dir);
    crate::snapshot_settings().bind(|| insta::assert_snapshot!("build_script_error", shown));

    // Warnings: one Cargo warning each, on one line with its place.
    let warned = chess.replacen(
        "(turn-order",
        "(option \"made-up\" true) (option \"also-made-up\" true) (turn-order",
        1,
    );
    std::fs::write(&rules, warned).expect("rules");
    let built = cargo(crate_dir, &["build"]);
    let stderr = String::from_utf8_lossy(&built.stderr);
    assert!(built.status.success(), "{stderr}");
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("warning: my-games@0.1.0: "))
        .collect();
    assert_eq!(
        warnings,
        [
            "warning: my-games@0.1.0: games/chess.zrf:48:12: warning[W0402]: unknown option \"made-up\"",
            "warning: my-games@0.1.0: games/chess.zrf:48:36: warning[W0402]: unknown option \"also-made-up\"",
        ],
        "{stderr}"
    );

    std::fs::write(&rules, &chess).expect("rules");
    let run = cargo(crate_dir, &["run", "--quiet"]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "cargo run failed:\n{stderr}");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 5, "{stdout}");
    assert_eq!(lines[0], "Chess");
    for line in &lines[1..] {
        assert!(line.contains(" - "), "not a move in notation: {line}");
    }
}
