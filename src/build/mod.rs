//! The build.rs API, in the manner of prost-build: compile `.zrf` files into Rust modules
//! in `OUT_DIR` at build time.
//!
//! ```no_run
//! // build.rs
//! fn main() -> Result<(), zrf::build::BuildError> {
//!     zrf::build::compile(&["games/chess.zrf"])
//! }
//! ```
//! and in the crate, `mod chess { include!(concat!(env!("OUT_DIR"), "/chess.rs")); }`,
//! then `chess::engine()` is the game, ready for `zrf_search` or your own code.
//!
//! [`Config`] chooses the output folder, include folders, the games or variants of a file
//! and the path generated code names the runtime by. A file is rewritten only when its
//! text changes, and `cargo:rerun-if-changed` is printed for every input and include.
//! This module also writes the Cargo packages of `zrfc build` ([`write_package`]).

mod package;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::codegen::{self, CodegenOptions};
use crate::diag;
use crate::frontend::{self, FrontEndOptions};
use crate::ir;
use crate::source::SourceMap;
use crate::syntax::FsLoader;

pub use package::{manifest, write_package, PackageOptions, RuntimeDependency};

/// Why a build failed. `Display` and `Debug` are one line, so that a build script's
/// `fn main() -> Result<(), BuildError>` ends with a readable `Error: ...`; the rules
/// file's diagnostics stay data in [`BuildError::Rules`] (and [`Config::compile`] shows
/// them in full on standard error, as `zrfc check` would).
#[derive(thiserror::Error)]
pub enum BuildError {
    #[error("{path}: {reason}")]
    Read { path: String, reason: String },
    #[error("{path}: {}", rules_summary(report))]
    Rules { path: String, report: diag::Report },
    #[error(
        "{path}: no game or variant titled {title:?}; the file has {}",
        list_titles(available)
    )]
    NoSuchGame {
        path: String,
        title: String,
        /// The titles the file has.
        available: Vec<String>,
    },
    #[error("{path}: {error}")]
    Codegen {
        path: String,
        error: codegen::CodegenError,
    },
    #[error("{path}: {error}")]
    Unplayable {
        path: String,
        error: crate::lower::TablesError,
    },
    #[error(
        "{path}: {title:?} takes its moves from the Axiom engine {engine:?}, which zrf does not \
         run: compiled, it could only pass (allow it with `--allow-axiom`, \
         `Config::allow_axiom`)"
    )]
    AxiomEngine {
        path: String,
        title: String,
        engine: String,
    },
    #[error("OUT_DIR is not set: call `Config::out_dir`, or run from a build script")]
    NoOutDir,
    #[error("writing {path}: {reason}")]
    Write { path: String, reason: String },
    #[error("learned evaluation {path}: {reason}")]
    Evaluation { path: String, reason: String },
}

/// Reads a learned evaluation file (a few hundred kilobytes at most).
pub fn read_evaluation(path: &Path) -> Result<zrf_search::learn::Learned, BuildError> {
    let fail = |reason: String| BuildError::Evaluation {
        path: path.display().to_string(),
        reason,
    };
    let bytes = crate::source::read_limited(path, 16 << 20).map_err(|e| fail(e.to_string()))?;
    let text = String::from_utf8(bytes).map_err(|_| fail("not UTF-8 text".into()))?;
    zrf_search::learn::Learned::parse(&text).map_err(fail)
}

/// The one-line message: `Result`-returning `main`s print errors with `Debug`.
impl std::fmt::Debug for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

fn rules_summary(report: &diag::Report) -> String {
    let errors = report.error_count();
    let first = report
        .diagnostics()
        .iter()
        .find(|d| d.is_error())
        .map(|d| diag::one_line(report.sources(), d));
    match (errors, first) {
        (0, _) | (_, None) => "no game to compile".to_string(),
        (1, Some(first)) => format!("the rules have an error: {first}"),
        (n, Some(first)) => format!("the rules have {n} errors, the first: {first}"),
    }
}

fn list_titles(titles: &[String]) -> String {
    match titles {
        [] => "no games".to_string(),
        titles => titles
            .iter()
            .map(|t| format!("{t:?}"))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// Which games of a file to compile.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Selection {
    /// Every game and variant (the build.rs default).
    #[default]
    All,
    /// The first game (the CLI default).
    First,
    /// These titles, in this order.
    Titles(Vec<String>),
}

/// Settings of a build, with `&mut Self` setters.
#[derive(Clone, Debug, Default)]
pub struct Config {
    out_dir: Option<PathBuf>,
    include_dirs: Vec<PathBuf>,
    selection: Selection,
    codegen: CodegenOptions,
    front_end: FrontEndOptions,
    quiet: bool,
    allow_axiom: bool,
    evaluations: Vec<PathBuf>,
}

/// The Rust code of one rules file, and what it was made from.
#[derive(Clone, Debug)]
pub struct Generated {
    pub code: String,
    /// Titles of the games compiled, in module order.
    pub titles: Vec<String>,
    /// The rules file and every file it includes.
    pub inputs: Vec<PathBuf>,
    /// Warnings of the front end.
    pub warnings: diag::Report,
}

/// Compiles every game and variant of each file into `OUT_DIR/<file stem>.rs`.
pub fn compile(files: &[impl AsRef<Path>]) -> Result<(), BuildError> {
    Config::new().compile(files)
}

impl Config {
    pub fn new() -> Config {
        Config::default()
    }

    /// Where the modules are written (default: the `OUT_DIR` Cargo gives build scripts).
    pub fn out_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// A folder searched for `(include "...")` files after the including file's folder.
    pub fn include(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.include_dirs.push(dir.into());
        self
    }

    /// Compile only the game or variant with this title (repeatable). Default: all.
    pub fn variant(&mut self, title: impl Into<String>) -> &mut Self {
        match &mut self.selection {
            Selection::Titles(titles) => titles.push(title.into()),
            selection => *selection = Selection::Titles(vec![title.into()]),
        }
        self
    }

    /// Which games to compile.
    pub fn select(&mut self, selection: Selection) -> &mut Self {
        self.selection = selection;
        self
    }

    /// The path generated code names the runtime by (default `::zrf_runtime`), for crates
    /// that re-export it.
    pub fn runtime_path(&mut self, path: impl Into<String>) -> &mut Self {
        self.codegen.runtime_path = path.into();
        self
    }

    /// Front-end settings (macro expansion limits).
    pub fn front_end(&mut self, options: FrontEndOptions) -> &mut Self {
        self.front_end = options;
        self
    }

    /// No `cargo:` lines and no warnings on stdout (for callers that are not build
    /// scripts).
    pub fn quiet(&mut self, quiet: bool) -> &mut Self {
        self.quiet = quiet;
        self
    }

    /// Compile games whose moves come from an Axiom engine too (refused by default:
    /// zrf does not run those engines, so the compiled game has no moves but passes).
    pub fn allow_axiom(&mut self, allow: bool) -> &mut Self {
        self.allow_axiom = allow;
        self
    }

    /// Embeds a learned evaluation (`zrfc tune` writes it) in the game it names: its
    /// computer player judges positions by it (repeatable, one file per game).
    pub fn eval(&mut self, path: impl Into<PathBuf>) -> &mut Self {
        self.evaluations.push(path.into());
        self
    }

    /// Compiles each file into `<out_dir>/<file stem>.rs`, written only if it changed.
    pub fn compile(&self, files: &[impl AsRef<Path>]) -> Result<(), BuildError> {
        let out_dir = match &self.out_dir {
            Some(dir) => dir.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or(BuildError::NoOutDir)?,
        };
        for file in files {
            let file = file.as_ref();
            let generated = self.generate(file);
            if !self.quiet {
                // Even when generation fails: fixing the file must rerun the build.
                let inputs = match &generated {
                    Ok(g) => g.inputs.clone(),
                    Err(_) => vec![file.to_path_buf()],
                };
                for input in inputs {
                    println!("cargo::rerun-if-changed={}", input.display());
                }
            }
            let generated = match generated {
                Err(BuildError::Rules { path, report }) if !self.quiet => {
                    // Cargo shows a failed build script's standard error: the diagnostics
                    // in full there, the one-line error after them.
                    report.emit_to_stderr();
                    return Err(BuildError::Rules { path, report });
                }
                generated => generated?,
            };
            if !self.quiet {
                // Cargo prints each `cargo::warning` as one line of its own.
                for line in generated.warnings.lines() {
                    println!("cargo::warning={line}");
                }
            }
            let target = out_dir.join(format!("{}.rs", module_name(file)));
            write_if_changed(&target, &generated.code)?;
        }
        Ok(())
    }

    /// The Rust code of one file's selected games, without writing anything.
    pub fn generate(&self, file: &Path) -> Result<Generated, BuildError> {
        let loaded = self.load(file)?;
        if let Some(game) = loaded.games.iter().find(|g| g.engine.is_some()) {
            if !self.allow_axiom {
                return Err(BuildError::AxiomEngine {
                    path: file.display().to_string(),
                    title: game.title.clone(),
                    engine: game.engine.clone().unwrap_or_default(),
                });
            }
        }
        let mut codegen_options = self.codegen.clone();
        if codegen_options.inputs_relative_to.is_none() {
            codegen_options.inputs_relative_to = std::env::current_dir().ok();
        }
        for path in &self.evaluations {
            let learned = read_evaluation(path)?;
            if !loaded.games.iter().any(|g| g.title == learned.title) {
                return Err(BuildError::Evaluation {
                    path: path.display().to_string(),
                    reason: format!(
                        "it is for {:?}, which is not among the games compiled from {}",
                        learned.title,
                        file.display()
                    ),
                });
            }
            codegen_options
                .evaluations
                .push((learned.title.clone(), learned.to_text()));
        }
        let code = codegen::generate(&loaded.games, &loaded.sources, &codegen_options).map_err(
            |error| BuildError::Codegen {
                path: file.display().to_string(),
                error,
            },
        )?;
        Ok(Generated {
            code,
            titles: loaded.games.iter().map(|g| g.title.clone()).collect(),
            inputs: loaded
                .sources
                .files()
                .map(|(_, f)| PathBuf::from(f.name()))
                .collect(),
            warnings: loaded.warnings,
        })
    }

    /// The first selected game of `file`, run by the reference interpreter: what tests
    /// and benchmarks compare compiled engines with.
    pub fn interpret(&self, file: &Path) -> Result<crate::interp::Interpreted, BuildError> {
        let path = file.display().to_string();
        let game = self.load(file)?.games.swap_remove(0);
        crate::interp::engine(game).map_err(|error| BuildError::Unplayable { path, error })
    }

    /// Reads `file` and lowers its selected games; errors if any of them has errors.
    fn load(&self, file: &Path) -> Result<Loaded, BuildError> {
        let path = file.display().to_string();
        let mut options = self.front_end.clone();
        options
            .load
            .include_dirs
            .extend(self.include_dirs.iter().cloned());
        let mut sources = SourceMap::new();
        let front_end = frontend::run(file, &FsLoader, &options, &mut sources).map_err(|e| {
            BuildError::Read {
                path: path.clone(),
                reason: e.reason,
            }
        })?;
        let games = front_end.games;
        let indices: Vec<usize> = match &self.selection {
            Selection::All => (0..games.len()).collect(),
            Selection::First => (0..games.len().min(1)).collect(),
            Selection::Titles(titles) => titles
                .iter()
                .map(|title| {
                    games.iter().position(|g| &g.title == title).ok_or_else(|| {
                        BuildError::NoSuchGame {
                            path: path.clone(),
                            title: title.clone(),
                            available: games.iter().map(|g| g.title.clone()).collect(),
                        }
                    })
                })
                .collect::<Result<_, _>>()?,
        };
        let chosen: Vec<ir::Game> = indices
            .iter()
            .filter_map(|&i| games[i].game.clone())
            .collect();
        let sources = Arc::new(sources);
        let (errors, warnings): (Vec<_>, Vec<_>) = front_end
            .diagnostics
            .into_iter()
            .partition(diag::Diagnostic::is_error);
        if chosen.len() < indices.len() || chosen.is_empty() {
            let report = diag::Report::new(sources, errors);
            return Err(BuildError::Rules { path, report });
        }
        Ok(Loaded {
            warnings: diag::Report::new(sources.clone(), warnings),
            games: chosen,
            sources,
        })
    }
}

/// The selected games of one file, lowered, with their sources.
struct Loaded {
    sources: Arc<SourceMap>,
    /// Never empty.
    games: Vec<ir::Game>,
    warnings: diag::Report,
}

/// The module (and file) name of a rules file: its stem as a Rust identifier.
pub fn module_name(file: &Path) -> String {
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    codegen::sanitise(&stem, codegen::Case::Snake)
}

/// Writes `text` to `path` unless it already holds exactly that, so that Cargo and
/// editors do not see a change (and rebuild) when nothing changed.
pub fn write_if_changed(path: &Path, text: &str) -> Result<bool, BuildError> {
    // Bounded: a longer file than the text differs from it anyway.
    if crate::source::read_limited(path, text.len()).is_ok_and(|old| old == text.as_bytes()) {
        return Ok(false);
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| write_error(parent, e))?;
    }
    std::fs::write(path, text).map_err(|e| write_error(path, e))?;
    Ok(true)
}

/// What the first line of every file zrfc generates says, so that it can tell its own
/// files from others.
pub const GENERATED_MARKER: &str = "@generated by zrfc";

/// [`write_if_changed`] for a file of generated code (its first line carries
/// [`GENERATED_MARKER`]) into a folder a user named: a file already there that zrfc did
/// not write, or a symbolic link, is left alone with an error unless `force`.
pub fn write_generated(path: &Path, text: &str, force: bool) -> Result<bool, BuildError> {
    let refuse = |why: &str| BuildError::Write {
        path: path.display().to_string(),
        reason: format!("{why}; zrfc replaces only files it wrote (`--force` replaces it)"),
    };
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        if meta.file_type().is_symlink() {
            if !force {
                return Err(refuse("a symbolic link is there"));
            }
            std::fs::remove_file(path).map_err(|e| write_error(path, e))?;
        } else if !force && !written_by_zrfc(path) {
            return Err(refuse("a file not written by zrfc is there"));
        }
    }
    write_if_changed(path, text)
}

/// Whether the first line of the file at `path` carries [`GENERATED_MARKER`].
fn written_by_zrfc(path: &Path) -> bool {
    use std::io::{BufRead as _, Read as _};
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let mut first = String::new();
    std::io::BufReader::new(file.take(256))
        .read_line(&mut first)
        .is_ok_and(|_| first.contains(GENERATED_MARKER))
}

fn write_error(path: &Path, err: std::io::Error) -> BuildError {
    BuildError::Write {
        path: path.display().to_string(),
        reason: err.to_string(),
    }
}
