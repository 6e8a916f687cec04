//! `zrfc fmt`: lays a rules file out again without changing what it says.
//!
//! The formatter works on the lexer's tokens, so it splits the file exactly as the
//! parser does, and on the trivia between them (blanks and `;` comments). The tokens
//! are written back unchanged and in order, which is why the meaning cannot change;
//! only the blanks around them are rewritten:
//! - the author's line breaks are kept (runs of blank lines become one);
//! - each line is indented by [`INDENT`] spaces per list open at its start (a line that
//!   starts with `)` by one less), with tabs and trailing blanks dropped;
//! - tokens on a line are separated by one space, none after `(` or before `)`;
//! - comments are kept, word for word, at the end of their line or on their own;
//! - strings are kept byte for byte, line breaks and all (help texts);
//! - the file keeps its line endings (CRLF or LF), its encoding (bytes are never
//!   decoded) and a leading byte-order mark, and ends with one line break.
//!
//! Formatting formatted text changes nothing.

use super::lex::{lex, TokenKind};

/// Spaces of indentation per open list, as in the Zillions-era files.
pub const INDENT: usize = 3;

/// Why a file is not formatted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// A string runs to the end of the file, from this byte.
    UnterminatedString(usize),
    /// A `)` with no `(` open, at this byte.
    UnexpectedClose(usize),
    /// Lists still open at the end of the file.
    Unclosed(usize),
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FormatError::UnterminatedString(at) => {
                write!(f, "a string opened at byte {at} is never closed")
            }
            FormatError::UnexpectedClose(at) => write!(f, "the `)` at byte {at} closes nothing"),
            FormatError::Unclosed(open) => write!(f, "{open} unclosed `(` at the end of the file"),
        }
    }
}

/// What lies between two tokens, as far as layout goes.
enum Trivia<'a> {
    /// Line breaks (a blank line is two).
    Breaks(usize),
    /// A comment, from `;` to the end of its line, trailing blanks dropped.
    Comment(&'a [u8]),
}

/// The comments and line breaks of a gap between tokens, in order.
fn trivia(gap: &[u8]) -> Vec<Trivia<'_>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < gap.len() {
        match gap[i] {
            b';' => {
                let end = gap[i..]
                    .iter()
                    .position(|&b| b == b'\n' || b == b'\r')
                    .map_or(gap.len(), |n| i + n);
                let mut text = &gap[i..end];
                while let [rest @ .., last] = text {
                    if *last > b' ' && *last != 0x7f {
                        break;
                    }
                    text = rest;
                }
                out.push(Trivia::Comment(text));
                i = end;
            }
            b'\r' | b'\n' => {
                // CRLF is one break; so is a lone CR or LF.
                i += if gap[i] == b'\r' && gap.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                match out.last_mut() {
                    Some(Trivia::Breaks(n)) => *n += 1,
                    _ => out.push(Trivia::Breaks(1)),
                }
            }
            _ => i += 1,
        }
    }
    out
}

/// Builds the output line by line.
struct Writer {
    out: Vec<u8>,
    newline: &'static [u8],
    /// Whether the current line has anything on it yet.
    line_started: bool,
    /// Line breaks owed before the next thing written (at most two: one blank line).
    breaks: usize,
    /// The last token written, for spacing.
    last: Option<TokenKind>,
}

impl Writer {
    fn owe_breaks(&mut self, n: usize) {
        self.breaks = (self.breaks + n).min(2);
    }

    /// Starts the thing about to be written: pays the owed breaks and indents, or puts
    /// one space after what the line holds (none after `(` or before `)`).
    fn start(&mut self, depth: usize, next: Option<TokenKind>) {
        if self.breaks > 0 {
            for _ in 0..self.breaks {
                self.out.extend_from_slice(self.newline);
            }
            self.line_started = false;
        }
        self.breaks = 0;
        if !self.line_started {
            let depth = if next == Some(TokenKind::Close) {
                depth.saturating_sub(1)
            } else {
                depth
            };
            self.out.resize(self.out.len() + depth * INDENT, b' ');
            self.line_started = true;
        } else if self.last != Some(TokenKind::Open) && next != Some(TokenKind::Close) {
            self.out.push(b' ');
        }
    }
}

/// `source` laid out again ([module docs](self)); an error for a file whose lists do
/// not balance, which is left as it is.
pub fn format(source: &[u8]) -> Result<Vec<u8>, FormatError> {
    let lexed = lex(source);
    if let Some(at) = lexed.unterminated_string {
        return Err(FormatError::UnterminatedString(at));
    }
    let bom: &[u8] = b"\xEF\xBB\xBF";
    let body_start = if source.starts_with(bom) {
        bom.len()
    } else {
        0
    };
    let mut writer = Writer {
        out: source[..body_start].to_vec(),
        newline: if source.windows(2).any(|w| w == b"\r\n") {
            b"\r\n"
        } else {
            b"\n"
        },
        line_started: false,
        breaks: 0,
        last: None,
    };
    let mut depth = 0usize;
    let mut gap_start = body_start;
    let mut items = Vec::with_capacity(lexed.tokens.len() + 1);
    for token in &lexed.tokens {
        items.push((gap_start, token.start, Some(*token)));
        gap_start = token.end;
    }
    items.push((gap_start, source.len(), None));
    for (gap_from, gap_to, token) in items {
        for piece in trivia(&source[gap_from..gap_to]) {
            match piece {
                // Blank lines before the first thing in the file are dropped.
                Trivia::Breaks(n) if writer.out.len() > body_start => writer.owe_breaks(n),
                Trivia::Breaks(_) => {}
                Trivia::Comment(text) => {
                    writer.start(depth, None);
                    // The line break that ends the comment follows in the gap.
                    writer.out.extend_from_slice(text);
                    writer.last = None;
                }
            }
        }
        let Some(token) = token else { break };
        match token.kind {
            TokenKind::Close if depth == 0 => {
                return Err(FormatError::UnexpectedClose(token.start));
            }
            _ => {}
        }
        writer.start(depth, Some(token.kind));
        writer
            .out
            .extend_from_slice(&source[token.start..token.end]);
        writer.last = Some(token.kind);
        match token.kind {
            TokenKind::Open => depth += 1,
            TokenKind::Close => depth -= 1,
            _ => {}
        }
    }
    if depth > 0 {
        return Err(FormatError::Unclosed(depth));
    }
    if !writer.out[body_start..].is_empty() {
        writer.out.extend_from_slice(writer.newline);
    }
    Ok(writer.out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn formatted(text: &str) -> String {
        let out = format(text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
        String::from_utf8(out).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn lines_are_indented_by_depth_and_spaced_by_one() {
        let text = "(game\n\t(title   \"T\" )\n        (players A B)\n  )\n";
        assert_eq!(
            formatted(text),
            "(game\n   (title \"T\")\n   (players A B)\n)\n"
        );
    }

    #[test]
    fn comments_blank_lines_and_strings_are_kept() {
        let text = "; head\n\n\n\n(game ; trailing   \n   ; own line\n (help \"two\n   lines\")  )";
        assert_eq!(
            formatted(text),
            "; head\n\n(game ; trailing\n   ; own line\n   (help \"two\n   lines\"))\n"
        );
    }

    #[test]
    fn crlf_and_a_byte_order_mark_stay() {
        let text = "\u{feff}(a\r\n(b))\r\n";
        assert_eq!(formatted(text), "\u{feff}(a\r\n   (b))\r\n");
    }

    #[test]
    fn formatting_twice_changes_nothing() {
        let text = "(define x ( $1 ;c\n add ))\n(game (title \"t\")\n\n\n   )";
        let once = formatted(text);
        assert_eq!(formatted(&once), once);
    }

    #[test]
    fn unbalanced_files_are_refused() {
        assert_eq!(format(b"(a (b)"), Err(FormatError::Unclosed(1)));
        assert_eq!(format(b"(a))"), Err(FormatError::UnexpectedClose(3)));
        assert_eq!(format(b"(a \"b)"), Err(FormatError::UnterminatedString(3)));
    }
}
