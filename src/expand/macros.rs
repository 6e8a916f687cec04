//! The expansion engine: collects definitions, instantiates macro bodies with their
//! arguments, and re-expands the result, within the limits of [`ExpandOptions`].

use std::collections::{HashMap, HashSet};
use std::num::NonZeroU32;
use std::rc::Rc;

use super::error::ExpandError;
use super::template::{compile, Piece, TNode};
use super::variants::build_games;
use super::{EKind, ENode, ExpandOptions, Expanded, Expansion, ExpnId};
use crate::intern::{Interner, Sym};
use crate::source::{FileId, Span};
use crate::syntax::{Loaded, Node};

/// Heads that only begin top-level forms.
const TOP_LEVEL_ONLY: [&str; 5] = ["define", "include", "game", "variant", "version"];

/// Expands a loaded file: splices includes, collects definitions, expands every other
/// top-level form and builds the games and variants.
pub fn expand(loaded: &Loaded, options: &ExpandOptions) -> Expanded {
    let mut interner = Interner::new();
    let top_level_only = TOP_LEVEL_ONLY.map(|name| interner.intern(name));
    let mut expander = Expander {
        options: *options,
        interner,
        expansions: Vec::new(),
        errors: Vec::new(),
        macros: HashMap::new(),
        created: 0,
        pasted_bytes: 0,
        exhausted: false,
        top_level_only,
    };

    let mut written = Vec::new();
    let mut spliced = vec![loaded.root];
    splice_includes(loaded, loaded.root, &mut spliced, &mut written);
    let (definitions, others): (Vec<&Node>, Vec<&Node>) = written
        .into_iter()
        .partition(|form| form.head() == Some("define"));
    for definition in definitions {
        expander.define(definition);
    }
    let mut forms = Vec::new();
    for form in others {
        if expander.exhausted {
            break;
        }
        expander.expand_top_level(form, &mut forms);
    }
    let known: Vec<Sym> = ["game", "variant", "version"]
        .iter()
        .map(|name| expander.interner.intern(name))
        .collect();
    let mut macro_names: Vec<String> = expander
        .macros
        .keys()
        .map(|&name| expander.interner.resolve(name).to_string())
        .collect();
    macro_names.sort();
    // `translate` (names shown in another language) is known to Zillions and has no
    // effect on the rules.
    let no_effect = expander.interner.intern("translate");
    forms.retain(|form| {
        let head = form.head();
        if head.is_some_and(|h| known.contains(&h)) {
            return true;
        }
        if head == Some(no_effect) {
            return false;
        }
        let head = head.map(|h| expander.interner.resolve(h).to_string());
        let suggestion = head.as_deref().and_then(|head| {
            let forms = ["define", "game", "variant", "include", "version"];
            let macros = macro_names.iter().map(String::as_str);
            crate::diag::closest(head, forms.into_iter().chain(macros))
        });
        expander.errors.push(ExpandError::UnknownTopLevel {
            span: form.span,
            head,
            suggestion,
            expn: form.expn,
        });
        false
    });
    let mut errors = expander.errors;
    let games = build_games(&forms, &mut expander.interner, &mut errors);
    // Macros of included files are libraries: only the root file's are reported, and
    // only when expansion ran to the end and made a game.
    let called: HashSet<Sym> = expander.expansions.iter().map(|e| e.macro_name).collect();
    let mut unused: Vec<(Span, Sym)> = expander
        .macros
        .iter()
        .filter(|(name, m)| m.name_span.file == loaded.root && !called.contains(name))
        .filter(|_| !expander.exhausted && !games.is_empty())
        .map(|(&name, m)| (m.name_span, name))
        .collect();
    unused.sort_by_key(|(span, _)| span.start);
    for (span, name) in unused {
        errors.push(ExpandError::UnusedMacro {
            span,
            name: expander.interner.resolve(name).to_string(),
        });
    }
    // Only when no other error explains it (a variant without a game, a failed
    // expansion); the warnings say nothing of games.
    let warning = |e: &ExpandError| {
        matches!(
            e,
            ExpandError::UntitledVariant { .. }
                | ExpandError::Redefinition { .. }
                | ExpandError::UnusedMacro { .. }
        )
    };
    if games.is_empty() && errors.iter().all(warning) {
        errors.push(ExpandError::NoGame {
            span: Span::new(loaded.root, 0, 0),
        });
    }
    Expanded {
        interner: expander.interner,
        expansions: expander.expansions,
        forms,
        games,
        errors,
        created_nodes: expander.created,
        macro_names,
    }
}

/// The written top-level forms of `file` with each resolved `(include ...)` replaced by
/// the forms of the included file (each file once).
fn splice_includes<'a>(
    loaded: &'a Loaded,
    file: FileId,
    spliced: &mut Vec<FileId>,
    out: &mut Vec<&'a Node>,
) {
    let Some(parsed) = loaded.parsed(file) else {
        return;
    };
    for form in &parsed.forms {
        if form.head() != Some("include") {
            out.push(form);
            continue;
        }
        // Unresolved includes were reported by the syntax stage.
        if let Some(target) = loaded.include_target(form.span) {
            if !spliced.contains(&target) {
                spliced.push(target);
                splice_includes(loaded, target, spliced, out);
            }
        }
    }
}

struct Macro {
    body: Vec<TNode>,
    /// The name in `(define NAME ...)`.
    name_span: Span,
}

/// Expansion of the current top-level form stopped; the error is recorded.
struct Abort;

type Flow = Result<(), Abort>;

/// The arguments of one macro call, with the enclosing call's for missing parameters.
struct Env<'e> {
    args: &'e [ENode],
    parent: Option<&'e Env<'e>>,
    macro_name: Sym,
    call_site: Span,
    expn: ExpnId,
    depth: usize,
}

impl Env<'_> {
    fn lookup(&self, param: u32) -> Option<&ENode> {
        let index = (param as usize).checked_sub(1)?;
        match self.args.get(index) {
            Some(arg) => Some(arg),
            None => self.parent?.lookup(param),
        }
    }
}

struct Expander {
    options: ExpandOptions,
    interner: Interner,
    expansions: Vec<Expansion>,
    errors: Vec<ExpandError>,
    macros: HashMap<Sym, Rc<Macro>>,
    created: usize,
    /// Bytes of pasted names and strings so far (counted against
    /// [`ExpandOptions::max_pasted_bytes`]).
    pasted_bytes: usize,
    /// The node limit was reached: nothing more is expanded in this file.
    exhausted: bool,
    top_level_only: [Sym; 5],
}

impl Expander {
    fn define(&mut self, form: &Node) {
        let items = form.as_list().unwrap_or_default();
        let Some(name_node) = items.get(1).filter(|n| n.as_atom().is_some()) else {
            self.errors
                .push(ExpandError::MalformedDefine { span: form.span });
            return;
        };
        let name = self
            .interner
            .intern(name_node.as_atom().unwrap_or_default());
        let body = items[2..]
            .iter()
            .map(|n| compile(n, &mut self.interner))
            .collect();
        let new = Rc::new(Macro {
            body,
            name_span: name_node.span,
        });
        if let Some(previous) = self.macros.insert(name, new) {
            self.errors.push(ExpandError::Redefinition {
                span: name_node.span,
                name: self.interner.resolve(name).to_string(),
                previous: previous.name_span,
            });
        }
    }

    fn expand_top_level(&mut self, form: &Node, out: &mut Vec<ENode>) {
        let template = compile(form, &mut self.interner);
        let mut expanded = Vec::new();
        if self
            .expand_template(&template, None, None, 0, &mut expanded)
            .is_ok()
        {
            out.extend(expanded);
        }
    }

    /// Instantiates and expands a template in one pass, so the nodes of a macro body are
    /// built once (instantiating first and expanding after would copy every list twice).
    fn expand_template(
        &mut self,
        template: &TNode,
        env: Option<&Env<'_>>,
        expn: Option<ExpnId>,
        depth: usize,
        out: &mut Vec<ENode>,
    ) -> Flow {
        let TNode::List(items, span) = template else {
            // A whole-atom parameter may bring a list holding calls: expand what it brings.
            let mut instance = Vec::with_capacity(1);
            self.instantiate(template, env, expn, &mut instance)?;
            for node in instance {
                self.expand_node(node, env, depth, out)?;
            }
            return Ok(());
        };
        if depth > self.options.max_nesting {
            self.errors.push(ExpandError::NestingLimit {
                span: *span,
                limit: self.options.max_nesting,
                expn,
            });
            return Err(Abort);
        }
        match items.first() {
            Some(TNode::Atom(head, _)) => {
                if let Some(definition) = self.macros.get(head).cloned() {
                    self.count(1, env, *span)?;
                    let mut args = Vec::with_capacity(items.len() - 1);
                    for arg in &items[1..] {
                        self.instantiate(arg, env, expn, &mut args)?;
                    }
                    return self.call(&definition, *head, args, *span, expn, env, depth, out);
                }
                if depth > 0 && self.top_level_only.contains(head) {
                    self.errors.push(ExpandError::NotAtTopLevel {
                        span: *span,
                        head: self.interner.resolve(*head).to_string(),
                        expn,
                    });
                    return Ok(());
                }
            }
            // The head comes from a parameter: it may name a macro only once substituted.
            Some(TNode::Param(..) | TNode::PastedAtom(..)) => {
                let mut instance = Vec::with_capacity(1);
                self.instantiate(template, env, expn, &mut instance)?;
                for node in instance {
                    self.expand_node(node, env, depth, out)?;
                }
                return Ok(());
            }
            _ => {}
        }
        self.count(1, env, *span)?;
        let mut children = Vec::with_capacity(items.len());
        for item in items {
            self.expand_template(item, env, expn, depth + 1, &mut children)?;
        }
        out.push(ENode {
            kind: EKind::List(children.into_boxed_slice()),
            span: *span,
            expn,
        });
        Ok(())
    }

    /// Where a limit was reached: the macro call under way (its site, name and
    /// expansion), or `span` outside any call.
    fn blame(&self, env: Option<&Env<'_>>, span: Span) -> (Span, String, Option<ExpnId>) {
        match env {
            Some(env) => (
                env.call_site,
                self.interner.resolve(env.macro_name).to_string(),
                Some(env.expn),
            ),
            None => (span, String::new(), None),
        }
    }

    /// Counts created nodes; `span` is blamed when no macro call is under way.
    fn count(&mut self, nodes: usize, env: Option<&Env<'_>>, span: Span) -> Flow {
        self.created += nodes;
        if self.created <= self.options.max_nodes {
            return Ok(());
        }
        self.exhausted = true;
        let (span, macro_name, expn) = self.blame(env, span);
        self.errors.push(ExpandError::NodeLimit {
            span,
            macro_name,
            limit: self.options.max_nodes,
            expn,
        });
        Err(Abort)
    }

    /// Copies a template, replacing parameters by arguments.
    fn instantiate(
        &mut self,
        template: &TNode,
        env: Option<&Env<'_>>,
        expn: Option<ExpnId>,
        out: &mut Vec<ENode>,
    ) -> Flow {
        let node = |kind, span| ENode { kind, span, expn };
        match template {
            TNode::List(items, span) => {
                self.count(1, env, *span)?;
                let mut children = Vec::with_capacity(items.len());
                for item in items {
                    self.instantiate(item, env, expn, &mut children)?;
                }
                out.push(node(EKind::List(children.into_boxed_slice()), *span));
            }
            TNode::Atom(sym, span) => {
                self.count(1, env, *span)?;
                out.push(node(EKind::Atom(*sym), *span));
            }
            TNode::Str(sym, span) => {
                self.count(1, env, *span)?;
                out.push(node(EKind::Str(*sym), *span));
            }
            TNode::Param(param, span) => match self.argument(*param, *span, env, expn) {
                Some(arg) => {
                    self.count(subtree_size(&arg), env, *span)?;
                    out.push(arg);
                }
                None => {
                    self.count(1, env, *span)?;
                    let sym = self.interner.intern(&format!("${param}"));
                    out.push(node(EKind::Atom(sym), *span));
                }
            },
            TNode::PastedAtom(pieces, span) => {
                self.count(1, env, *span)?;
                let sym = self.paste(pieces, *span, env, expn)?;
                out.push(node(EKind::Atom(sym), *span));
            }
            TNode::PastedStr(pieces, span) => {
                self.count(1, env, *span)?;
                let sym = self.paste(pieces, *span, env, expn)?;
                out.push(node(EKind::Str(sym), *span));
            }
        }
        Ok(())
    }

    /// The argument for `$param`, or `None` after reporting that there is none.
    fn argument(
        &mut self,
        param: u32,
        span: Span,
        env: Option<&Env<'_>>,
        expn: Option<ExpnId>,
    ) -> Option<ENode> {
        let Some(env) = env else {
            self.errors
                .push(ExpandError::ParameterOutsideMacro { span, param });
            return None;
        };
        if let Some(arg) = env.lookup(param) {
            return Some(arg.clone());
        }
        self.errors.push(ExpandError::UndefinedParameter {
            span,
            param,
            macro_name: self.interner.resolve(env.macro_name).to_string(),
            expn,
        });
        None
    }

    /// The name or string of `pieces` with the arguments pasted in; the pasted bytes
    /// count against [`ExpandOptions::max_pasted_bytes`], tested before each piece is
    /// added so that no oversized text is ever built.
    fn paste(
        &mut self,
        pieces: &[Piece],
        span: Span,
        env: Option<&Env<'_>>,
        expn: Option<ExpnId>,
    ) -> Result<Sym, Abort> {
        let mut text = String::new();
        for piece in pieces {
            match piece {
                Piece::Text(literal) => text.push_str(literal),
                Piece::Param(param) => match self.argument(*param, span, env, expn).map(|a| a.kind)
                {
                    Some(EKind::Atom(sym) | EKind::Str(sym)) => {
                        let pasted = self.interner.resolve(sym);
                        self.pasted_bytes += pasted.len();
                        if self.pasted_bytes > self.options.max_pasted_bytes {
                            return Err(self.paste_limit(span, env));
                        }
                        text.push_str(pasted);
                    }
                    Some(EKind::List(_)) => {
                        self.errors.push(ExpandError::ListPasted {
                            span,
                            param: *param,
                            expn,
                        });
                    }
                    None => text.push_str(&format!("${param}")),
                },
            }
        }
        Ok(self.interner.intern(&text))
    }

    fn paste_limit(&mut self, span: Span, env: Option<&Env<'_>>) -> Abort {
        self.exhausted = true;
        let (span, macro_name, expn) = self.blame(env, span);
        self.errors.push(ExpandError::PasteLimit {
            span,
            macro_name,
            limit: self.options.max_pasted_bytes,
            expn,
        });
        Abort
    }

    /// Expands macro calls in `node`, pushing the result (several nodes for a call whose
    /// body has several items, none for a dropped form) onto `out`.
    fn expand_node(
        &mut self,
        node: ENode,
        env: Option<&Env<'_>>,
        depth: usize,
        out: &mut Vec<ENode>,
    ) -> Flow {
        if depth > self.options.max_nesting {
            self.errors.push(ExpandError::NestingLimit {
                span: node.span,
                limit: self.options.max_nesting,
                expn: node.expn,
            });
            return Err(Abort);
        }
        let EKind::List(items) = node.kind else {
            out.push(node);
            return Ok(());
        };
        if let Some(head) = items.first().and_then(ENode::as_atom) {
            if let Some(definition) = self.macros.get(&head).cloned() {
                let args = items.into_vec().into_iter().skip(1).collect();
                return self.call(
                    &definition,
                    head,
                    args,
                    node.span,
                    node.expn,
                    env,
                    depth,
                    out,
                );
            }
            if depth > 0 && self.top_level_only.contains(&head) {
                self.errors.push(ExpandError::NotAtTopLevel {
                    span: node.span,
                    head: self.interner.resolve(head).to_string(),
                    expn: node.expn,
                });
                return Ok(());
            }
        }
        let mut children = Vec::with_capacity(items.len());
        for child in items.into_vec() {
            self.expand_node(child, env, depth + 1, &mut children)?;
        }
        out.push(ENode {
            kind: EKind::List(children.into_boxed_slice()),
            span: node.span,
            expn: node.expn,
        });
        Ok(())
    }

    #[allow(
        clippy::too_many_arguments,
        reason = "one call site; the arguments are the call's parts"
    )]
    fn call(
        &mut self,
        definition: &Macro,
        name: Sym,
        args: Vec<ENode>,
        call_site: Span,
        caller: Option<ExpnId>,
        env: Option<&Env<'_>>,
        depth: usize,
        out: &mut Vec<ENode>,
    ) -> Flow {
        let call_depth = env.map_or(0, |e| e.depth) + 1;
        let limit = self.options.max_call_depth.min(super::CALL_DEPTH_CEILING);
        if call_depth > limit {
            self.errors.push(ExpandError::CallDepth {
                span: call_site,
                macro_name: self.interner.resolve(name).to_string(),
                limit,
                expn: caller,
            });
            return Err(Abort);
        }
        self.expansions.push(Expansion {
            macro_name: name,
            call_site,
            def_site: definition.name_span,
            parent: caller,
        });
        let expn = ExpnId(NonZeroU32::MIN.saturating_add(self.expansions.len() as u32 - 1));
        let scope = Env {
            args: &args,
            parent: env,
            macro_name: name,
            call_site,
            expn,
            depth: call_depth,
        };
        for item in &definition.body {
            self.expand_template(item, Some(&scope), Some(expn), depth, out)?;
        }
        Ok(())
    }
}

fn subtree_size(node: &ENode) -> usize {
    match &node.kind {
        EKind::List(items) => 1 + items.iter().map(subtree_size).sum::<usize>(),
        _ => 1,
    }
}
