//! The modules of each crate depend on one another one way: no import cycle between a
//! crate's top-level modules. A cycle is how layers blur (the bulk count and the chains
//! of jumps each reading the other's helpers, the tables and their check each holding
//! the other), and the compiler does not keep it out.
//!
//! The graph is read off the sources: every `crate::name` path outside comments and
//! test modules, where `name` is a top-level module or an item the crate root
//! re-exports from one.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Graph = BTreeMap<String, BTreeSet<String>>;

/// The crates of the workspace, by their source folders.
const CRATES: [&str; 4] = [
    "src",
    "crates/zrf-runtime/src",
    "crates/zrf-search/src",
    "crates/zrf-play/src",
];

#[test]
fn no_crate_has_an_import_cycle_between_its_modules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for folder in CRATES {
        let graph = module_graph(&root.join(folder));
        assert!(graph.len() > 5, "{folder}: too few modules read: {graph:?}");
        assert_eq!(
            cycle(&graph),
            None,
            "{folder}: modules that import each other"
        );
    }
}

#[test]
fn a_cycle_is_found_and_shown_as_its_path() {
    let graph = graph_of(&[("a", &["b"]), ("b", &["c"]), ("c", &["a"]), ("d", &["a"])]);
    assert_eq!(
        cycle(&graph),
        Some(vec!["a".to_string(), "b".into(), "c".into(), "a".into()])
    );
    let layered = graph_of(&[("a", &["b", "c"]), ("b", &["c"]), ("c", &[])]);
    assert_eq!(cycle(&layered), None);
}

#[test]
fn imports_are_read_from_paths_groups_and_re_exports() {
    let lib = "pub use piece::Piece;\npub use state::{Snapshot, State as Position};\n";
    let re_exports = re_exports(lib);
    let modules: BTreeSet<String> = ["bulk", "piece", "state", "chains"]
        .map(String::from)
        .into();
    let code = "use crate::{Piece, bulk::Occupancy};\n// see crate::chains\nfn f(p: crate::Position) {}\n#[cfg(test)]\nmod tests { use crate::chains; }\n";
    let found = imports(code, &modules, &re_exports);
    assert_eq!(found, ["bulk", "piece", "state"].map(String::from).into());
}

fn graph_of(edges: &[(&str, &[&str])]) -> Graph {
    (edges.iter())
        .map(|(from, to)| (from.to_string(), to.iter().map(|t| t.to_string()).collect()))
        .collect()
}

/// Each top-level module of the crate in `folder` (a file or a folder beside `lib.rs`),
/// with the modules it imports.
fn module_graph(folder: &Path) -> Graph {
    let lib = std::fs::read_to_string(folder.join("lib.rs")).expect("lib.rs");
    let re_exports = re_exports(&lib);
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(folder).expect("source folder").flatten() {
        let path = entry.path();
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if stem == "lib" || stem == "main" {
            continue;
        }
        let mut sources = Vec::new();
        collect_rust(&path, &mut sources);
        if !sources.is_empty() {
            // `lint.rs` and the folder `lint/` beside it are one module.
            let module: &mut Vec<String> = files.entry(stem.to_string()).or_default();
            module.extend(sources);
        }
    }
    let modules: BTreeSet<String> = files.keys().cloned().collect();
    (files.into_iter())
        .map(|(module, sources)| {
            let mut imported = BTreeSet::new();
            for source in sources {
                imported.extend(imports(&source, &modules, &re_exports));
            }
            imported.remove(&module);
            (module, imported)
        })
        .collect()
}

fn collect_rust(path: &Path, out: &mut Vec<String>) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).expect("source folder").flatten() {
            collect_rust(&entry.path(), out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(std::fs::read_to_string(path).expect("source file"));
    }
}

/// The items `lib` re-exports (`pub use module::{A, B as C}`), by name, with the
/// module each comes from.
fn re_exports(lib: &str) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for statement in lib.split(';') {
        let Some(rest) = statement.trim().strip_prefix("pub use ") else {
            continue;
        };
        let Some((module, items)) = rest.split_once("::") else {
            continue;
        };
        for item in items.split(',') {
            let item = item.trim_matches(|c: char| c.is_whitespace() || c == '{' || c == '}');
            let name = item.rsplit([' ', ':']).next().unwrap_or(item);
            if !name.is_empty() {
                names.insert(name.to_string(), module.trim().to_string());
            }
        }
    }
    names
}

/// The modules among `modules` that `source` names in `crate::` paths, outside
/// comments and the test module at its end.
fn imports(
    source: &str,
    modules: &BTreeSet<String>,
    re_exports: &BTreeMap<String, String>,
) -> BTreeSet<String> {
    let code: String = (without_test_module(source).lines())
        .map(|line| line.split("//").next().unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n");
    let module_of = |name: &str| {
        let module = re_exports.get(name).map_or(name, String::as_str);
        modules.get(module).cloned()
    };
    let mut found = BTreeSet::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        let names = match rest.strip_prefix('{') {
            // The first name of each path in the group.
            Some(group) => group[..group.find('}').unwrap_or(group.len())]
                .split(',')
                .map(|path| leading_name(path.trim()))
                .collect(),
            None => vec![leading_name(rest)],
        };
        found.extend(names.into_iter().filter_map(module_of));
    }
    found
}

/// `source` up to its test module (`#[cfg(test)]` on a `mod`), if it has one.
fn without_test_module(source: &str) -> &str {
    let mut from = 0;
    while let Some(at) = source[from..].find("#[cfg(test)]") {
        let marker = from + at;
        let after = source[marker + "#[cfg(test)]".len()..].trim_start();
        if after.starts_with("mod ") {
            return &source[..marker];
        }
        from = marker + 1;
    }
    source
}

fn leading_name(path: &str) -> &str {
    let end = (path.find(|c: char| !(c.is_alphanumeric() || c == '_'))).unwrap_or(path.len());
    &path[..end]
}

/// A path of imports from a module back to itself, if there is one.
fn cycle(graph: &Graph) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        module: &str,
        graph: &Graph,
        marks: &mut BTreeMap<String, Mark>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match marks.get(module) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let start = path.iter().position(|m| m == module)?;
                let mut cycle = path[start..].to_vec();
                cycle.push(module.to_string());
                return Some(cycle);
            }
            None => {}
        }
        marks.insert(module.to_string(), Mark::Open);
        path.push(module.to_string());
        for next in graph.get(module).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, marks, path) {
                return Some(cycle);
            }
        }
        path.pop();
        marks.insert(module.to_string(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    (graph.keys()).find_map(|module| visit(module, graph, &mut marks, &mut Vec::new()))
}
