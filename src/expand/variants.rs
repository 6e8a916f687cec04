//! Games and variants as lists of sections, with Zillions' inheritance rules.
//!
//! A variant starts from the sections of the closest preceding `game` (or, written
//! before any game, of the first game after it) and then:
//! - a `(piece (name X) ...)` replaces the game's piece X in place, or is added;
//! - any `win-`, `loss-`, `draw-` or `count-condition` drops all of the game's goals;
//! - an `(option "name" v)` (or a deprecated option keyword) replaces the option of the
//!   same name in place, or is added;
//! - any other section replaces every section of the game with the same head, at the
//!   place of the first one, or is added.
//!
//! `(default)` marks only the form it is written in.

use super::error::ExpandError;
use super::{ENode, GameKind, GameSpec, SectionRef};
use crate::intern::{Interner, Sym};

const GOALS: [&str; 4] = [
    "win-condition",
    "loss-condition",
    "draw-condition",
    "count-condition",
];

/// ZoG 1.x spellings of options, keyed like `(option "...")` with the same name (the
/// last two appear in the reference only).
pub const OPTION_KEYWORDS: [(&str, &str); 9] = [
    ("animate-captures", "animate captures"),
    ("animate-drops", "animate drops"),
    ("pass-turn", "pass turn"),
    ("pass-partial", "pass partial"),
    ("allow-flipping", "allow flipping"),
    ("recycle-captures", "recycle captures"),
    ("maximal-captures", "maximal captures"),
    ("include-off-pieces", "include off pieces"),
    ("recycle-promotions", "recycle promotions"),
];

/// How a section is matched against the game's sections.
#[derive(PartialEq, Eq)]
enum Key {
    Piece(Option<Sym>),
    Option(String),
    Goal,
    Default,
    Head(Option<Sym>),
}

struct Keys<'a> {
    interner: &'a Interner,
}

impl Keys<'_> {
    fn key(&self, section: &ENode) -> Key {
        let Some(head) = section.head() else {
            return Key::Head(None);
        };
        let name = self.interner.resolve(head);
        let items = section.as_list().unwrap_or_default();
        match name {
            "piece" => Key::Piece(items.iter().find_map(|item| {
                let pair = item.as_list()?;
                (pair.first()?.as_atom().map(|h| self.interner.resolve(h)) == Some("name"))
                    .then(|| pair.get(1)?.as_atom())
                    .flatten()
            })),
            "option" => Key::Option(match items.get(1).map(|n| &n.kind) {
                Some(super::EKind::Str(sym) | super::EKind::Atom(sym)) => {
                    normalise_option(self.interner.resolve(*sym))
                }
                _ => String::new(),
            }),
            "default" => Key::Default,
            _ if GOALS.contains(&name) => Key::Goal,
            _ => match OPTION_KEYWORDS.iter().find(|(keyword, _)| *keyword == name) {
                Some((_, option)) => Key::Option(option.to_string()),
                None => Key::Head(Some(head)),
            },
        }
    }
}

/// Option names are compared case-insensitively with `-` and ` ` alike.
pub fn normalise_option(name: &str) -> String {
    name.trim().to_ascii_lowercase().replace('-', " ")
}

pub fn build_games(
    forms: &[ENode],
    interner: &mut Interner,
    errors: &mut Vec<ExpandError>,
) -> Vec<GameSpec> {
    let game_sym = interner.intern("game");
    let variant_sym = interner.intern("variant");
    let title_sym = interner.intern("title");
    let keys = Keys { interner };
    let title_of = |section: &ENode| {
        let pair = section.as_list()?;
        if pair.first()?.as_atom()? != title_sym {
            return None;
        }
        match pair.get(1)?.kind {
            super::EKind::Str(sym) | super::EKind::Atom(sym) => Some(sym),
            super::EKind::List(_) => None,
        }
    };
    let section = |r: SectionRef| &forms[r.form].as_list().unwrap_or_default()[r.index];

    // Each game and variant with its own sections, separators left out.
    let mut games: Vec<GameSpec> = Vec::new();
    for (form_index, form) in forms.iter().enumerate() {
        let kind = match form.head() {
            Some(h) if h == game_sym => GameKind::Game,
            Some(h) if h == variant_sym => GameKind::Variant,
            _ => continue,
        };
        let items = form.as_list().unwrap_or_default();
        let title = items.iter().find_map(title_of);
        if kind == GameKind::Variant && title.is_some_and(|t| keys.interner.resolve(t) == "-") {
            continue;
        }
        games.push(GameSpec {
            kind,
            title,
            form: form_index,
            base: None,
            sections: (1..items.len())
                .map(|index| SectionRef {
                    form: form_index,
                    index,
                })
                .collect(),
            default: items.iter().any(|item| keys.key(item) == Key::Default),
        });
    }

    // A variant inherits from the closest game before it; variants written before any
    // game (Ragnarok, Duke, mini-chess) inherit from the first game after them.
    let game_positions: Vec<usize> = (0..games.len())
        .filter(|&i| games[i].kind == GameKind::Game)
        .collect();
    for i in 0..games.len() {
        let spec = &games[i];
        let span = forms[spec.form].span;
        if spec.kind == GameKind::Game {
            if spec.title.is_none() {
                errors.push(ExpandError::MissingTitle { span, kind: "game" });
            }
            continue;
        }
        let base = game_positions
            .iter()
            .rev()
            .find(|&&g| g < i)
            .or_else(|| game_positions.first())
            .copied();
        let Some(base) = base else {
            errors.push(ExpandError::VariantWithoutGame { span });
            continue;
        };
        let sections = merge(&keys, &games[base].sections, &games[i].sections, section);
        let inherited_title = sections.iter().find_map(|&r| title_of(section(r)));
        if games[i].title.is_none() {
            errors.push(ExpandError::UntitledVariant {
                span,
                shown_as: inherited_title.map(|t| keys.interner.resolve(t).to_string()),
            });
        }
        games[i].base = Some(base);
        games[i].sections = sections;
        games[i].title = inherited_title;
    }
    games.retain(|g| g.kind == GameKind::Game || g.base.is_some());
    games
}

fn merge<'a>(
    keys: &Keys<'_>,
    base: &[SectionRef],
    own: &[SectionRef],
    section: impl Fn(SectionRef) -> &'a ENode,
) -> Vec<SectionRef> {
    let own_keys: Vec<Key> = own.iter().map(|&r| keys.key(section(r))).collect();
    let drops_goals = own_keys.contains(&Key::Goal);
    let mut merged: Vec<(SectionRef, Key)> = base
        .iter()
        .map(|&r| (r, keys.key(section(r))))
        .filter(|(_, key)| *key != Key::Default && !(drops_goals && *key == Key::Goal))
        .collect();
    let mut replaced_heads: Vec<Sym> = Vec::new();
    for (&r, key) in own.iter().zip(own_keys) {
        match &key {
            Key::Piece(Some(_)) | Key::Option(_) => {
                if let Some(slot) = merged.iter_mut().find(|(_, k)| *k == key) {
                    slot.0 = r;
                    continue;
                }
            }
            Key::Head(Some(head)) if !replaced_heads.contains(head) => {
                replaced_heads.push(*head);
                if let Some(first) = merged.iter().position(|(_, k)| *k == key) {
                    merged[first].0 = r;
                    let mut index = 0;
                    merged.retain(|(_, k)| {
                        index += 1;
                        index - 1 == first || *k != key
                    });
                    continue;
                }
            }
            _ => {}
        }
        merged.push((r, key));
    }
    merged.into_iter().map(|(r, _)| r).collect()
}
