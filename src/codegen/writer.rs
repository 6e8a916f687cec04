//! A string writer for Rust source with an indentation helper, so the emitters read like
//! the code they produce.

use std::fmt::Write as _;

const INDENT: &str = "    ";

#[derive(Default)]
pub struct RustWriter {
    out: String,
    depth: usize,
}

impl RustWriter {
    pub fn new() -> RustWriter {
        RustWriter::default()
    }

    /// One line at the current indentation (empty text gives an empty line).
    pub fn line(&mut self, text: impl AsRef<str>) {
        let text = text.as_ref();
        if !text.is_empty() {
            for _ in 0..self.depth {
                self.out.push_str(INDENT);
            }
            self.out.push_str(text);
        }
        self.out.push('\n');
    }

    pub fn indent(&mut self) {
        self.depth += 1;
    }

    pub fn dedent(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// `open`, the body one level deeper, then `close`.
    pub fn enclosed(&mut self, open: impl AsRef<str>, close: &str, body: impl FnOnce(&mut Self)) {
        self.line(open);
        self.depth += 1;
        body(self);
        self.depth -= 1;
        self.line(close);
    }

    /// `head {`, the body one level deeper, then `}` and `tail` (`;`, `,` or nothing).
    pub fn block_with(&mut self, head: impl AsRef<str>, tail: &str, body: impl FnOnce(&mut Self)) {
        let head = head.as_ref();
        let open = if head.is_empty() {
            "{".to_string()
        } else {
            format!("{head} {{")
        };
        self.enclosed(open, &format!("}}{tail}"), body);
    }

    pub fn block(&mut self, head: impl AsRef<str>, body: impl FnOnce(&mut Self)) {
        self.block_with(head, "", body);
    }

    /// Lines of items separated by `, `, wrapped to stay readable.
    pub fn wrapped_list(&mut self, items: impl IntoIterator<Item = String>, per_line: usize) {
        let mut line = String::new();
        let mut count = 0;
        for item in items {
            if count == per_line {
                self.line(line.trim_end());
                line.clear();
                count = 0;
            }
            let _ = write!(line, "{item}, ");
            count += 1;
        }
        if !line.is_empty() {
            self.line(line.trim_end());
        }
    }

    pub fn finish(self) -> String {
        self.out
    }
}

/// Text made safe for a `//` comment: one line, no control characters, and the
/// characters that reorder text shown as escapes (rustc rejects them in comments,
/// since they can make code read otherwise than it compiles).
pub fn comment_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            c if c.is_control() => out.push(' '),
            c if misleads_on_screen(c) => out.push_str(&c.escape_unicode().to_string()),
            c => out.push(c),
        }
    }
    out
}

pub use zrf_runtime::misleads_on_screen;

/// A Rust string literal with the same contents, whatever `text` holds.
pub fn string_literal(text: &str) -> String {
    // `Debug` for `str` escapes quotes, backslashes and control characters with escapes
    // that are valid in Rust literals.
    format!("{text:?}")
}
