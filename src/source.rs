//! Source files as Zillions reads them: raw bytes, decoded once, addressed by byte spans.
//!
//! A [`Span`] holds byte offsets into the *original* file, so a position reported to a
//! user (or written to JSON) is the one their editor shows for the bytes on disk. The
//! decoded text (UTF-8, else Windows-1252, which never fails) is kept beside the bytes for
//! rendering; [`SourceFile::decoded_offset`] maps between the two. In a UTF-8 file the
//! mapping is the identity; in a Windows-1252 file every byte above 0x7F becomes a two- or
//! three-byte character.

use std::fmt;
use std::ops::Range;

/// Files larger than this are rejected before lexing: no real rules file comes close
/// (the largest corpus file is under 1 MiB), and spans are `u32`.
pub const MAX_FILE_BYTES: usize = 64 * 1024 * 1024;

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileId(u32);

impl FileId {
    /// The position of the file in its map, for tables indexed by file.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A byte range `start..end` in the original bytes of one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        // Files are capped at MAX_FILE_BYTES, so offsets always fit.
        Span {
            file,
            start: u32::try_from(start).unwrap_or(u32::MAX),
            end: u32::try_from(end).unwrap_or(u32::MAX),
        }
    }

    /// The smallest span covering both (same file assumed).
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// How a file's bytes were turned into text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Windows1252,
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::Windows1252 => "Windows-1252",
        })
    }
}

/// One loaded file.
pub struct SourceFile {
    name: String,
    /// Original bytes; `None` when they equal `text` (valid UTF-8).
    raw: Option<Vec<u8>>,
    text: String,
    encoding: Encoding,
    /// For Windows-1252 files: `(original offset just past a non-ASCII byte, extra decoded
    /// bytes accumulated so far)`, sorted, so an offset maps by binary search.
    widening: Vec<(u32, u32)>,
    /// Decoded offsets at which lines start.
    line_starts: Vec<usize>,
    /// Characters in `text` before every multiple of [`CHAR_BLOCK`] bytes, so that a
    /// column is counted from the nearest block, not from the start of a long line.
    chars_before_block: Vec<u32>,
    /// `text` as diagnostics show it (see [`SourceFile::shown_text`]), made on first use.
    shown: std::sync::OnceLock<String>,
}

impl SourceFile {
    fn new(name: String, bytes: Vec<u8>) -> SourceFile {
        let (raw, text, encoding, widening) = match String::from_utf8(bytes) {
            Ok(text) => (None, text, Encoding::Utf8, Vec::new()),
            Err(err) => {
                let bytes = err.into_bytes();
                let (text, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(&bytes);
                let text = text.into_owned();
                let widening = widening_table(&bytes, &text);
                (Some(bytes), text, Encoding::Windows1252, widening)
            }
        };
        let line_starts = line_starts(&text);
        let chars_before_block = text
            .as_bytes()
            .chunks(CHAR_BLOCK)
            .scan(0u32, |before, block| {
                let at = *before;
                *before += chars_in(block) as u32;
                Some(at)
            })
            .collect();
        SourceFile {
            name,
            raw,
            text,
            encoding,
            widening,
            line_starts,
            chars_before_block,
            shown: std::sync::OnceLock::new(),
        }
    }

    /// The decoded text fit for a terminal, byte for byte as long as [`SourceFile::text`]
    /// so that every offset still holds: control characters but tabs and line breaks
    /// become `?` (or `¿`, U+FFFD for wider ones), so that an escape sequence in a rules
    /// file cannot reach the terminal through a diagnostic's source line.
    pub fn shown_text(&self) -> &str {
        self.shown.get_or_init(|| {
            let unsafe_char = |c: char| {
                (c.is_control() && !matches!(c, '\n' | '\t' | '\r'))
                    || zrf_runtime::misleads_on_screen(c)
            };
            if !self.text.chars().any(unsafe_char) {
                return self.text.clone();
            }
            self.text
                .chars()
                .map(|c| match c.len_utf8() {
                    _ if !unsafe_char(c) => c,
                    1 => '?',
                    2 => '\u{bf}',
                    _ => '\u{fffd}',
                })
                .collect()
        })
    }

    /// The name shown in diagnostics (the path as the user or the include gave it).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The bytes as read from disk.
    pub fn bytes(&self) -> &[u8] {
        self.raw.as_deref().unwrap_or(self.text.as_bytes())
    }

    /// The decoded text.
    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Maps an offset in the original bytes to the decoded text.
    pub fn decoded_offset(&self, original: u32) -> usize {
        let extra = match self.widening.partition_point(|&(at, _)| at <= original) {
            0 => 0,
            n => self.widening[n - 1].1,
        };
        (original + extra) as usize
    }

    /// Maps an offset in the decoded text back to the original bytes (the inverse of
    /// [`SourceFile::decoded_offset`] on character boundaries).
    pub fn original_offset(&self, decoded: usize) -> u32 {
        let decoded = decoded as u32;
        let extra = match self
            .widening
            .partition_point(|&(at, extra)| at + extra <= decoded)
        {
            0 => 0,
            n => self.widening[n - 1].1,
        };
        decoded - extra
    }

    /// The decoded text of an original byte range (always on character boundaries, since
    /// only whole bytes widen).
    pub fn slice(&self, start: u32, end: u32) -> &str {
        let range = self.decoded_offset(start)..self.decoded_offset(end);
        self.text.get(range).unwrap_or_default()
    }

    /// Zero-based line index of a decoded offset.
    pub fn line_index(&self, decoded: usize) -> usize {
        self.line_starts
            .partition_point(|&start| start <= decoded)
            .saturating_sub(1)
    }

    /// Decoded byte range of a zero-based line, newline included.
    pub fn line_range(&self, line: usize) -> Option<Range<usize>> {
        let start = *self.line_starts.get(line)?;
        let end = self
            .line_starts
            .get(line + 1)
            .copied()
            .unwrap_or(self.text.len());
        Some(start..end)
    }

    /// Number of lines, a final line break not starting another.
    pub fn line_count(&self) -> usize {
        let ends_with_break = self.text.ends_with(['\n', '\r']);
        self.line_starts.len() - usize::from(ends_with_break)
    }

    /// Characters before decoded offset `at`: from the nearest block boundary, so that
    /// columns on a line of megabytes cost no more than on a short one.
    fn chars_before(&self, at: usize) -> usize {
        let block = at / CHAR_BLOCK;
        let from_block = self.chars_before_block.get(block).copied().unwrap_or(0) as usize;
        let start = (block * CHAR_BLOCK).min(at);
        from_block + chars_in(&self.text.as_bytes()[start..at])
    }

    /// One-based line and column (in characters) of an original byte offset.
    pub fn line_column(&self, original: u32) -> LineColumn {
        let decoded = self.decoded_offset(original).min(self.text.len());
        let line = self.line_index(decoded);
        let line_start = self.line_starts.get(line).copied().unwrap_or(0);
        let column = self.chars_before(decoded) - self.chars_before(line_start);
        LineColumn {
            line: line + 1,
            column: column + 1,
        }
    }
}

/// A one-based line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineColumn {
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for LineColumn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Reads at most `limit` bytes of the file at `path`: an error for a larger one, found
/// by reading one byte past the limit rather than by its reported size (which is 0 for
/// `/proc` files that never end, and for pipes).
pub fn read_limited(path: &std::path::Path, limit: usize) -> std::io::Result<Vec<u8>> {
    use std::io::Read as _;
    // Opening a named pipe waits for a writer, and a device never ends: refuse them
    // before opening.
    if let Some(what) = not_a_file(path) {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, what));
    }
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(limit as u64 + 1).read_to_end(&mut bytes)?;
    if bytes.len() > limit {
        return Err(std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            format!("larger than the limit of {limit} bytes"),
        ));
    }
    Ok(bytes)
}

/// What `path` is when it exists but is not a regular file (`a directory, not a file`),
/// following links; `None` for a regular file or nothing at all.
pub fn not_a_file(path: &std::path::Path) -> Option<String> {
    let kind = std::fs::metadata(path).ok()?.file_type();
    if kind.is_file() {
        return None;
    }
    let what = if kind.is_dir() {
        "a directory"
    } else {
        special_file_kind(&kind)
    };
    Some(format!("{what}, not a file"))
}

#[cfg(unix)]
fn special_file_kind(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt as _;
    if kind.is_fifo() {
        "a named pipe (FIFO)"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn special_file_kind(_: &std::fs::FileType) -> &'static str {
    "a special file"
}

/// `path` written relative to the folder `base` (both absolute, or both relative to
/// the same folder), climbing out with `..` where needed: how generated files name
/// inputs and dependencies without the absolute paths of the machine that wrote them.
/// `None` when no relative path leads there (different drives, or `..` in `base`).
pub fn relative_path(path: &std::path::Path, base: &std::path::Path) -> Option<std::path::PathBuf> {
    use std::path::Component;
    if path.is_absolute() != base.is_absolute() {
        return None;
    }
    let mut path_parts = path.components().peekable();
    let mut base_parts = base.components().peekable();
    while let (Some(a), Some(b)) = (path_parts.peek(), base_parts.peek()) {
        if a != b {
            break;
        }
        path_parts.next();
        base_parts.next();
    }
    let mut relative = std::path::PathBuf::new();
    for part in base_parts {
        match part {
            Component::Normal(_) => relative.push(".."),
            Component::CurDir => {}
            // A base that climbs or starts elsewhere cannot be undone by `..`.
            _ => return None,
        }
    }
    relative.extend(path_parts);
    Some(relative)
}

/// Bytes per block of [`SourceFile::chars_before`].
const CHAR_BLOCK: usize = 1024;

/// Characters that start in `bytes` (UTF-8 text cut anywhere): the bytes that are not
/// continuation bytes.
fn chars_in(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count()
}

fn widening_table(bytes: &[u8], text: &str) -> Vec<(u32, u32)> {
    let mut table = Vec::new();
    let mut extra = 0u32;
    let mut chars = text.chars();
    for (offset, &byte) in bytes.iter().enumerate() {
        // Windows-1252 is a single-byte encoding: one byte, one character.
        let decoded = chars.next().map_or(1, char::len_utf8);
        if byte >= 0x80 {
            extra += decoded as u32 - 1;
            table.push((offset as u32 + 1, extra));
        }
    }
    table
}

/// Line starts as codespan and editors count them: after LF, after a CR not followed by LF.
fn line_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    for (i, &b) in bytes.iter().enumerate() {
        let ends_line = b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
        if ends_line {
            starts.push(i + 1);
        }
    }
    starts
}

/// Every file read during one compilation.
#[derive(Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Adds a file and decodes it. Files over [`MAX_FILE_BYTES`] are the caller's to
    /// refuse; here they are truncated to keep spans valid.
    pub fn add(&mut self, name: impl Into<String>, mut bytes: Vec<u8>) -> FileId {
        bytes.truncate(MAX_FILE_BYTES);
        let id = FileId(self.files.len() as u32);
        self.files.push(SourceFile::new(name.into(), bytes));
        id
    }

    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.index()]
    }

    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The decoded text of a span.
    pub fn snippet(&self, span: Span) -> &str {
        self.file(span.file).slice(span.start, span.end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_climb_out_of_the_base_and_back_down() {
        let rel =
            |p: &str, b: &str| relative_path(std::path::Path::new(p), std::path::Path::new(b));
        assert_eq!(
            rel("/w/zrf/crates", "/w/out/chess"),
            Some("../../zrf/crates".into())
        );
        assert_eq!(rel("/w/games/a.zrf", "/w"), Some("games/a.zrf".into()));
        assert_eq!(rel("/w", "/w"), Some("".into()));
        assert_eq!(rel("a.zrf", "/w"), None);
        assert_eq!(rel("/w/a.zrf", "../x"), None);
    }

    #[test]
    fn utf8_file_maps_offsets_identically() {
        let mut map = SourceMap::new();
        let id = map.add("a.zrf", "(a \"é\")\n(b)".as_bytes().to_vec());
        let file = map.file(id);
        assert_eq!(file.encoding(), Encoding::Utf8);
        assert_eq!(file.decoded_offset(9), 9);
        // `é` is two bytes but one column.
        assert_eq!(file.line_column(8), LineColumn { line: 1, column: 8 });
        assert_eq!(file.line_column(9), LineColumn { line: 2, column: 1 });
    }

    #[test]
    fn windows_1252_bytes_widen_in_decoded_text() {
        // 0xE9 is é (2 bytes in UTF-8), 0x80 is € (3 bytes).
        let bytes = b"(a \"\xE9\x80\") x".to_vec();
        let mut map = SourceMap::new();
        let id = map.add("b.zrf", bytes);
        let file = map.file(id);
        assert_eq!(file.encoding(), Encoding::Windows1252);
        assert_eq!(file.text(), "(a \"é€\") x");
        assert_eq!(file.decoded_offset(4), 4);
        assert_eq!(file.decoded_offset(5), 6);
        assert_eq!(file.decoded_offset(6), 9);
        assert_eq!(file.slice(3, 7), "\"é€\"");
        assert_eq!([4, 6, 9, 10].map(|d| file.original_offset(d)), [4, 5, 6, 7]);
        assert_eq!(
            file.line_column(9),
            LineColumn {
                line: 1,
                column: 10
            }
        );
    }

    #[test]
    fn line_starts_follow_cr_lf_and_crlf() {
        let mut map = SourceMap::new();
        let id = map.add("c.zrf", b"a\r\nb\rc\nd".to_vec());
        let file = map.file(id);
        let lines: Vec<_> = [0, 3, 5, 7]
            .iter()
            .map(|&o| file.line_column(o).line)
            .collect();
        assert_eq!(lines, [1, 2, 3, 4]);
    }
}
