//! `zrfc corpus`: the pipeline over a folder of rules files, in parallel, compared with
//! committed expectations (relative path and status only, never file contents).

use std::collections::BTreeMap;
use std::io::{self, IsTerminal};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use super::FrontEndArgs;
use crate::frontend;
use crate::source::SourceMap;

#[derive(Args, Debug)]
pub struct CorpusArgs {
    /// Folder searched recursively for .zrf files.
    dir: PathBuf,
    /// Expectations file (`path<TAB>status` lines) to compare against.
    #[arg(long, value_name = "FILE")]
    expect: Option<PathBuf>,
    /// Write the statuses of this run to the expectations file instead of comparing.
    #[arg(long, requires = "expect")]
    bless: bool,
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    #[command(flatten)]
    front_end: FrontEndArgs,
}

/// Outcome of one file: `ok`, `error:<first error code>`, `io-error` or `panic`.
struct FileResult {
    path: String,
    status: String,
    detail: String,
}

pub fn run(args: &CorpusArgs) -> u8 {
    let files = match find_zrf_files(&args.dir) {
        Ok(files) if files.is_empty() => {
            eprintln!("error: no .zrf files under {}", args.dir.display());
            return 2;
        }
        Ok(files) => files,
        Err(err) => {
            eprintln!("error: cannot read {}: {err}", args.dir.display());
            return 2;
        }
    };
    if let Some(jobs) = args.jobs {
        // Fails only if a pool already exists, which keeps its own size: harmless.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build_global();
    }
    let progress = if io::stderr().is_terminal() {
        let bar = ProgressBar::new(files.len() as u64);
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed} {wide_msg}")
        {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let options = args.front_end.options();
    let mut results: Vec<FileResult> = files
        .par_iter()
        .map(|path| {
            let relative = relative_name(&args.dir, path);
            progress.set_message(relative.clone());
            let result = check_one(path, &options, relative);
            progress.inc(1);
            result
        })
        .collect();
    progress.finish_and_clear();
    results.sort_by(|a, b| a.path.cmp(&b.path));

    for r in &results {
        println!("{:<14} {}{}", r.status, r.path, r.detail);
    }
    let ok = results.iter().filter(|r| r.status == "ok").count();
    println!(
        "{} files: {} ok, {} with errors",
        results.len(),
        ok,
        results.len() - ok
    );

    let Some(expect_path) = &args.expect else {
        println!("{} passed, {} failed", ok, results.len() - ok);
        return u8::from(ok != results.len());
    };
    if args.bless {
        return bless(expect_path, &results);
    }
    let expected = match read_expectations(expect_path) {
        Ok(expected) => expected,
        Err(err) => {
            eprintln!("error: cannot read {}: {err}", expect_path.display());
            return 2;
        }
    };
    compare(&results, &expected)
}

fn check_one(path: &Path, options: &frontend::FrontEndOptions, relative: String) -> FileResult {
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        let mut sources = SourceMap::new();
        frontend::run(path, &crate::syntax::FsLoader, options, &mut sources)
            .map(|front_end| front_end.diagnostics)
    }));
    let (status, detail) = match outcome {
        Err(_) => ("panic".to_string(), String::new()),
        Ok(Err(err)) => ("io-error".to_string(), format!("  {err}")),
        Ok(Ok(diagnostics)) => match diagnostics.iter().find(|d| d.is_error()) {
            None => ("ok".to_string(), String::new()),
            Some(first) => (
                format!("error:{}", first.code),
                format!("  {}", first.message),
            ),
        },
    };
    FileResult {
        path: relative,
        status,
        detail,
    }
}

fn compare(results: &[FileResult], expected: &BTreeMap<String, String>) -> u8 {
    let mut passed = 0;
    let mut failed = 0;
    let mut improved = 0;
    for r in results {
        match expected.get(&r.path) {
            Some(want) if *want == r.status => passed += 1,
            Some(_) if r.status == "ok" => {
                improved += 1;
                passed += 1;
                println!("improved: {} now ok", r.path);
            }
            Some(want) => {
                failed += 1;
                println!("REGRESSION: {} was {want}, now {}", r.path, r.status);
            }
            None => {
                failed += 1;
                println!("NEW: {} ({}) is not in the expectations", r.path, r.status);
            }
        }
    }
    for path in expected.keys() {
        if !results.iter().any(|r| &r.path == path) {
            failed += 1;
            println!("MISSING: {path} is expected but was not found");
        }
    }
    if improved > 0 {
        println!("{improved} files improved: record them with --bless");
    }
    if failed > 0 {
        println!("expectations not met: rerun with --bless only if every change above is intended");
    }
    println!("{passed} passed, {failed} failed");
    u8::from(failed > 0)
}

fn bless(path: &Path, results: &[FileResult]) -> u8 {
    let mut text = String::from(
        "# zrfc corpus expectations: path relative to the corpus folder, then status\n",
    );
    for r in results {
        text.push_str(&format!("{}\t{}\n", r.path, r.status));
    }
    match std::fs::write(path, text) {
        Ok(()) => {
            println!("wrote {} expectations to {}", results.len(), path.display());
            0
        }
        Err(err) => {
            eprintln!("error: cannot write {}: {err}", path.display());
            2
        }
    }
}

fn read_expectations(path: &Path) -> io::Result<BTreeMap<String, String>> {
    let text = std::fs::read_to_string(path)?;
    Ok(text
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .filter_map(|line| line.split_once('\t'))
        .map(|(path, status)| (path.to_string(), status.trim().to_string()))
        .collect())
}

fn find_zrf_files(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            if path.is_dir() {
                pending.push(path);
            } else if path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("zrf"))
            {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

fn relative_name(root: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(root).unwrap_or(path);
    relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}
