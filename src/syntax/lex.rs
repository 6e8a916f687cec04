//! Tokens as Zillions reads them, recognised with nom over the file's original bytes.
//!
//! Lexing bytes rather than decoded text keeps every offset an offset into the file on
//! disk; the only non-ASCII bytes in real files sit inside strings and comments, and token
//! boundaries are always ASCII, so a token's text is decoded from its span afterwards.

use nom::bytes::complete::{tag, take_till, take_while, take_while1};
use nom::IResult;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    Open,
    Close,
    Atom,
    /// A complete string; the span includes both quotes.
    Str,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub start: usize,
    pub end: usize,
}

/// The token stream of one file, plus where an unterminated string began (it runs to the
/// end of the file, so nothing follows it).
pub struct Lexed {
    pub tokens: Vec<Token>,
    pub unterminated_string: Option<usize>,
}

/// Blanks are space and every control character; Zillions gives none of them a meaning
/// outside strings.
fn is_blank(byte: u8) -> bool {
    byte <= b' ' || byte == 0x7f
}

fn is_atom_byte(byte: u8) -> bool {
    !is_blank(byte) && !matches!(byte, b'(' | b')' | b'"' | b';')
}

type Input<'a> = &'a [u8];

/// Skips blanks and `;` comments (to the end of the line: CR or LF).
fn trivia(mut input: Input<'_>) -> Input<'_> {
    loop {
        let before = input.len();
        if let Ok((rest, _)) = take_while1::<_, _, ()>(is_blank)(input) {
            input = rest;
        }
        if let Ok((rest, _)) = tag::<_, _, ()>(";")(input) {
            let (rest, _) = comment_body(rest);
            input = rest;
        }
        if input.len() == before {
            return input;
        }
    }
}

fn comment_body(input: Input<'_>) -> (Input<'_>, Input<'_>) {
    let result: IResult<_, _, ()> = take_till(|b| b == b'\n' || b == b'\r')(input);
    result.unwrap_or((&input[input.len()..], input))
}

enum Raw {
    Token(TokenKind),
    UnterminatedString,
}

fn token(input: Input<'_>) -> IResult<Input<'_>, Raw, ()> {
    if let Ok((rest, _)) = tag::<_, _, ()>("(")(input) {
        return Ok((rest, Raw::Token(TokenKind::Open)));
    }
    if let Ok((rest, _)) = tag::<_, _, ()>(")")(input) {
        return Ok((rest, Raw::Token(TokenKind::Close)));
    }
    if let Ok((rest, _)) = tag::<_, _, ()>("\"")(input) {
        let (rest, _) = take_while(|b| b != b'"')(rest)?;
        return match tag::<_, _, ()>("\"")(rest) {
            Ok((rest, _)) => Ok((rest, Raw::Token(TokenKind::Str))),
            Err(_) => Ok((rest, Raw::UnterminatedString)),
        };
    }
    let (rest, _) = take_while1(is_atom_byte)(input)?;
    Ok((rest, Raw::Token(TokenKind::Atom)))
}

/// Splits a whole file into tokens. Never fails: every byte is trivia or part of a token.
pub fn lex(bytes: &[u8]) -> Lexed {
    let mut tokens = Vec::with_capacity(bytes.len() / 4);
    // A UTF-8 byte-order mark is not text.
    let mut input = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let offset = |rest: Input<'_>| bytes.len() - rest.len();
    loop {
        input = trivia(input);
        if input.is_empty() {
            break;
        }
        let start = offset(input);
        match token(input) {
            Ok((rest, Raw::Token(kind))) => {
                tokens.push(Token {
                    kind,
                    start,
                    end: offset(rest),
                });
                input = rest;
            }
            Ok((_, Raw::UnterminatedString)) => {
                return Lexed {
                    tokens,
                    unterminated_string: Some(start),
                }
            }
            // Unreachable by construction (trivia took every blank and `;`); stop rather
            // than loop if that ever changes.
            Err(_) => break,
        }
    }
    Lexed {
        tokens,
        unterminated_string: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(TokenKind, &str)> {
        lex(text.as_bytes())
            .tokens
            .iter()
            .map(|t| (t.kind, &text[t.start..t.end]))
            .collect()
    }

    #[test]
    fn atoms_end_at_delimiters_only() {
        use TokenKind::*;
        assert_eq!(
            kinds("(title\"-\")(a1 $1 n-1 Drunk-Elephant! img/$1.bmp;x\r\n'B0')"),
            [
                (Open, "("),
                (Atom, "title"),
                (Str, "\"-\""),
                (Close, ")"),
                (Open, "("),
                (Atom, "a1"),
                (Atom, "$1"),
                (Atom, "n-1"),
                (Atom, "Drunk-Elephant!"),
                (Atom, "img/$1.bmp"),
                (Atom, "'B0'"),
                (Close, ")"),
            ]
        );
    }

    #[test]
    fn strings_span_lines_and_keep_backslashes_and_semicolons() {
        assert_eq!(
            kinds("\"a\\\r\n;b\" c"),
            [(TokenKind::Str, "\"a\\\r\n;b\""), (TokenKind::Atom, "c")]
        );
    }

    #[test]
    fn comment_ends_at_lone_cr() {
        assert_eq!(kinds("; x\ry"), [(TokenKind::Atom, "y")]);
    }

    #[test]
    fn unterminated_string_reports_its_start() {
        let lexed = lex(b"(a \"bc");
        assert_eq!(lexed.tokens.len(), 2);
        assert_eq!(lexed.unterminated_string, Some(3));
    }
}
