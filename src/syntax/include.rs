//! Reading a root file and everything it `(include ...)`s, through a [`SourceLoader`] so
//! tests can run on in-memory files.
//!
//! An include is resolved relative to the including file, then in each search directory
//! in order. Windows separators in the name are accepted. A file included twice is read
//! once; an include that leads back to a file still being read is a cycle and is reported
//! at the `include` form.

use std::collections::BTreeMap;
use std::io;
use std::path::{Component, Path, PathBuf};

use super::error::SyntaxError;
use super::parse::{parse_file, ParsedFile};
use super::tree::Node;
use crate::source::{FileId, SourceMap, Span, MAX_FILE_BYTES};

/// Where source files come from.
pub trait SourceLoader {
    /// A stable identity for an existing file (its canonical path), or `None` if there is
    /// no such file.
    fn find(&self, path: &Path) -> Option<PathBuf>;
    /// The bytes of a file found by [`SourceLoader::find`].
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;
    /// A folder as [`SourceLoader::find`] names the files in it, to tell whether a file
    /// lies inside it.
    fn folder(&self, path: &Path) -> Option<PathBuf> {
        Some(normalise(path))
    }
}

/// The real filesystem.
#[derive(Clone, Copy, Debug, Default)]
pub struct FsLoader;

impl SourceLoader for FsLoader {
    fn find(&self, path: &Path) -> Option<PathBuf> {
        std::fs::canonicalize(path).ok().filter(|p| p.is_file())
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        crate::source::read_limited(path, MAX_FILE_BYTES)
    }

    fn folder(&self, path: &Path) -> Option<PathBuf> {
        // `.` for the folder of a root file named without one.
        let path = if path.as_os_str().is_empty() {
            Path::new(".")
        } else {
            path
        };
        std::fs::canonicalize(path).ok()
    }
}

/// Files held in memory, keyed by normalised relative path (for tests and tools).
#[derive(Clone, Debug, Default)]
pub struct MemoryLoader {
    files: BTreeMap<PathBuf, Vec<u8>>,
}

impl MemoryLoader {
    pub fn new() -> MemoryLoader {
        MemoryLoader::default()
    }

    pub fn insert(&mut self, path: impl AsRef<Path>, bytes: impl Into<Vec<u8>>) -> &mut Self {
        self.files.insert(normalise(path.as_ref()), bytes.into());
        self
    }
}

impl SourceLoader for MemoryLoader {
    fn find(&self, path: &Path) -> Option<PathBuf> {
        let path = normalise(path);
        self.files.contains_key(&path).then_some(path)
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        self.files
            .get(&normalise(path))
            .cloned()
            .ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))
    }
}

/// Removes `.` and resolves `..` lexically: a `..` cancels the name before it, never
/// another `..` (`../../lib.zrf` stays two folders up).
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => match out.components().next_back() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                // Above the root there is only the root.
                Some(Component::RootDir | Component::Prefix(_)) => {}
                Some(Component::ParentDir | Component::CurDir) | None => out.push(".."),
            },
            other => out.push(other),
        }
    }
    out
}

/// How to find included files.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// Searched in order after the including file's own folder (`-I DIR`).
    pub include_dirs: Vec<PathBuf>,
    /// Read included files wherever they are. By default an include must name a file
    /// by a relative path, under the root file's folder or one of `include_dirs`, so
    /// that a rules file cannot make the tools read (and echo in diagnostics) any file
    /// of the machine.
    pub include_anywhere: bool,
}

/// A resolved `(include "...")` form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Include {
    /// The whole `(include ...)` list.
    pub form: Span,
    pub target: FileId,
}

/// A root file and its includes, parsed. Includes are resolved but not spliced: that is
/// the expander's job.
#[derive(Debug)]
pub struct Loaded {
    pub root: FileId,
    /// The root first, then included files in the order they were first included.
    pub files: Vec<ParsedFile>,
    pub includes: Vec<Include>,
    /// Syntax and include errors of every file, in reading order.
    pub errors: Vec<SyntaxError>,
}

impl Loaded {
    pub fn parsed(&self, file: FileId) -> Option<&ParsedFile> {
        self.files.iter().find(|f| f.file == file)
    }

    /// The file an `(include ...)` form at `form` refers to.
    pub fn include_target(&self, form: Span) -> Option<FileId> {
        self.includes
            .iter()
            .find(|i| i.form == form)
            .map(|i| i.target)
    }
}

/// The root file could not be read at all (a usage or IO error, not a diagnostic).
#[derive(Debug, thiserror::Error)]
#[error("cannot read {path}: {reason}")]
pub struct LoadError {
    pub path: String,
    pub reason: String,
}

/// Reads and parses `path` and, transitively, the files it includes.
pub fn load(
    path: &Path,
    loader: &dyn SourceLoader,
    options: &LoadOptions,
    sources: &mut SourceMap,
) -> Result<Loaded, LoadError> {
    let display = path.display().to_string();
    let load_error = |reason: String| LoadError {
        path: display.clone(),
        reason,
    };
    let identity = loader.find(path).ok_or_else(|| {
        load_error(crate::source::not_a_file(path).unwrap_or_else(|| "no such file".to_string()))
    })?;
    let bytes = loader
        .read(&identity)
        .map_err(|e| load_error(e.to_string()))?;
    let mut allowed: Vec<PathBuf> = options
        .include_dirs
        .iter()
        .filter_map(|dir| loader.folder(dir))
        .collect();
    allowed.extend(loader.folder(path.parent().unwrap_or(Path::new(""))));
    let mut reader = Reader {
        loader,
        options,
        allowed,
        sources,
        files: Vec::new(),
        includes: Vec::new(),
        errors: Vec::new(),
        seen: Vec::new(),
        chain: Vec::new(),
    };
    let root = reader.read_file(display, path.to_path_buf(), identity, bytes);
    Ok(Loaded {
        root,
        files: reader.files,
        includes: reader.includes,
        errors: reader.errors,
    })
}

struct Reader<'a> {
    loader: &'a dyn SourceLoader,
    options: &'a LoadOptions,
    /// The folders included files must lie in (unless [`LoadOptions::include_anywhere`]).
    allowed: Vec<PathBuf>,
    sources: &'a mut SourceMap,
    files: Vec<ParsedFile>,
    includes: Vec<Include>,
    errors: Vec<SyntaxError>,
    /// Identity of every file read so far.
    seen: Vec<(PathBuf, FileId)>,
    /// Files being read, outermost first, for cycle detection.
    chain: Vec<(PathBuf, String)>,
}

impl Reader<'_> {
    fn read_file(
        &mut self,
        name: String,
        path: PathBuf,
        identity: PathBuf,
        bytes: Vec<u8>,
    ) -> FileId {
        let file = self.sources.add(name.clone(), bytes);
        self.seen.push((identity.clone(), file));
        let parsed = parse_file(file, self.sources.file(file));
        self.errors.extend(parsed.errors.iter().cloned());
        let include_forms: Vec<(Span, Result<String, ()>)> = parsed
            .forms
            .iter()
            .filter(|form| form.head() == Some("include"))
            .map(|form| (form.span, include_name(form)))
            .collect();
        self.files.push(parsed);
        self.chain.push((identity, name));
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        for (form, name) in include_forms {
            match name {
                Ok(name) => self.include(form, &dir, &name),
                Err(()) => self
                    .errors
                    .push(SyntaxError::IncludeMalformed { span: form }),
            }
        }
        self.chain.pop();
        file
    }

    fn include(&mut self, form: Span, dir: &Path, name: &str) {
        let relative = PathBuf::from(name.replace('\\', "/"));
        let outside = || SyntaxError::IncludeOutside {
            span: form,
            name: name.to_string(),
        };
        let drive = name.as_bytes().get(1) == Some(&b':');
        if !self.options.include_anywhere && (relative.has_root() || drive) {
            self.errors.push(outside());
            return;
        }
        let candidates: Vec<PathBuf> = std::iter::once(dir.join(&relative))
            .chain(self.options.include_dirs.iter().map(|d| d.join(&relative)))
            .map(|path| normalise(&path))
            .collect();
        let found = candidates
            .iter()
            .find_map(|c| self.loader.find(c).map(|identity| (c.clone(), identity)));
        let Some((path, identity)) = found else {
            self.errors.push(SyntaxError::IncludeNotFound {
                span: form,
                name: name.to_string(),
                searched: candidates.iter().map(|c| c.display().to_string()).collect(),
            });
            return;
        };
        // By the file's identity (its canonical path): `..` and links cannot lead out.
        if !self.options.include_anywhere && !self.allowed.iter().any(|d| identity.starts_with(d)) {
            self.errors.push(outside());
            return;
        }
        if let Some(start) = self.chain.iter().position(|(id, _)| *id == identity) {
            let mut chain: Vec<String> =
                self.chain[start..].iter().map(|(_, n)| n.clone()).collect();
            chain.push(path.display().to_string());
            self.errors.push(SyntaxError::IncludeCycle {
                span: form,
                name: name.to_string(),
                chain,
            });
            return;
        }
        if let Some(&(_, target)) = self.seen.iter().find(|(id, _)| *id == identity) {
            self.includes.push(Include { form, target });
            return;
        }
        match self.loader.read(&identity) {
            Ok(bytes) => {
                let target = self.read_file(path.display().to_string(), path, identity, bytes);
                self.includes.push(Include { form, target });
            }
            Err(err) => self.errors.push(SyntaxError::IncludeUnreadable {
                span: form,
                name: name.to_string(),
                reason: err.to_string(),
            }),
        }
    }
}

fn include_name(form: &Node) -> Result<String, ()> {
    match form.as_list() {
        Some([_, arg]) => arg.as_str().map(str::to_string).ok_or(()),
        _ => Err(()),
    }
}
