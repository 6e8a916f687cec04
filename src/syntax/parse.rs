//! Builds the tree from the token stream without recursion, recovering from every error.
//!
//! Lists are built on an explicit stack, so input depth cannot overflow the call stack;
//! lists nested deeper than [`MAX_NESTING`] are reported and skipped, which also keeps
//! every later (recursive) pass over the tree safe.
//!
//! Recovery: a stray `)` is reported and skipped. When the file ends with lists still
//! open, the file is read a second time knowing that `define`, `game`, `variant`,
//! `include` and `version` only ever begin top-level forms: the second read closes the
//! open form where the next such form begins, so one missing `)` gives one diagnostic
//! and the rest of the file is still read (and checked) normally.

use super::error::SyntaxError;
use super::lex::{lex, Lexed, TokenKind};
use super::tree::{Node, NodeKind};
use crate::source::{FileId, SourceFile, Span};

/// Deepest list nesting accepted. The deepest real rules file we know nests 64 levels.
pub const MAX_NESTING: usize = 256;

/// Errors recorded per file before the rest are summarised in one diagnostic.
pub const MAX_ERRORS_PER_FILE: usize = 100;

/// Atoms that only ever start top-level forms in Zillions rule files.
const TOP_LEVEL_HEADS: [&str; 5] = ["define", "game", "variant", "include", "version"];

/// The top-level forms of one file and the syntax errors found in it.
#[derive(Debug)]
pub struct ParsedFile {
    pub file: FileId,
    pub forms: Vec<Node>,
    pub errors: Vec<SyntaxError>,
}

/// Parses one file of a source map.
pub fn parse_file(file: FileId, source: &SourceFile) -> ParsedFile {
    let lexed = lex(source.bytes());
    let first = build(file, source, &lexed, false);
    let has_unclosed = first
        .errors
        .iter()
        .any(|e| matches!(e, SyntaxError::UnclosedList { .. }));
    if has_unclosed {
        build(file, source, &lexed, true)
    } else {
        first
    }
}

struct Frame {
    open: usize,
    items: Vec<Node>,
}

struct Builder<'a> {
    file: FileId,
    source: &'a SourceFile,
    stack: Vec<Frame>,
    top: Vec<Node>,
    errors: Vec<SyntaxError>,
    suppressed: usize,
}

impl Builder<'_> {
    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start, end)
    }

    fn push(&mut self, node: Node) {
        match self.stack.last_mut() {
            Some(frame) => frame.items.push(node),
            None => self.top.push(node),
        }
    }

    fn error(&mut self, error: SyntaxError) {
        if self.errors.len() < MAX_ERRORS_PER_FILE {
            self.errors.push(error);
        } else {
            self.suppressed += 1;
        }
    }

    /// Closes every open list at `end`, innermost first.
    fn close_all(&mut self, end: usize) {
        while let Some(frame) = self.stack.pop() {
            let node = Node {
                kind: NodeKind::List(frame.items),
                span: self.span(frame.open, end.max(frame.open + 1)),
            };
            self.push(node);
        }
    }

    fn text(&self, start: usize, end: usize) -> Box<str> {
        self.source.slice(start as u32, end as u32).into()
    }
}

fn build(
    file: FileId,
    source: &SourceFile,
    lexed: &Lexed,
    recover_at_top_level: bool,
) -> ParsedFile {
    let tokens = &lexed.tokens;
    let mut b = Builder {
        file,
        source,
        stack: Vec::new(),
        top: Vec::new(),
        errors: Vec::new(),
        suppressed: 0,
    };
    // While > 0, we are inside a list nested too deep and only count parentheses.
    let mut skip_depth = 0usize;
    let mut last_end = 0usize;
    for (i, token) in tokens.iter().enumerate() {
        if skip_depth > 0 {
            match token.kind {
                TokenKind::Open => skip_depth += 1,
                TokenKind::Close => skip_depth -= 1,
                _ => {}
            }
            last_end = token.end;
            continue;
        }
        match token.kind {
            TokenKind::Open => {
                if recover_at_top_level && !b.stack.is_empty() {
                    if let Some(head) = tokens.get(i + 1).filter(|next| {
                        next.kind == TokenKind::Atom
                            && TOP_LEVEL_HEADS
                                .contains(&source.slice(next.start as u32, next.end as u32))
                    }) {
                        let open = b.span(b.stack[0].open, b.stack[0].open + 1);
                        let next_form = b.span(token.start, head.end);
                        let inner_open = b.stack.len() - 1;
                        b.error(SyntaxError::UnclosedList {
                            open,
                            end: next_form,
                            inner_open,
                            at_next_form: true,
                        });
                        b.close_all(last_end);
                    }
                }
                if b.stack.len() >= MAX_NESTING {
                    let span = b.span(token.start, token.end);
                    b.error(SyntaxError::TooDeep {
                        span,
                        limit: MAX_NESTING,
                    });
                    skip_depth = 1;
                } else {
                    b.stack.push(Frame {
                        open: token.start,
                        items: Vec::new(),
                    });
                }
            }
            TokenKind::Close => match b.stack.pop() {
                Some(frame) => {
                    let node = Node {
                        kind: NodeKind::List(frame.items),
                        span: b.span(frame.open, token.end),
                    };
                    b.push(node);
                }
                None => {
                    // A run of stray `)` is one mistake, reported once.
                    if let Some(SyntaxError::StrayClose { span, count, .. }) = b.errors.last_mut() {
                        if span.end as usize == last_end
                            && i > 0
                            && tokens[i - 1].kind == TokenKind::Close
                        {
                            span.end = token.end as u32;
                            *count += 1;
                            last_end = token.end;
                            continue;
                        }
                    }
                    let span = b.span(token.start, token.end);
                    let previous_form = b.top.last().map(|n| n.span);
                    b.error(SyntaxError::StrayClose {
                        span,
                        count: 1,
                        previous_form,
                    });
                }
            },
            TokenKind::Atom => {
                let node = Node {
                    kind: NodeKind::Atom(b.text(token.start, token.end)),
                    span: b.span(token.start, token.end),
                };
                b.push(node);
            }
            TokenKind::Str => {
                let node = Node {
                    kind: NodeKind::Str(b.text(token.start + 1, token.end - 1)),
                    span: b.span(token.start, token.end),
                };
                b.push(node);
            }
        }
        last_end = token.end;
    }
    let file_end = source.bytes().len();
    let eof = b.span(file_end, file_end);
    if let Some(start) = lexed.unterminated_string {
        let open_lists = b.stack.len();
        b.error(SyntaxError::UnterminatedString {
            start: b.span(start, start + 1),
            eof,
            open_lists,
        });
        b.close_all(file_end);
    } else if let Some(outer) = b.stack.first() {
        let open = b.span(outer.open, outer.open + 1);
        let inner_open = b.stack.len() - 1;
        b.error(SyntaxError::UnclosedList {
            open,
            end: eof,
            inner_open,
            at_next_form: false,
        });
        b.close_all(file_end);
    }
    if b.suppressed > 0 {
        b.errors.push(SyntaxError::TooManyErrors {
            span: b.span(0, 0),
            more: b.suppressed,
        });
    }
    ParsedFile {
        file,
        forms: b.top,
        errors: b.errors,
    }
}
