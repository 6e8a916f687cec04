//! The Cargo package `zrfc build` writes: the generated module as the library, and a small
//! `main` offering `perft`, `moves` and `play` without further dependencies.

use std::path::{Path, PathBuf};

use super::{write_if_changed, BuildError, Generated};
use crate::codegen::{sanitise, Case};

/// How the package names the runtime crates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuntimeDependency {
    /// `path = "<dir>/zrf-runtime"` and `"<dir>/zrf-search"`: inside this workspace.
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

    fn dependency(&self, name: &str) -> String {
        match self {
            RuntimeDependency::Path(dir) => format!(
                "{name} = {{ path = {} }}",
                toml_string(&dir.join(name).display().to_string())
            ),
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
    let description = format!("Compiled by zrfc from {}", generated.titles.join(", "));
    let manifest = manifest(options, &description)
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
        write_if_changed(path, text)?;
    }
    Ok(files.into_iter().map(|(path, _)| path).collect())
}

/// The `Cargo.toml` of a package of generated code: its name, the runtime crates, and an
/// empty `[workspace]` so that it is not taken for part of an enclosing workspace.
pub fn manifest(options: &PackageOptions, description: &str) -> String {
    format!(
        "[package]\n\
         name = {name}\n\
         version = \"0.1.0\"\n\
         edition = \"2021\"\n\
         publish = false\n\
         description = {description}\n\
         \n\
         [dependencies]\n\
         {runtime}\n\
         {search}\n\
         \n\
         [workspace]\n",
        name = toml_string(&options.name),
        description = toml_string(description),
        runtime = options.runtime.dependency("zrf-runtime"),
        search = options.runtime.dependency("zrf-search"),
    )
}

/// A TOML basic string.
fn toml_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
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

/// The package's `main`: one engine, or a `--variant` choice among several; `rules_file`
/// is the name its saved games give for the rules.
fn main_rs(library: &str, titles: &[String], rules_file: &str) -> String {
    let dispatch = if titles.len() == 1 {
        format!("    run({library}::engine(), &args)\n")
    } else {
        let mut arms = String::new();
        let mut namer = crate::codegen::Namer::new();
        for title in titles {
            let module = namer.name(title, Case::Snake);
            arms.push_str(&format!(
                "        Some({title:?}) => run({library}::{module}::engine(), &args),\n"
            ));
        }
        format!(
            "    let variant = take_option(&mut args, \"--variant\");\n    \
             match variant.as_deref().or(Some({first:?})) {{\n\
             {arms}        \
             Some(other) => {{\n            \
             eprintln!(\"no variant {{other:?}}; the variants are:\");\n            \
             for (title, _) in {library}::GAMES {{\n                eprintln!(\"  {{title}}\");\n            }}\n            \
             ExitCode::from(2)\n        }}\n        \
             None => ExitCode::from(2),\n    }}\n",
            first = titles[0],
        )
    };
    format!(
        r#"// @generated by zrfc {version}; do not edit.
//! A compiled Zillions game: `perft N`, `moves`, or `play [--seed N] [--max-turns N] [--save GAME.zsg]`.

use std::process::ExitCode;
use std::time::Instant;

use zrf_runtime::{{Engine, Game, Templates}};

const USAGE: &str = "usage: [--variant TITLE] perft DEPTH | moves | play [--seed N] [--max-turns N] [--save GAME.zsg]";

/// The rules file as saved games name it, for Zillions to open them with.
const RULES_FILE: &str = {rules_file:?};

fn main() -> ExitCode {{
    #[allow(unused_mut, reason = "only games with variants take options before the command")]
    let mut args: Vec<String> = std::env::args().skip(1).collect();
{dispatch}}}

fn take_option(args: &mut Vec<String>, name: &str) -> Option<String> {{
    let at = args.iter().position(|a| a == name)?;
    args.remove(at);
    (at < args.len()).then(|| args.remove(at))
}}

fn run<T: Templates>(engine: Engine<T>, args: &[String]) -> ExitCode {{
    let mut args = args.to_vec();
    let seed = take_option(&mut args, "--seed").and_then(|s| s.parse().ok()).unwrap_or(1);
    let max_turns = take_option(&mut args, "--max-turns").and_then(|s| s.parse().ok()).unwrap_or(1000);
    let save = take_option(&mut args, "--save");
    let start = engine.start();
    match args.first().map(String::as_str) {{
        Some("perft") => {{
            let Some(depth) = args.get(1).and_then(|d| d.parse::<u32>().ok()) else {{
                eprintln!("{{USAGE}}");
                return ExitCode::from(2);
            }};
            for d in 1..=depth {{
                let clock = Instant::now();
                let count = zrf_search::perft(&engine, &start, d);
                let seconds = clock.elapsed().as_secs_f64();
                println!("depth {{d}}: {{count}} ({{:.0}} leaves/s)", count as f64 / seconds.max(1e-9));
            }}
            ExitCode::SUCCESS
        }}
        Some("moves") => {{
            for mv in engine.legal_moves(&start) {{
                println!("{{}}", engine.notation(&start, &mv));
            }}
            ExitCode::SUCCESS
        }}
        Some("play") => {{
            let mut records = Vec::new();
            let played = zrf_search::playout_with(&engine, seed, max_turns, |_| true, |state, mv| {{
                if save.is_some() {{
                    records.extend(zrf_runtime::turn_records(&engine.tables, state, mv));
                }}
            }});
            for (n, mv) in played.moves.iter().enumerate() {{
                println!("{{}}. {{mv}}", n + 1);
            }}
            match played.outcome {{
                Some(outcome) => println!("{{}}", outcome.describe(&engine.tables)),
                None => println!("unfinished after {{}} turns", played.plies),
            }}
            if let Some(path) = save {{
                let text = zrf_runtime::saved_game(&engine.tables, RULES_FILE, &[], &records);
                if let Err(err) = std::fs::write(&path, text) {{
                    eprintln!("error: cannot write {{path}}: {{err}}");
                    return ExitCode::from(2);
                }}
                println!("saved {{}} records to {{path}}", records.len());
            }}
            ExitCode::SUCCESS
        }}
        _ => {{
            eprintln!("{{USAGE}}");
            ExitCode::from(2)
        }}
    }}
}}
"#,
        version = env!("CARGO_PKG_VERSION"),
    )
}
