//! Helpers shared by the benchmarks.

use std::path::{Path, PathBuf};

/// Every `.zrf` and `.inc` file below `dir`.
pub fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "zrf" || e == "inc") {
            out.push(path);
        }
    }
}
