//! The registry of diagnostic codes: what each one means, why it matters, and a small
//! input that gets it. `zrfc explain CODE` prints an entry; a test checks that every
//! code the compiler uses is here, and each in one stage only.

/// One diagnostic code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Code {
    /// `E0101` (errors) or `W0301` (warnings); the hundreds tell the stage: 1 reading,
    /// 2 includes, 3 macros, 4 rules, 5 saved games.
    pub code: &'static str,
    /// The problem in a few words.
    pub title: &'static str,
    /// What is wrong, why, and how to mend it.
    pub explanation: &'static str,
    /// A small input that gets this diagnostic, when one can be written in a few lines.
    pub example: Option<&'static str>,
}

/// The entry of `code`, in any case (`e0101` finds `E0101`).
pub fn lookup(code: &str) -> Option<&'static Code> {
    CODES.iter().find(|c| c.code.eq_ignore_ascii_case(code))
}

/// Every code, in order.
pub const CODES: &[Code] = &[
    Code {
        code: "E0100",
        title: "the file cannot be read",
        explanation: "The rules file itself could not be read: it does not exist, it is not \
            a regular file (a folder, a pipe, a device), it is larger than the reader takes, \
            or reading it failed. The message gives the reason. The language server reports \
            this at the start of the document; the command line prints it and exits 2.",
        example: None,
    },
    Code {
        code: "E0101",
        title: "unclosed `(`",
        explanation: "A list opened with `(` is never closed. The reader reports the `(` and \
            where it gave up (the end of the file, or the next top-level form, which it takes \
            as a sign that a `)` is missing). Count the parentheses of the form reported; \
            an editor that matches parentheses shows the place.",
        example: Some("(game (title \"Unclosed\")\n  (players White Black)\n"),
    },
    Code {
        code: "E0102",
        title: "unexpected `)`",
        explanation: "A `)` closes no open list. Usually a form above it was closed once too \
            often. The diagnostic points at the stray `)` and, when there is one, at the \
            form just before it.",
        example: Some("(game (title \"Stray\")))\n"),
    },
    Code {
        code: "E0103",
        title: "unterminated string",
        explanation: "A string opened with `\"` runs to the end of the file. Strings may \
            span lines (help texts often do), so the missing quote can be far above the end.",
        example: Some("(game (title \"Unterminated)\n"),
    },
    Code {
        code: "E0104",
        title: "lists nested too deeply",
        explanation: "Lists nest deeper than the reader follows. Real rules files nest at \
            most 64 levels; deeper nesting is a machine-made or damaged file. Its contents \
            are skipped so that the rest of the file can still be read.",
        example: None,
    },
    Code {
        code: "E0105",
        title: "more syntax errors",
        explanation: "Only the first syntax errors of a file are reported one by one; this \
            one counts the rest. Mend the first ones and read the file again.",
        example: None,
    },
    Code {
        code: "E0201",
        title: "malformed `include`",
        explanation: "An `include` names one file, in quotes: `(include \"file.zrf\")`.",
        example: Some("(include file.zrf)\n"),
    },
    Code {
        code: "E0202",
        title: "included file not found",
        explanation: "The file an `include` names is not next to the including file nor in \
            any folder given with `-I`. The notes list every place looked at. Names are \
            matched ignoring case, as on Windows.",
        example: Some("(include \"missing.inc\")\n"),
    },
    Code {
        code: "E0203",
        title: "include cycle",
        explanation: "A file includes itself, directly or through others. Each file is \
            read once; remove one of the includes in the chain shown.",
        example: None,
    },
    Code {
        code: "E0204",
        title: "cannot read included file",
        explanation: "The included file exists but could not be read (permissions, a \
            folder, a device, or a file too large). The note gives the reason.",
        example: None,
    },
    Code {
        code: "E0205",
        title: "included file outside the rules' folders",
        explanation: "An `include` reaches outside the including file's folder and the `-I` \
            folders (an absolute path, or `..`). It is not read, so that a rules file \
            cannot make the compiler read any file on the machine. Copy the file next to \
            the rules or pass its folder with `-I`.",
        example: Some("(include \"/etc/passwd\")\n"),
    },
    Code {
        code: "E0301",
        title: "macro parameter without a value",
        explanation: "A macro body uses `$N`, but the call passes fewer than N arguments and \
            no enclosing macro call supplies one (Zillions lets a body use the parameters \
            of the call it is expanded in). Pass the argument, or call the macro from one \
            that has that parameter.",
        example: Some(
            "(define step ((verify (in-zone? $2)) $1 add))\n(game (title \"T\") (piece (name P) (moves (step n))))\n",
        ),
    },
    Code {
        code: "E0302",
        title: "`$N` outside a macro",
        explanation: "Parameters have values only inside the body of a `define`.",
        example: Some("(game (title $1))\n"),
    },
    Code {
        code: "E0303",
        title: "macro calls nested too deeply",
        explanation: "Macro calls nest deeper than the expander follows: usually a macro \
            that calls itself, directly or through others, with no end.",
        example: Some("(define loop (loop))\n(game (title \"T\") (loop))\n"),
    },
    Code {
        code: "E0304",
        title: "expansion too large",
        explanation: "Expanding the macros creates more nodes than the limit: macros whose \
            bodies call others several times each grow exponentially. Real rules files \
            stay far below the limit.",
        example: None,
    },
    Code {
        code: "E0305",
        title: "expanded lists nested too deeply",
        explanation: "After expansion, lists nest deeper than the compiler follows, \
            although the written file did not: macros wrap their arguments in lists again \
            and again.",
        example: None,
    },
    Code {
        code: "E0306",
        title: "a list pasted into a name",
        explanation: "A parameter is pasted into a name (`t-$1`), but the argument is a \
            list. Only words can be pasted together.",
        example: Some(
            "(define zone-of (in-zone? z-$1))\n(game (title \"T\") (piece (name P) (moves ((verify (zone-of (a b))) add))))\n",
        ),
    },
    Code {
        code: "E0307",
        title: "top-level form inside another",
        explanation: "`game`, `variant`, `define`, `include` and `version` belong at the \
            top level of a file; one stands inside another form, usually because a `)` is \
            missing above it.",
        example: Some("(game (title \"T\") (define m add))\n"),
    },
    Code {
        code: "E0308",
        title: "malformed `define`",
        explanation: "A macro definition is `(define NAME body...)`, with a word for its name.",
        example: Some("(define (m) add)\n"),
    },
    Code {
        code: "E0309",
        title: "unknown top-level form",
        explanation: "A file holds `define`, `game`, `variant`, `include` and `version` \
            forms (and macro calls that expand to them). A close name is suggested.",
        example: Some("(gmae (title \"Typo\"))\n"),
    },
    Code {
        code: "E0310",
        title: "variant without a game",
        explanation: "A `variant` changes the `game` before it; this file has no game.",
        example: Some("(variant (title \"Alone\"))\n"),
    },
    Code {
        code: "E0311",
        title: "game or variant without a title",
        explanation: "Zillions lists games and variants by title, and saved games name \
            them by it: each needs `(title \"...\")`.",
        example: Some("(game (players White Black))\n"),
    },
    Code {
        code: "E0312",
        title: "no game in this file",
        explanation: "Nothing in the file or its includes is a `(game ...)`. A file of \
            macros only is meant to be included by another.",
        example: Some("(define step (n add))\n"),
    },
    Code {
        code: "E0313",
        title: "pasted names too long",
        explanation: "Pasting parameters into names makes more bytes of names than the \
            limit: a macro that pastes a growing name into itself.",
        example: None,
    },
    Code {
        code: "W0301",
        title: "macro defined twice",
        explanation: "Two `define`s give the same name. As in Zillions, the later \
            definition is used everywhere in the file, even by calls written above it, \
            and the earlier one is ignored.",
        example: Some("(define m add)\n(define m (n add))\n"),
    },
    Code {
        code: "W0302",
        title: "variant without a title of its own",
        explanation: "A `variant` has no title, so it is shown under its game's title and \
            cannot be told apart in menus or chosen with `--variant`.",
        example: None,
    },
    Code {
        code: "W0303",
        title: "macro never used",
        explanation: "A macro defined in the rules file is called by no game or variant, \
            nor by any macro they call: often a call misspelt elsewhere (which is then \
            reported as an unknown word), or rules left behind. Macros of included files \
            are libraries and are not reported.",
        example: Some(
            "(define slide ($1 (while empty? add $1)))\n(game (title \"T\") (players A B) (turn-order A B)\n (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b\" (10 0)) (\"1\" (0 10))) (directions (e 1 0)))))\n",
        ),
    },
    Code {
        code: "E0401",
        title: "unknown word",
        explanation: "A section, statement, condition or option is not one the language \
            has where it stands: a typo, a macro that is not defined, or a direction or \
            position the board does not declare. A close name (keywords, macros, \
            directions, positions) is suggested; where none is close, the board's \
            directions are listed.",
        example: Some(
            "(game (title \"T\") (players A B) (turn-order A B)\n (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b\" (10 0)) (\"1\" (0 10))) (directions (e 1 0))))\n (piece (name P) (moves (east add))))\n",
        ),
    },
    Code {
        code: "E0402",
        title: "wrong number of arguments",
        explanation: "A form has more or fewer arguments than it takes; the label says what \
            it expects.",
        example: Some(
            "(game (title \"T\") (players A B) (turn-order A B)\n (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b\" (10 0)) (\"1\" (0 10))) (directions (e 1 0))))\n (piece (name P) (moves ((verify) e add))))\n",
        ),
    },
    Code {
        code: "E0403",
        title: "undefined name",
        explanation: "A player, piece, position, direction, zone, attribute or move type is \
            used but never declared. A close name is suggested, or how to declare it.",
        example: Some(
            "(game (title \"T\") (players A B) (turn-order A B)\n (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b\" (10 0)) (\"1\" (0 10))) (directions (e 1 0))))\n (board-setup (A (Pawn a1))))\n",
        ),
    },
    Code {
        code: "E0404",
        title: "declared twice",
        explanation: "A name is declared twice in one game (two pieces, zones or \
            attributes of the same name).",
        example: None,
    },
    Code {
        code: "E0405",
        title: "malformed argument",
        explanation: "An argument has the wrong shape: a list where a name belongs, a word \
            where a number does.",
        example: Some("(game (title \"T\") (players A B) (board (grid (start-rectangle a 0 10 10))))\n"),
    },
    Code {
        code: "E0406",
        title: "missing section",
        explanation: "Every game needs `players` and a `board`; a variant takes them from \
            its game.",
        example: Some("(game (title \"Empty\"))\n"),
    },
    Code {
        code: "E0407",
        title: "more than the runtime holds",
        explanation: "The game has more positions, directions, piece types, players, \
            attributes or flags than the runtime's fixed-size tables can number. The \
            limits are in `zrf_runtime::limits`; real games stay far below them.",
        example: None,
    },
    Code {
        code: "E0408",
        title: "more errors in this game",
        explanation: "Only the first errors of a game are reported one by one; this one \
            counts the rest.",
        example: None,
    },
    Code {
        code: "W0401",
        title: "Dagaz-only option",
        explanation: "The option is read by Dagaz, whose rules for it live in JavaScript, \
            not in the ZRF text. Zillions ignores it, and so does zrf: the game plays \
            without that rule.",
        example: None,
    },
    Code {
        code: "W0402",
        title: "unknown option",
        explanation: "An `(option \"...\" ...)` that neither Zillions nor Dagaz knows has no \
            effect on the rules; check its spelling.",
        example: Some(
            "(game (title \"T\") (option \"pass trun\" true) (players A B) (turn-order A B)\n (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b\" (10 0)) (\"1\" (0 10))) (directions (e 1 0)))))\n",
        ),
    },
    Code {
        code: "W0403",
        title: "moves come from an Axiom engine",
        explanation: "`(engine \"...\")` hands move generation to an Axiom plug-in written in \
            ForthScript. Its moves are not in the ZRF text, so zrf plays the moves the \
            file itself describes, which may be none or others.",
        example: None,
    },
    Code {
        code: "W0404",
        title: "Dagaz extension",
        explanation: "A form Dagaz added to the language, which Zillions does not know. zrf \
            reads it as the plain ZRF the label names; the game may play differently from \
            Dagaz.",
        example: None,
    },
    Code {
        code: "W0405",
        title: "no legal move at the start",
        explanation: "The player who moves first has no legal move in the starting \
            position, so the game is over before it begins (Zillions ends it at once). \
            Usually pieces are missing: a drop game needs pieces off the board, given as \
            `(board-setup (White (Stone off 20)))`, and a board setup may have been left \
            out or named for another player.",
        example: Some(
            "(game (title \"T\") (players A B) (turn-order A B)\n (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b\" (10 0)) (\"1\" (0 10))) (directions (e 1 0))))\n (piece (name Stone) (drops ((verify empty?) add))))\n",
        ),
    },
    Code {
        code: "W0406",
        title: "zone never used",
        explanation: "A zone is defined on the board but, once macros are expanded, no move \
            (`in-zone?`), goal or other rule of the game names it. The zone has no effect; \
            often a rule names it differently (a misspelling, or a name changed in one \
            place only). Zones defined once per player count as one definition.",
        example: Some(
            "(game (title \"T\") (players A B) (turn-order A B)\n (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b\" (10 0)) (\"1\" (0 10))) (directions (e 1 0)))\n  (zone (name goal) (players A B) (positions b1)))\n (piece (name Stone) (moves (e (verify empty?) add)))\n (board-setup (A (Stone a1)) (B (Stone b1))))\n",
        ),
    },
    Code {
        code: "W0407",
        title: "piece type never used",
        explanation: "A piece type is defined but, once macros are expanded, nothing names \
            it again: no board setup (on the board or off it), no `create`, no \
            `change-type`, no goal. It can never stand on the board. Usually the setup or \
            a promotion names it differently.",
        example: Some(
            "(game (title \"T\") (players A B) (turn-order A B)\n (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b\" (10 0)) (\"1\" (0 10))) (directions (e 1 0))))\n (piece (name Stone) (moves (e (verify empty?) add)))\n (piece (name Ghost) (moves (e (verify empty?) add)))\n (board-setup (A (Stone a1)) (B (Stone b1))))\n",
        ),
    },
    Code {
        code: "W0408",
        title: "move type never played",
        explanation: "Every entry of the turn order restricts its turn to a move type \
            (`(White place)`), and some pieces list moves under a move type that no entry \
            names. Zillions offers a turn only the moves of its type, so those moves are \
            never played. Name the type in a turn, or move the moves under a type that is \
            played.",
        example: Some(
            "(game (title \"T\") (players A B) (turn-order (A place) (B place))\n (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b\" (10 0)) (\"1\" (0 10))) (directions (e 1 0))))\n (piece (name Stone) (drops (move-type place) ((verify empty?) add)) (moves (move-type slide) (e (verify empty?) add)))\n (board-setup (A (Stone off 2)) (B (Stone off 2))))\n",
        ),
    },
    Code {
        code: "W0409",
        title: "positions no piece can reach",
        explanation: "Some positions can never hold a piece: no direction leads to them, \
            no piece starts on them, no rule names them (a template's jump, a goal) and \
            the game has no drops. Usually a grid dimension or a link was left out, or a \
            position is misspelled where the links are given.",
        example: Some(
            "(game (title \"T\") (players A B) (turn-order A B)\n (board (positions (a1 0 0 10 10) (b1 10 0 20 10) (c1 20 0 30 10)) (links e (a1 b1)))\n (piece (name Stone) (moves (e (verify empty?) add)))\n (board-setup (A (Stone a1)) (B (Stone b1))))\n",
        ),
    },
    Code {
        code: "W0410",
        title: "flag read before it is set",
        explanation: "A template tests a flag (`flag?`, `not-flag?`) that nothing run \
            before the test in the same template sets. Flags start false in every run of a \
            move template, and again at every partial move, so the test always reads \
            false: a flag set by another template, or by an earlier part of the same \
            move, is not seen. Set the flag earlier in the template, or carry the fact \
            in an attribute or a position.",
        example: Some(
            "(game (title \"T\") (players A B) (turn-order A B)\n (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b\" (10 0)) (\"2/1\" (0 10))) (directions (n 0 -1))))\n (piece (name Stone) (moves (n (verify (flag? jumped)) add)))\n (board-setup (A (Stone a1)) (B (Stone b2))))\n",
        ),
    },
    Code {
        code: "W0411",
        title: "effect recorded once for a loop that adds many moves",
        explanation: "`add` makes a move of the effects recorded since the previous \
            `add` (captures, type changes, flips, attributes), and the template runs on. \
            An effect recorded before a loop whose every turn adds a move is part of the \
            first move only: a flying king that captures, then adds on each empty square \
            beyond, captures only when it stops on the first. An effect recorded in a \
            loop after its `add` goes into the next move instead. Record the effect in the \
            loop, before its `add`.",
        example: Some(
            "(game (title \"T\") (players A B) (turn-order A B)\n (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b/c/d\" (10 0)) (\"1\" (0 10))) (directions (e 1 0))))\n (piece (name King) (moves (e (verify enemy?) capture e (while empty? add e))))\n (board-setup (A (King a1)) (B (King b1))))\n",
        ),
    },
    Code {
        code: "W0412",
        title: "attribute set on the square the piece leaves",
        explanation: "`set-attribute` sets the attribute of whatever piece stands on the \
            current square once the move is made, not of the moving piece. Set on the \
            start square before the template steps away, it marks nothing (the square is \
            empty after the move) and is lost. To mark the moving piece, set the \
            attribute after stepping to its destination, before `add`.",
        example: Some(
            "(game (title \"T\") (players A B) (turn-order A B)\n (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b\" (10 0)) (\"2/1\" (0 10))) (directions (n 0 -1))))\n (piece (name Stone) (attribute moved false) (moves ((set-attribute moved true) n (verify empty?) add)))\n (board-setup (A (Stone a1)) (B (Stone b2))))\n",
        ),
    },
    Code {
        code: "W0413",
        title: "capture of a square the move changed",
        explanation: "Zillions keeps one change per square in a move. A `capture` of a \
            square whose piece the same move already changed (`change-type`, \
            `change-owner`, `flip`) is dropped: the piece stays, changed. Capture it \
            without changing it first, or change it in a move of its own.",
        example: Some(
            "(game (title \"T\") (players A B) (turn-order A B)\n (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b/c\" (10 0)) (\"1\" (0 10))) (directions (e 1 0))))\n (piece (name Stone) (moves (e (verify enemy?) (change-type Stone) capture e (verify empty?) add)))\n (board-setup (A (Stone a1)) (B (Stone b1))))\n",
        ),
    },
    Code {
        code: "E0501",
        title: "malformed saved game",
        explanation: "A saved game (.zsg) could not be read: a header line or a move record \
            is not in the format Zillions writes. A move record is `N. [partial K] \
            effects`; edits are `(x POS)` or `(PLAYER PIECE POS)`. After the first errors \
            the rest are counted.",
        example: None,
    },
    Code {
        code: "E0502",
        title: "record cannot be replayed",
        explanation: "No legal move of the side to move (nor continuation of a partial \
            move) reproduces the record: same pieces, owners and attributes on every \
            square. Either the rules file differs from the one the game was recorded \
            with, or the engine reads a rule differently from Zillions. The position, the \
            engine's moves and the nearest one's differences are shown.",
        example: None,
    },
];
