//! `zrfc build`: rules files to compiled engines, as Cargo packages or single modules.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use super::progress_bar;
use crate::build::{self, Config, PackageOptions, RuntimeDependency, Selection};

#[derive(Args, Debug)]
pub struct BuildArgs {
    /// One or more .zrf files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Where to write. One file: the package folder (or, with `--emit rs`, the module
    /// file or a folder for it). Several files: a folder holding one package (or module)
    /// per file.
    #[arg(short = 'o', long = "out", value_name = "PATH")]
    out: PathBuf,
    /// The game or variant to compile (by title); repeatable. Default: the first game.
    #[arg(long, value_name = "TITLE", conflicts_with = "all_variants")]
    variant: Vec<String>,
    /// Compile every game and variant of each file, one module each.
    #[arg(long)]
    all_variants: bool,
    /// `package`: a Cargo package (library + `main` with perft, moves, play); `rs`: the
    /// Rust module alone, for `include!` or your own crate.
    #[arg(long, value_enum, default_value_t = Emit::Package)]
    emit: Emit,
    /// Runtime crates by path (the folder holding `zrf-runtime` and `zrf-search`) instead
    /// of the default: this workspace's crates when present, else crates.io.
    #[arg(long, value_name = "DIR")]
    runtime_dir: Option<PathBuf>,
    /// A folder searched for `(include "...")` files; repeatable.
    #[arg(short = 'I', long = "include-dir", value_name = "DIR")]
    include_dirs: Vec<PathBuf>,
    /// Build games whose moves come from an Axiom engine too (zrf does not run those
    /// engines: the compiled game could only pass).
    #[arg(long)]
    allow_axiom: bool,
    /// Embed this learned evaluation (`zrfc tune` writes it) in the game it is for: the
    /// engine's computer player judges positions by it. Repeatable.
    #[arg(long = "eval", value_name = "FILE.eval")]
    evaluations: Vec<PathBuf>,
    /// Replace files in the output that zrfc did not write (and symbolic links there);
    /// by default they are left alone with an error.
    #[arg(long)]
    force: bool,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Emit {
    Package,
    Rs,
}

pub fn build(args: &BuildArgs) -> u8 {
    let mut config = Config::new();
    config.quiet(true).allow_axiom(args.allow_axiom);
    for path in &args.evaluations {
        config.eval(path);
    }
    for dir in &args.include_dirs {
        config.include(dir);
    }
    config.select(if args.all_variants {
        Selection::All
    } else if args.variant.is_empty() {
        Selection::First
    } else {
        Selection::Titles(args.variant.clone())
    });
    let runtime = match &args.runtime_dir {
        Some(dir) => RuntimeDependency::Path(dir.clone()),
        None => RuntimeDependency::detect(),
    };
    let many = args.files.len() > 1;
    let progress = progress_bar(if many { args.files.len() as u64 } else { 0 });
    let mut failed = 0;
    let mut exit = 0;
    // Inputs whose names sanitise alike (`a-1.zrf`, `a_1.zrf`) would share an output.
    let mut taken: Vec<(PathBuf, &Path)> = Vec::new();
    for file in &args.files {
        progress.set_message(file.display().to_string());
        let target = target(&args.out, file, many, args.emit);
        if let Some((_, first)) = taken.iter().find(|(t, _)| *t == target) {
            failed += 1;
            exit = 2;
            progress.suspend(|| {
                eprintln!(
                    "error: {} and {} would both be written to {}: rename one, or build them apart",
                    first.display(),
                    file.display(),
                    target.display()
                )
            });
            progress.inc(1);
            continue;
        }
        taken.push((target.clone(), file));
        match build_one(&config, file, &target, args, &runtime) {
            Ok(written) => progress.suspend(|| {
                println!("{}", written.display());
                if !many && args.emit == Emit::Package {
                    // On stderr: stdout is the folder alone, for scripts.
                    eprintln!(
                        "next: cargo run --release --manifest-path {} -- play \
                         (`help` instead of `play` lists the commands)",
                        written.join("Cargo.toml").display()
                    );
                }
            }),
            Err(err) => {
                failed += 1;
                exit = exit.max(exit_code(&err));
                progress.suspend(|| {
                    if let build::BuildError::Rules { report, .. } = &err {
                        report.emit_to_stderr();
                    }
                    eprintln!("error: {err}");
                });
            }
        }
        progress.inc(1);
    }
    progress.finish_and_clear();
    if many {
        println!("{} built, {failed} failed", args.files.len() - failed);
    }
    exit
}

/// The exit code of a failed build, as for every command: 1 when the rules file is at
/// fault (its diagnostics say how), 2 for files that cannot be read or written and
/// titles the file does not have.
fn exit_code(err: &build::BuildError) -> u8 {
    use build::BuildError;
    match err {
        BuildError::Read { .. }
        | BuildError::Write { .. }
        | BuildError::NoOutDir
        | BuildError::NoSuchGame { .. } => 2,
        _ => 1,
    }
}

/// Where one file's output goes.
fn target(out: &Path, file: &Path, many: bool, emit: Emit) -> PathBuf {
    let module = build::module_name(file);
    match (emit, many) {
        (Emit::Package, false) => out.to_path_buf(),
        (Emit::Package, true) => out.join(module.replace('_', "-")),
        (Emit::Rs, false) if out.extension().is_some_and(|e| e == "rs") => out.to_path_buf(),
        (Emit::Rs, _) => out.join(format!("{module}.rs")),
    }
}

fn build_one(
    config: &Config,
    file: &Path,
    target: &Path,
    args: &BuildArgs,
    runtime: &RuntimeDependency,
) -> Result<PathBuf, build::BuildError> {
    let generated = config.generate(file)?;
    generated.warnings.emit_to_stderr();
    match args.emit {
        Emit::Rs => {
            build::write_generated(target, &generated.code, args.force)?;
        }
        Emit::Package => {
            let options = PackageOptions {
                force: args.force,
                ..PackageOptions::for_file(file, runtime.clone())
            };
            build::write_package(target, &generated, &options)?;
        }
    }
    Ok(target.to_path_buf())
}
