//! The registry of diagnostic codes (`zrf::diag::codes`, `zrfc explain`): every code the
//! compiler uses is explained, each in one stage only, and each example gets its code.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use zrf::diag::codes::{lookup, CODES};

/// Each code literal in `src/` (`"E0101"`), with the files it is written in.
fn codes_used() -> BTreeMap<String, Vec<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut used: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for path in crate::files_under(&root.join("src")) {
        if path.extension().is_none_or(|e| e != "rs") || path.ends_with("diag/codes.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
        let bytes = text.as_bytes();
        for start in 0..bytes.len().saturating_sub(6) {
            let quoted = &bytes[start..start + 7];
            let is_code = quoted[0] == b'"'
                && (quoted[1] == b'E' || quoted[1] == b'W')
                && quoted[2..6].iter().all(u8::is_ascii_digit)
                && quoted[6] == b'"';
            if is_code {
                let code = String::from_utf8_lossy(&quoted[1..6]).into_owned();
                let file = path
                    .strip_prefix(root)
                    .unwrap_or(&path)
                    .display()
                    .to_string();
                let files = used.entry(code).or_default();
                if !files.contains(&file) {
                    files.push(file);
                }
            }
        }
    }
    used
}

#[test]
fn every_code_used_is_explained_once_and_every_entry_is_used() {
    let used = codes_used();
    assert!(used.len() > 30, "{used:?}");
    for (code, files) in &used {
        assert!(
            lookup(code).is_some(),
            "{code} ({files:?}) has no entry in diag::codes"
        );
        assert_eq!(
            files.len(),
            1,
            "{code} is used in several stages: {files:?}"
        );
    }
    let mut seen = Vec::new();
    for entry in CODES {
        assert!(
            !seen.contains(&entry.code),
            "{} is registered twice",
            entry.code
        );
        seen.push(entry.code);
        assert!(
            used.contains_key(entry.code),
            "{} is registered but never used",
            entry.code
        );
        assert!(
            !entry.title.is_empty() && entry.explanation.len() > 40,
            "{}",
            entry.code
        );
    }
}

#[test]
fn each_example_gets_its_code() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (mut tried, mut wrong) = (0, Vec::new());
    for entry in CODES {
        let Some(example) = entry.example else {
            continue;
        };
        let file = dir.path().join(format!("{}.zrf", entry.code));
        std::fs::write(&file, example).unwrap_or_else(|e| panic!("{e}"));
        let out = Command::new(env!("CARGO_BIN_EXE_zrfc"))
            .args(["check", "--message-format", "json"])
            .arg(&file)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let stdout = String::from_utf8_lossy(&out.stdout);
        if !stdout.contains(&format!("\"code\":\"{}\"", entry.code)) {
            wrong.push(format!("{}: {stdout}", entry.code));
        }
        tried += 1;
    }
    assert!(
        wrong.is_empty(),
        "examples without their code:\n{}",
        wrong.join("\n")
    );
    assert!(tried >= 20, "{tried} examples");
}

#[test]
fn explain_prints_an_entry_and_refuses_an_unknown_code() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_zrfc"))
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let out = run(&["explain", "e0309"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("E0309: unknown top-level form\n\nA file holds"),
        "{text}"
    );
    assert!(text.contains("    (gmae (title \"Typo\"))"), "{text}");
    let listed = run(&["explain"]);
    assert_eq!(
        String::from_utf8_lossy(&listed.stdout).lines().count(),
        CODES.len()
    );
    let unknown = run(&["explain", "E9999"]);
    assert_eq!(unknown.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&unknown.stderr),
        "error: no diagnostic code `E9999`; `zrfc explain` lists them\n"
    );
}
