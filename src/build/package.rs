//! The Cargo package `zrfc build` writes: the generated module as the library, and a small
//! `main` offering `perft`, `moves` and `play` without further dependencies.

use std::path::{Path, PathBuf};

use super::{write_generated, BuildError, Generated};
use crate::codegen::{sanitise, Case};

/// How the package names the runtime crates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuntimeDependency {
    /// `path = "<dir>/zrf-runtime"`, `"<dir>/zrf-search"` and `"<dir>/zrf-play"`: inside
    /// this workspace.
    Path(PathBuf),
    /// `version = "..."` from crates.io.
    Version(String),
}

impl RuntimeDependency {
    /// The crates of the workspace this compiler was built in, when they are still there;
    /// else the released crates of the same version.
    pub fn detect() -> RuntimeDependency {
        let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates");
        if crates.join("zrf-runtime/Cargo.toml").is_file() {
            RuntimeDependency::Path(crates)
        } else {
            RuntimeDependency::Version(env!("CARGO_PKG_VERSION").to_string())
        }
    }

    /// The dependency line of crate `name` in the manifest of a package in `package_dir`:
    /// by a path relative to the package when there is one (no absolute paths of the
    /// machine that wrote it), else absolute.
    fn dependency(&self, name: &str, package_dir: &Path) -> String {
        match self {
            RuntimeDependency::Path(dir) => {
                let crate_dir = dir.join(name);
                let relative = std::fs::canonicalize(&crate_dir)
                    .ok()
                    .zip(std::fs::canonicalize(package_dir).ok())
                    .and_then(|(to, from)| crate::source::relative_path(&to, &from));
                let shown = relative.unwrap_or(crate_dir);
                format!(
                    "{name} = {{ path = {} }}",
                    toml_string(&shown.display().to_string())
                )
            }
            RuntimeDependency::Version(version) => {
                format!("{name} = {}", toml_string(version))
            }
        }
    }
}

/// Settings of a written package.
#[derive(Clone, Debug)]
pub struct PackageOptions {
    /// The package name (`zrf-game-<file stem>` by default).
    pub name: String,
    pub runtime: RuntimeDependency,
    /// Replace files in the folder that zrfc did not write (see [`super::write_generated`]).
    pub force: bool,
}

impl PackageOptions {
    pub fn for_file(file: &Path, runtime: RuntimeDependency) -> PackageOptions {
        let stem = sanitise(
            &file
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
            Case::Snake,
        );
        PackageOptions {
            name: format!("zrf-game-{}", stem.replace('_', "-").trim_matches('-')),
            runtime,
            force: false,
        }
    }
}

/// Writes (or updates) the package in `dir`; files whose text is unchanged are left
/// alone. Returns the paths written.
pub fn write_package(
    dir: &Path,
    generated: &Generated,
    options: &PackageOptions,
) -> Result<Vec<PathBuf>, BuildError> {
    // Cargo hands the description to rustc in an environment variable, where a NUL
    // cannot go: control characters are written as escapes.
    let titles: Vec<String> = generated
        .titles
        .iter()
        .map(|t| zrf_runtime::printable(t).into_owned())
        .collect();
    let description = format!("Compiled by zrfc from {}", titles.join(", "));
    std::fs::create_dir_all(dir).map_err(|e| super::write_error(dir, e))?;
    let manifest = manifest(options, &description, dir)
        + "\n\
           # One optimisation unit with the runtime: its primitives inline into the templates.\n\
           # A panic is a bug that ends the engine: no unwinding paths around the hot loops.\n\
           [profile.release]\n\
           lto = true\n\
           codegen-units = 1\n\
           panic = \"abort\"\n";
    let library = options.name.replace('-', "_");
    let files = [
        (dir.join("Cargo.toml"), manifest),
        (dir.join("src/lib.rs"), generated.code.clone()),
        (
            dir.join("src/main.rs"),
            main_rs(&library, &generated.titles, &rules_file_name(generated)),
        ),
    ];
    for (path, text) in &files {
        write_generated(path, text, options.force)?;
    }
    Ok(files.into_iter().map(|(path, _)| path).collect())
}

/// The `Cargo.toml` of a package of generated code in `package_dir` (made already): its
/// name, the runtime crates, and an empty `[workspace]` so that it is not taken for part
/// of an enclosing workspace.
pub fn manifest(options: &PackageOptions, description: &str, package_dir: &Path) -> String {
    format!(
        "# {marker} {version}; `zrfc build` writes it again.\n\
         [package]\n\
         name = {name}\n\
         version = \"0.1.0\"\n\
         edition = \"2021\"\n\
         publish = false\n\
         description = {description}\n\
         \n\
         [dependencies]\n\
         {runtime}\n\
         {search}\n\
         {play}\n\
         \n\
         [workspace]\n",
        marker = super::GENERATED_MARKER,
        version = env!("CARGO_PKG_VERSION"),
        name = toml_string(&options.name),
        description = toml_string(description),
        runtime = options.runtime.dependency("zrf-runtime", package_dir),
        search = options.runtime.dependency("zrf-search", package_dir),
        play = options.runtime.dependency("zrf-play", package_dir),
    )
}

/// A TOML basic string.
fn toml_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() || crate::codegen::misleads_on_screen(c) => {
                out.push_str(&format!("\\u{:04X}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The name saved games give for the rules: the compiled file's, as Zillions looks it up.
fn rules_file_name(generated: &Generated) -> String {
    generated
        .inputs
        .first()
        .and_then(|path| path.file_name())
        .map_or_else(String::new, |name| name.to_string_lossy().into_owned())
}

/// The package's `main`: one engine, or several for `zrf_play::driver::run_variants`,
/// handed to the command line every compiled engine shares; `rules_file` is the name its
/// saved games give for the rules.
fn main_rs(library: &str, titles: &[String], rules_file: &str) -> String {
    let (imports, body) = if titles.len() == 1 {
        (
            "use zrf_play::driver::run_engine;".to_string(),
            format!(
                "fn main() -> ExitCode {{\n    \
                 run_engine({library}::engine, RULES_FILE, std::env::args().skip(1).collect())\n}}\n"
            ),
        )
    } else {
        let mut namer = crate::codegen::Namer::new();
        let entries: String = titles
            .iter()
            .map(|title| {
                let module = namer.name(title, Case::Snake);
                format!(
                    "    Packaged {{\n        \
                     title: {title:?},\n        \
                     run: |cli| run_command({library}::{module}::engine, RULES_FILE, cli),\n        \
                     page: |rules| table({library}::{module}::engine, rules),\n        \
                     uci: |session| play_variant(&{library}::{module}::engine, session),\n    \
                     }},\n"
                )
            })
            .collect();
        (
            "use zrf_play::driver::{run_command, run_variants, Packaged};\nuse zrf_play::uci::play_variant;\nuse zrf_play::web::table;"
                .to_string(),
            format!(
                "/// The games of the package: `--variant TITLE` chooses one (the first by default).\n\
                 const GAMES: &[Packaged] = &[\n{entries}];\n\n\
                 fn main() -> ExitCode {{\n    \
                 run_variants(GAMES, RULES_FILE, std::env::args().skip(1).collect())\n}}\n"
            ),
        )
    };
    format!(
        r#"// @generated by zrfc {version}; do not edit.
//! A compiled Zillions game: `help` lists its commands (perft, moves, play against the
//! computer, selfplay, bench, serve in a browser).

use std::process::ExitCode;

{imports}

/// The rules file as saved games name it, for Zillions to open them with.
const RULES_FILE: &str = {rules_file:?};

{body}"#,
        version = env!("CARGO_PKG_VERSION"),
    )
}
