//! The rule primitives on a tiny board: a row of squares `p0 .. pN` linked east/west.

use std::rc::Rc;

use crate::history::History;
use crate::layout::ReadSizes;
use crate::piece::Piece;
use crate::state::{Change, State, Step};
use crate::tables::{Derived, Options, PieceInfo, Player, Tables, Turn, NO_POS};
use crate::{
    Continuation, Footprint, Loc, NeverNote, Placement, PlayerIx, Pos, Run, Steps, Zobrist,
};

fn row(squares: u32) -> Tables {
    let mut links = Vec::new();
    for p in 0..squares {
        links.push(if p + 1 < squares { p + 1 } else { NO_POS }); // e
        links.push(if p > 0 { p - 1 } else { NO_POS }); // w
    }
    Tables {
        title: "row".into(),
        about: Vec::new(),
        positions: (0..squares).map(|p| format!("p{p}")).collect(),
        rects: vec![None; squares as usize],
        directions: vec!["e".into(), "w".into()],
        links,
        zones: Vec::new(),
        zone_names: Vec::new(),
        symmetry: vec![vec![0, 1], vec![1, 0]],
        opposite: vec![Some(1), Some(0)],
        players: ["A", "B"]
            .iter()
            .map(|n| Player {
                name: n.to_string(),
                random: false,
            })
            .collect(),
        turns: vec![
            Turn {
                player: 0,
                move_as: 0,
                move_type: None,
            },
            Turn {
                player: 1,
                move_as: 1,
                move_type: None,
            },
        ],
        repeat_from: 0,
        pieces: ["Man", "King"]
            .iter()
            .map(|n| PieceInfo {
                name: n.to_string(),
                default_attributes: 0,
                dummy: false,
                about: Vec::new(),
                notation: None,
                shapes: Vec::new(),
                template_types: Vec::new(),
            })
            .collect(),
        attributes: vec!["marked?".into()],
        move_types: Vec::new(),
        flags: 1,
        position_flags: 0,
        setup: Vec::new(),
        goals: Vec::new(),
        priorities: Vec::new(),
        options: Options::default(),
        royal: vec![vec![false; 2]; 2],
        zobrist: Zobrist::new(crate::ZobristData {
            seed: 7,
            positions: squares as usize,
            players: 2,
            kinds: 2,
            attributes: 1,
        }),
        reach: None,
        evaluation: None,
        derived: Derived::default(),
    }
}

fn man(owner: u8) -> Piece {
    Piece {
        kind: 0,
        owner,
        attributes: 0,
    }
}

fn board(tables: &Tables, pieces: &[(u32, Piece)]) -> State {
    let mut state = State::start(tables);
    for &(pos, piece) in pieces {
        state.put(pos, Some(piece));
    }
    state
}

fn step(changes: Vec<Change>) -> Step {
    Step {
        from: None,
        to: 0,
        changes: changes.into(),
        move_type: None,
        continue_with: None,
    }
}

#[test]
fn a_pushed_row_moves_as_one() {
    let tables = row(5);
    let (a, b, c) = (man(0), man(1), man(0));
    let mut state = board(&tables, &[(0, a), (1, b), (2, c)]);
    state.apply_step(
        &tables,
        &step(vec![
            Change::Move { from: 0, to: 1 },
            Change::Move { from: 1, to: 2 },
            Change::Move { from: 2, to: 3 },
        ]),
    );
    assert_eq!(state.board()[..4], [None, Some(a), Some(b), Some(c)]);
    assert!(state.last_captured.is_empty());
}

#[test]
fn a_move_then_a_capture_ends_as_the_three_passes_leave_it_wherever_the_capture_is() {
    // Listed capture first, the same changes take the general three-pass path.
    let tables = row(4);
    let start = board(&tables, &[(0, man(0)), (1, man(1)), (2, man(1))]);
    for capture in 0..4 {
        let apply = |changes: Vec<Change>| {
            let mut state = start.clone();
            state.apply_step(&tables, &step(changes));
            (state.board().to_vec(), state.last_captured)
        };
        let (movement, taking) = (
            Change::Move { from: 0, to: 2 },
            Change::Capture { pos: capture },
        );
        let direct = apply(vec![movement, taking]);
        assert_eq!(
            direct,
            apply(vec![taking, movement]),
            "capture on p{capture}"
        );
        let expected_captures = match capture {
            0 | 3 => vec![man(1)],
            _ => vec![man(1), man(if capture == 2 { 0 } else { 1 })],
        };
        assert_eq!(direct.1[..], expected_captures[..], "capture on p{capture}");
    }
}

#[test]
fn the_destination_occupant_is_removed_whoever_owns_it() {
    let tables = row(3);
    let mut state = board(&tables, &[(0, man(0)), (1, man(0))]);
    state.apply_step(&tables, &step(vec![Change::Move { from: 0, to: 1 }]));
    assert_eq!(state.board()[..2], [None, Some(man(0))]);
    assert_eq!(state.last_captured[..], [man(0)]);
}

#[test]
fn a_piece_changed_in_a_step_cannot_also_be_captured_in_it() {
    let tables = row(3);
    let mut state = board(&tables, &[(1, man(1))]);
    state.apply_step(
        &tables,
        &step(vec![
            Change::ChangeType { pos: 1, kind: 1 },
            Change::Capture { pos: 1 },
        ]),
    );
    assert_eq!(state.board()[1].map(|p| p.kind), Some(1));
}

#[test]
fn attributes_land_on_the_piece_standing_there_after_the_move() {
    let tables = row(3);
    let mut state = board(&tables, &[(0, man(0))]);
    // Set at the start square: lost, since the piece leaves it.
    state.apply_step(
        &tables,
        &step(vec![
            Change::SetAttribute {
                pos: 0,
                attribute: 0,
                value: true,
            },
            Change::Move { from: 0, to: 2 },
        ]),
    );
    assert_eq!(state.board()[2].map(|p| p.attributes), Some(0));
    state.apply_step(
        &tables,
        &step(vec![
            Change::Move { from: 2, to: 1 },
            Change::SetAttribute {
                pos: 1,
                attribute: 0,
                value: true,
            },
        ]),
    );
    assert_eq!(state.board()[1].map(|p| p.attributes), Some(1));
}

#[test]
fn templates_see_the_board_before_the_move_and_adds_drop_earlier_effects() {
    let tables = row(5);
    let state = board(&tables, &[(0, man(0)), (1, man(1))]);
    let turn = tables.turns[0];
    let mut out = Steps::new();
    let mut run: Run<'_> = Run::for_move(&tables, &state, turn, 0, None, &mut out);
    // Capture next door, then slide: the captured piece still blocks `empty?`.
    assert!(run.capture(Loc::Dir(0)).is_ok());
    assert!(run.step(0).is_ok());
    assert!(!run.empty(Loc::Here));
    assert!(run.step(0).is_ok());
    run.add(&[], Placement::Move, Continuation::Complete);
    assert!(run.step(0).is_ok());
    run.add(&[], Placement::Move, Continuation::Complete);
    // The mover is still on its square while the template runs.
    assert!(run.friend(Loc::Pos(0)));
    let changes: Vec<&[Change]> = out.iter().map(|s| &s.changes[..]).collect();
    assert_eq!(
        changes,
        [
            &[Change::Move { from: 0, to: 2 }, Change::Capture { pos: 1 }][..],
            // The capture belonged to the first move only.
            &[Change::Move { from: 0, to: 3 }],
        ]
    );
}

#[test]
fn symmetry_turns_directions_for_the_second_player() {
    let tables = row(3);
    let state = board(&tables, &[(1, man(1))]);
    let mut out = Steps::new();
    let mut run: Run<'_> = Run::for_move(&tables, &state, tables.turns[1], 1, None, &mut out);
    // "e" for player B is west.
    assert!(run.step(0).is_ok());
    assert_eq!(run.pos, 0);
    assert!(run.step(0).is_err());
}

#[test]
fn each_player_tests_its_own_zones_and_a_player_without_turns_is_neutral() {
    // Two words of squares, two zones: "far" is p65 for A and p1 for B; "home" is p0 for
    // A only. A third player, N, has no turn.
    let mut tables = row(70);
    let bits = |squares: &[u32]| {
        let mut words = vec![0u64; 2];
        for &p in squares {
            words[p as usize / 64] |= 1 << (p % 64);
        }
        words
    };
    tables.zones = vec![vec![bits(&[65]), bits(&[1])], vec![bits(&[0])]];
    tables.players.push(Player {
        name: "N".into(),
        random: false,
    });
    let state = board(
        &tables,
        &[(64, man(0)), (2, man(1)), (66, man(2)), (3, man(0))],
    );
    let mut out = Steps::new();
    // A's "e" is east, B's is west; each arrives in its own "far" zone.
    for (turn, from, far) in [(0, 64, 65), (1, 2, 1)] {
        let mut run: Run<'_> =
            Run::for_move(&tables, &state, tables.turns[turn], from, None, &mut out);
        assert!(run.step(0).is_ok());
        assert_eq!(run.pos, far);
        assert_eq!(
            (run.in_zone(0, Loc::Here), run.in_zone(1, Loc::Here)),
            (true, false)
        );
    }
    let run: Run<'_> = Run::for_move(&tables, &state, tables.turns[0], 64, None, &mut out);
    assert!(!run.in_zone(0, Loc::Pos(1)));
    assert!(run.in_zone(1, Loc::Pos(0)));
    assert_eq!(
        (run.enemy(Loc::Pos(66)), run.neutral(Loc::Pos(66))),
        (false, true)
    );
    assert!(run.enemy(Loc::Pos(2)));
    let mut run: Run<'_> = Run::for_move(&tables, &state, tables.turns[1], 1, None, &mut out);
    assert!(!run.in_zone(0, Loc::Pos(65)));
    assert!(run.enemy(Loc::Pos(3)) && !run.enemy(Loc::Pos(66)));
    assert!(run.step(0).is_ok());
    assert!(run.step(0).is_err());
}

#[test]
fn the_turn_order_cycles_from_repeat() {
    let mut tables = row(2);
    tables.turns.insert(
        0,
        Turn {
            player: 1,
            move_as: 1,
            move_type: Some(0),
        },
    );
    tables.repeat_from = 1;
    let players: Vec<u8> = (0..6).map(|n| tables.turn(n).player).collect();
    assert_eq!(players, [1, 0, 1, 0, 1, 0]);
    assert_eq!(tables.turn(0).move_type, Some(0));
    assert_eq!(tables.turn(2).move_type, None);
    // A cycle of three turns after the first: 1, then (0 1 0) again and again.
    tables.turns.push(Turn {
        player: 0,
        move_as: 0,
        move_type: None,
    });
    let players: Vec<u8> = (0..10).map(|n| tables.turn(n).player).collect();
    assert_eq!(players, [1, 0, 1, 0, 0, 1, 0, 0, 1, 0]);
}

#[test]
fn an_attack_probe_keeps_only_steps_that_hit_its_targets() {
    let tables = row(5);
    let state = board(&tables, &[(0, man(0)), (2, man(1))]);
    let mut out = Steps::hitting(&[2]);
    let mut run: Run<'_> = Run::for_move(&tables, &state, tables.turns[0], 0, None, &mut out);
    assert!(run.step(0).is_ok());
    run.add(&[], Placement::Move, Continuation::Complete); // to p1: quiet, dropped
    assert!(run.step(0).is_ok());
    run.add(&[], Placement::Move, Continuation::Complete); // to p2: onto the target, kept
    assert!(run.capture(Loc::Pos(2)).is_ok());
    assert!(run.step(0).is_ok());
    run.add(&[], Placement::Move, Continuation::Complete); // to p3 capturing p2: kept
    assert!(run.step(0).is_ok());
    run.add(&[], Placement::Move, Continuation::Partial(None)); // to p4, partial: kept, its continuation might hit
    let kept: Vec<u32> = out.iter().map(|s| s.to).collect();
    assert_eq!(kept, [2, 3, 4]);
}

#[test]
fn a_noting_probe_records_the_squares_its_run_looked_at() {
    let tables = row(6);
    let state = board(&tables, &[(0, man(0)), (3, man(1))]);
    let mut out = Steps::hitting(&[3]).noting_reads();
    let mut run: Run<'_> = Run::for_move(&tables, &state, tables.turns[0], 0, None, &mut out);
    // Slide east over empty squares; the enemy on p3 stops the slide.
    while run.step(0).is_ok() && run.empty(Loc::Here) {}
    assert!(run.enemy(Loc::Here));
    let footprint = out.footprint();
    let looked: Vec<u32> = (0..6).filter(|&p| footprint.contains(p)).collect();
    assert_eq!(looked, [0, 1, 2, 3]);
    // What the last move did is not a square: the footprint then covers everything.
    let mut out = Steps::hitting(&[3]).noting_reads();
    let run: Run<'_> = Run::for_move(&tables, &state, tables.turns[0], 0, None, &mut out);
    assert!(!run.last_to(Loc::Here));
    assert_eq!(out.footprint(), Footprint::EVERYTHING);
    // Without noting_reads, nothing is noted.
    let mut out = Steps::hitting(&[3]);
    let run: Run<'_> = Run::for_move(&tables, &state, tables.turns[0], 0, None, &mut out);
    assert!(run.empty(Loc::Pos(4)));
    assert_eq!(out.footprint(), Footprint::default());
}

#[test]
fn a_run_that_never_notes_covers_everything_when_its_probe_asks() {
    let tables = row(6);
    let state = board(&tables, &[(0, man(0)), (3, man(1))]);
    let mut out = Steps::hitting(&[3]).noting_reads();
    let mut run: Run<'_, NeverNote> =
        Run::for_move(&tables, &state, tables.turns[0], 0, None, &mut out);
    assert!(run.step(0).is_ok() && run.empty(Loc::Here));
    assert_eq!(out.footprint(), Footprint::EVERYTHING);
    // Not asked, it notes nothing, as a run that may note.
    let mut out = Steps::hitting(&[3]);
    let mut run: Run<'_, NeverNote> =
        Run::for_move(&tables, &state, tables.turns[0], 0, None, &mut out);
    assert!(run.step(0).is_ok() && run.empty(Loc::Here));
    assert_eq!(out.footprint(), Footprint::default());
}

#[test]
fn position_hashes_tell_pieces_attributes_stocks_and_the_mover_apart() {
    let tables = row(3);
    let hash = |state: &State| state.position_hash(&tables);
    let one = board(&tables, &[(0, man(0))]);
    assert_eq!(hash(&one), hash(&board(&tables, &[(0, man(0))])));
    let mut marked = one.clone();
    marked.put(
        0,
        Some(Piece {
            attributes: 1,
            ..man(0)
        }),
    );
    let mut stocked = one.clone();
    Rc::make_mut(&mut stocked.stock)[0] = 1;
    let mut other_mover = one.clone();
    other_mover.turn = 1;
    let others = [
        board(&tables, &[(1, man(0))]),
        board(&tables, &[(0, man(1))]),
        board(&tables, &[(0, Piece { kind: 1, ..man(0) })]),
        marked,
        stocked,
        other_mover,
    ];
    for (i, other) in others.iter().enumerate() {
        assert_ne!(hash(&one), hash(other), "position {i}");
    }
    // The turn counter itself is not part of the position: two turns later it is the
    // same player's move again.
    let mut later = one.clone();
    later.turn = 2;
    assert_eq!(hash(&one), hash(&later));
}

#[test]
fn a_restart_forgets_what_the_template_before_left_behind() {
    let tables = row(5);
    let state = board(&tables, &[(0, man(0)), (2, man(0))]);
    let turn = tables.turns[0];
    // Templates that each leave one thing behind (then fail), and what the next
    // template, stepping east once and adding, must produce all the same.
    type Template = fn(&mut Run<'_>);
    let leave: [(&str, Template); 5] = [
        ("a mark", |run| run.mark()),
        ("a flag", |run| run.set_flag(0, true)),
        ("a destination", |run| run.to()),
        ("another piece picked up", |run| {
            assert!(run.step(0).is_ok());
            run.from();
        }),
        ("a capture", |run| assert!(run.capture(Loc::Dir(0)).is_ok())),
    ];
    for (what, template) in leave {
        let mut out = Steps::new();
        let mut run: Run<'_> = Run::for_move(&tables, &state, turn, 0, None, &mut out);
        assert!(run.step(0).is_ok());
        template(&mut run);
        run.restart(None);
        assert_eq!(run.pos, 0, "{what}");
        assert!(!run.flag(0), "{what}");
        assert!(run.back().is_err(), "{what}: the mark is gone");
        // Without a `to`, `(go to)` stays; the one left behind was on square 1.
        run.go_to();
        assert_eq!(run.pos, 0, "{what}: `to` is gone");
        assert!(
            run.go_from().is_ok() && run.pos == 0,
            "{what}: `from` is the start"
        );
        assert!(run.step(0).is_ok());
        run.add(&[], Placement::Move, Continuation::Complete);
        drop(run);
        let changes: Vec<Vec<Change>> = out.iter().map(|s| s.changes.to_vec()).collect();
        assert_eq!(changes, [vec![Change::Move { from: 0, to: 1 }]], "{what}");
    }
}

#[test]
fn templates_from_the_64th_on_share_the_last_bit_of_a_limit() {
    // Two players, two types on five squares; the first type has 66 move templates, of
    // which only the first reaches square 1 and only the last square 3.
    let tables = row(5);
    let (players, kinds, positions) = (2, 2, 5);
    let counts = vec![66, 0];
    let mut by_template = vec![0u64; players * positions * 66];
    for player in 0..players {
        for from in 0..positions {
            by_template[(player * positions + from) * 66] = 1 << 1;
            by_template[(player * positions + from) * 66 + 65] = 1 << 3;
        }
    }
    let reach = crate::Reach::from_templates(
        players,
        kinds,
        positions,
        vec![true; 4],
        counts,
        by_template,
    )
    .expect("sizes agree");
    // Each type's reach is the union of its templates'.
    assert!(reach.may_hit(1, 0, 2, &[1]) && reach.may_hit(1, 0, 2, &[3]));
    assert!(!reach.may_hit(1, 0, 2, &[2]));
    assert_eq!(reach.templates_hitting(0, 0, 0, &[1]), 1);
    assert_eq!(reach.templates_hitting(1, 0, 4, &[3]), 1 << 63);
    assert_eq!(reach.templates_hitting(0, 0, 0, &[1, 3]), 1 | 1 << 63);
    assert_eq!(reach.templates_hitting(0, 0, 0, &[2]), 0);
    // The second type has no table of its own: bounded and reaching nothing.
    assert_eq!(reach.templates_hitting(0, 1, 0, &[1]), 0);
    // Read backwards, type by type: every square hits 1 and 3, none hits the others;
    // the second type hits nothing from anywhere.
    for target in 0..positions as Pos {
        let expected: u64 = if target == 1 || target == 3 {
            0b11111
        } else {
            0
        };
        assert_eq!(reach.hitting_from(1, target), [expected, 0], "{target}");
    }
    assert_eq!(reach.hitting_from(2, 0), [0u64; 0]);
    assert_eq!(reach.hitting_from(0, 5), [0u64; 0]);
    let state = board(&tables, &[(0, man(0))]);
    let mut out = Steps::new();
    let mut run: Run<'_> = Run::for_move(&tables, &state, tables.turns[0], 0, None, &mut out);
    assert!([0, 62, 63, 65].iter().all(|&n| run.start_template(n, None)));
    run.only_templates(1 << 63);
    assert!(!run.start_template(0, None) && !run.start_template(62, None));
    assert!([63, 64, 65].iter().all(|&n| run.start_template(n, None)));
    run.only_templates(1);
    assert!(run.start_template(0, None) && !run.start_template(65, None));
}

#[test]
fn the_squares_of_each_player_follow_every_kind_of_change() {
    // 70 squares: the piece sets span two words.
    let tables = row(70);
    let mut state = board(
        &tables,
        &[(0, man(0)), (63, man(0)), (64, man(1)), (69, man(1))],
    );
    let king = |owner| Piece {
        kind: 1,
        ..man(owner)
    };
    let steps = [
        vec![Change::Move { from: 63, to: 65 }],
        vec![
            Change::Move { from: 65, to: 66 },
            Change::Capture { pos: 64 },
        ],
        vec![Change::Move { from: 0, to: 69 }],
        vec![
            Change::Move { from: 69, to: 68 },
            Change::Move { from: 68, to: 67 },
        ],
        vec![
            Change::Place {
                pos: 1,
                piece: man(1),
            },
            Change::Capture { pos: 66 },
        ],
        vec![
            Change::Create {
                pos: 1,
                piece: king(0),
            },
            Change::ChangeOwner { pos: 68, owner: 1 },
        ],
        vec![
            Change::Flip { pos: 1 },
            Change::ChangeType { pos: 68, kind: 0 },
        ],
        vec![Change::Move { from: 1, to: 1 }, Change::Flip { pos: 68 }],
    ];
    let squares = |state: &State, player: u8| -> Vec<u32> {
        let board = state.board().iter().enumerate();
        board
            .filter(|(_, p)| p.is_some_and(|p| p.owner == player))
            .map(|(pos, _)| pos as u32)
            .collect()
    };
    let mut seen = Vec::new();
    for changes in steps {
        state.apply_step(&tables, &step(changes));
        for player in 0..2 {
            let kept: Vec<u32> = state.squares_of(player).collect();
            assert_eq!(kept, squares(&state, player));
            assert_eq!(state.count_of(player), kept.len());
            let pieces: Vec<(u32, Piece)> = state.pieces_of(player).collect();
            let on_board: Vec<(u32, Piece)> = kept
                .iter()
                .filter_map(|&pos| Some((pos, state.at(pos)?)))
                .collect();
            assert_eq!(pieces, on_board);
        }
        seen.push((squares(&state, 0), squares(&state, 1)));
    }
    state.put(68, None);
    assert_eq!(state.squares_of(0).count(), 0);
    assert_eq!(state.squares_of(1).collect::<Vec<_>>(), vec![1]);
    // What the steps left, so that a step that did nothing fails the test too.
    let expected: [(&[u32], &[u32]); 8] = [
        (&[0, 65], &[64, 69]),
        (&[0, 66], &[69]),
        (&[66, 69], &[]),
        (&[66, 68], &[]),
        (&[68], &[1]),
        (&[1], &[68]),
        (&[], &[1, 68]),
        (&[68], &[1]),
    ];
    for (got, (own, other)) in seen.iter().zip(expected) {
        assert_eq!((got.0.as_slice(), got.1.as_slice()), (own, other));
    }
}

#[test]
fn a_filter_allows_every_template_or_only_those_of_its_move_type() {
    use crate::Filter;
    let cases = [
        (Filter::ANY, [true, true, true, true]),
        (Filter::only(None), [true, false, false, false]),
        (Filter::only(Some(0)), [false, true, false, false]),
        (Filter::only(Some(1)), [false, false, true, false]),
        (Filter::only(Some(u16::MAX)), [false, false, false, true]),
    ];
    for (filter, expected) in cases {
        let allowed = [None, Some(0), Some(1), Some(u16::MAX)].map(|t| filter.allows(t));
        assert_eq!(allowed, expected, "{filter:?}");
    }
}

#[test]
fn a_long_history_counts_repetitions_and_drops_without_recursing() {
    // Three positions in turn, over more turns than a recursive count or drop survives.
    let hashes = [
        0x1111_0000_0000_0001_u64,
        0x2222_0000_0000_0002,
        0xf333_0000_0000_0003,
    ];
    let turns = 300_000;
    let mut earlier: Option<History> = None;
    let mut history: Option<History> = None;
    for turn in 0..turns {
        earlier = history.clone();
        history = Some(History::pushed(history.as_ref(), hashes[turn % 3]));
    }
    let newest = history.expect("entries");
    assert_eq!(newest.occurrences_of(hashes[0]), turns / 3);
    assert_eq!(newest.occurrences_of(hashes[2]), turns / 3);
    assert_eq!(newest.occurrences_of(0x4444_0000_0000_0004), 0);
    let earlier = earlier.expect("an earlier entry");
    assert_eq!(
        earlier.occurrences_of(hashes[(turns - 1) % 3]),
        turns / 3 - 1
    );
    drop(earlier);
    drop(newest);
}

#[test]
fn repetitions_are_counted_alike_by_walking_short_histories_and_counting_long_ones() {
    // Every position at most once, but for one hash met every 97th turn; the answers
    // must agree with a plain count on both sides of the depth where counting starts.
    let repeated = 0x0123_4567_89ab_cdef_u64;
    let hash_of = |turn: u64| {
        if turn % 97 == 0 {
            repeated
        } else {
            crate::random::mix(turn + 1)
        }
    };
    let mut history: Option<History> = None;
    for turn in 0..2000u64 {
        let entry = History::pushed(history.as_ref(), hash_of(turn));
        let expected = (0..=turn).filter(|t| hash_of(*t) == repeated).count();
        assert_eq!(entry.occurrences_of(repeated), expected, "turn {turn}");
        assert_eq!(
            entry.occurrences_of(hash_of(turn)),
            if turn % 97 == 0 { expected } else { 1 }
        );
        // The filters that answer most repetition tests without counting never answer
        // no where the count says yes (the other hashes fill them with false alarms).
        for times in 0..4 {
            assert_eq!(
                entry.occurs_at_least(repeated, times),
                expected >= times,
                "turn {turn}, {times} times"
            );
        }
        history = Some(entry);
    }
}

#[test]
fn lines_of_play_that_share_a_past_keep_their_own_positions() {
    // Two lines go on from the same history, at every length across two block ends and
    // across the depth where the filters grow: the first writes into the shared block,
    // the second copies what it shares.
    let hash = crate::random::mix;
    let (first_hash, first_next) = (hash(1 << 40), hash(1 << 40 | 1));
    let (second_hash, second_next) = (hash(1 << 41), hash(1 << 41 | 1));
    for shared in (0..20u64).chain(250..270) {
        let past: Vec<u64> = (1..=shared).map(hash).collect();
        let base = past.iter().fold(None, |h: Option<History>, &x| {
            Some(History::pushed(h.as_ref(), x))
        });
        let first = History::pushed(base.as_ref(), first_hash);
        let second = History::pushed(base.as_ref(), second_hash);
        let first_on = History::pushed(Some(&first), first_next);
        let second_on = History::pushed(Some(&second), second_next);
        let with = |more: &[u64]| [past.as_slice(), more].concat();
        assert_eq!(base.as_ref().map_or_else(Vec::new, History::hashes), past);
        assert_eq!(first.hashes(), with(&[first_hash]), "after {shared}");
        assert_eq!(second.hashes(), with(&[second_hash]), "after {shared}");
        assert_eq!(
            first_on.hashes(),
            with(&[first_hash, first_next]),
            "after {shared}"
        );
        assert_eq!(
            second_on.hashes(),
            with(&[second_hash, second_next]),
            "after {shared}"
        );
        assert_eq!(second_on.occurrences_of(first_hash), 0, "after {shared}");
        assert_eq!(first_on.occurrences_of(second_hash), 0, "after {shared}");
        assert!(first_on.occurs_at_least(first_hash, 1));
        assert!(!first_on.occurs_at_least(second_next, 1));
        if let Some(&oldest) = past.first() {
            assert!(second_on.occurs_at_least(oldest, 1) && !second_on.occurs_at_least(oldest, 2));
        }
    }
}

#[test]
fn the_royal_squares_and_the_bitsets_by_type_follow_every_change() {
    use crate::watched::royal_squares;
    let tables = row(6);
    let king = Piece { kind: 1, ..man(0) };
    let royal = [false, true];
    let before = board(&tables, &[(1, king), (3, man(0)), (4, man(1))]);
    let moving = |from, to| Change::Move { from, to };
    let turns = [
        vec![moving(3, 2)],
        vec![moving(1, 0)],
        vec![moving(1, 2), Change::Capture { pos: 4 }],
        // Onto the king, the king taken after moving, the king taken by another piece.
        vec![moving(3, 1)],
        vec![moving(1, 2), Change::Capture { pos: 2 }],
        vec![moving(3, 2), Change::Capture { pos: 1 }],
        vec![Change::Capture { pos: 1 }],
        // A man made a king, the king made a man, the enemy man made ours.
        vec![Change::ChangeType { pos: 3, kind: 1 }],
        vec![Change::ChangeType { pos: 1, kind: 0 }],
        vec![Change::ChangeOwner { pos: 4, owner: 0 }],
    ];
    let mut found = Vec::new();
    for changes in turns {
        let mut after = before.clone();
        after.apply_step(&tables, &step(changes));
        assert!(after.occupancy_matches_board());
        let men: Vec<Pos> = after.squares_of_kind(0, 0).collect();
        found.push((royal_squares(&after, 0, &royal).to_vec(), men));
    }
    let expected: [(&[Pos], &[Pos]); 10] = [
        (&[1], &[2]),
        (&[0], &[3]),
        (&[2], &[3]),
        (&[], &[1]),
        (&[], &[3]),
        (&[], &[2]),
        (&[], &[3]),
        (&[1, 3], &[]),
        (&[], &[1, 3]),
        (&[1], &[3, 4]),
    ];
    let found: Vec<(&[Pos], &[Pos])> = found.iter().map(|(r, m)| (&r[..], &m[..])).collect();
    assert_eq!(found, expected);
    assert_eq!(before.count_of_kind(1, 0), 1);
    // Someone who is not a player has no pieces, royal or other.
    assert!(royal_squares(&before, 7, &royal).is_empty());
    assert_eq!(before.count_of_kind(7, 0), 0);
}

#[test]
fn a_capture_of_a_protected_piece_counts_unless_as_many_protected_pieces_are_left() {
    use crate::watched::removes_protected;
    let tables = row(6);
    let king = |owner| Piece {
        kind: 1,
        ..man(owner)
    };
    let royal = [false, true];
    let before = board(&tables, &[(2, king(0)), (3, king(1)), (5, man(1))]);
    let moving = |from, to| Change::Move { from, to };
    let cases = [
        // Onto the king, by a man and by the other king; a capture from elsewhere.
        (vec![moving(5, 2)], &royal[..], true),
        (vec![moving(3, 2)], &royal[..], true),
        (
            vec![moving(5, 4), Change::Capture { pos: 2 }],
            &royal[..],
            true,
        ),
        // Missing the king; a taker crowned as it takes leaves as many kings.
        (vec![moving(5, 4)], &royal[..], false),
        (
            vec![moving(5, 2), Change::ChangeType { pos: 2, kind: 1 }],
            &royal[..],
            false,
        ),
        // `attacked?` protects no type: any removal counts.
        (
            vec![moving(5, 2), Change::ChangeType { pos: 2, kind: 1 }],
            &[][..],
            true,
        ),
    ];
    for (changes, kept, expected) in cases {
        let taken = removes_protected(&tables, &before, &step(changes.clone()), &[2], kept);
        assert_eq!(taken, expected, "{changes:?} protecting {kept:?}");
    }
}

#[test]
fn tables_per_player_type_and_square_are_laid_out_player_first() {
    let layout = crate::PieceSquares::new(2, 3, 70);
    assert_eq!(
        (layout.pairs(), layout.squares(), layout.words()),
        (6, 420, 2)
    );
    assert_eq!(layout.pair(1, 2), 5);
    assert_eq!(layout.square(1, 2, 69), 5 * 70 + 69);
    assert_eq!(layout.row(1, 2, 69), (5 * 70 + 69) * 2);
    assert_eq!(layout.rows(), 840);
    // Per player and square, whatever the type: squares, target squares, templates.
    assert_eq!(layout.player_square(1, 69), 70 + 69);
    assert_eq!(layout.player_squares(), 140);
    assert_eq!(layout.square_pair(1, 69, 3), (70 + 69) * 70 + 3);
    assert_eq!(layout.square_pairs(), 9800);
    assert_eq!(layout.template_row(1, 69, 4, 5), ((70 + 69) * 5 + 4) * 2);
    assert_eq!(layout.template_rows(5), 140 * 5 * 2);
    let tables = row(4);
    assert_eq!(
        tables.layout(),
        crate::PieceSquares::new(tables.players.len(), tables.kinds(), 4)
    );
}

#[test]
fn tables_that_do_not_hold_together_are_refused_with_the_first_fault() {
    assert_eq!(row(5).check(), Ok(()));
    let fault = |break_it: fn(&mut Tables)| {
        let mut tables = row(5);
        break_it(&mut tables);
        tables.check().expect_err("refused").to_string()
    };
    assert_eq!(
        fault(|t| t.links[3] = 5),
        "inconsistent game tables: link: index 5 where there are 5"
    );
    assert_eq!(
        fault(|t| t.links.pop().map(drop).unwrap_or_default()),
        "inconsistent game tables: links: 9 entries where 10 are needed"
    );
    assert_eq!(
        fault(|t| t.symmetry[1] = vec![1, 2]),
        "inconsistent game tables: symmetry: index 2 where there are 2"
    );
    assert_eq!(
        fault(|t| t.turns[1].move_as = 2),
        "inconsistent game tables: turn moving as: index 2 where there are 2"
    );
    assert_eq!(
        fault(|t| t.setup.push(crate::Setup {
            player: 0,
            kind: 7,
            positions: vec![0],
            off_board: 0,
        })),
        "inconsistent game tables: setup piece type: index 7 where there are 2"
    );
    assert_eq!(
        fault(|t| t.goals.push(crate::Goal {
            kind: crate::GoalKind::Win,
            players: vec![0],
            condition: crate::GoalCond::Not(Box::new(crate::GoalCond::Checkmated(vec![2]))),
        })),
        "inconsistent game tables: goal piece type: index 2 where there are 2"
    );
    assert_eq!(
        fault(|t| t.royal[0].push(false)),
        "inconsistent game tables: royal types: 3 entries where 2 are needed"
    );
    assert_eq!(
        fault(|t| {
            t.zobrist = Zobrist::new(crate::ZobristData {
                seed: 1,
                positions: 6,
                players: 2,
                kinds: 2,
                attributes: 0,
            })
        }),
        "inconsistent game tables: hash keys drawn for another board"
    );
    assert_eq!(
        crate::Reach::new(2, 2, 5, vec![true; 4], vec![0; 19])
            .map(drop)
            .map_err(|e| e.to_string()),
        Err("inconsistent game tables: reach: bitsets: 19 entries where 20 are needed".into())
    );
}

/// Templates that know their game's sizes, adding nothing.
struct SizedRules<const POSITIONS: usize>;

impl<const POSITIONS: usize> crate::KnownSizes for SizedRules<POSITIONS> {
    const SIZES: Option<crate::PieceSquares> = Some(crate::PieceSquares::new(2, 2, POSITIONS));
}

impl<const POSITIONS: usize> crate::Templates for SizedRules<POSITIONS> {
    type Noting = NeverNote;
    fn piece_moves(&self, _: &mut Run<'_, NeverNote>, _: crate::Kind, _: crate::Filter) {}
    fn drops(&self, _: &mut Run<'_, NeverNote>, _: crate::Kind, _: crate::Filter) {}
    fn has_drops(&self, _: crate::Kind) -> bool {
        false
    }
}

#[test]
fn templates_that_know_their_sizes_are_refused_tables_of_other_sizes() {
    assert!(crate::Engine::try_new(row(5), SizedRules::<5>).is_ok());
    assert_eq!(
        crate::Engine::try_new(row(5), SizedRules::<6>)
            .map(drop)
            .map_err(|e| e.to_string()),
        Err(
            "inconsistent game tables: the templates were compiled for 2 players, 2 piece \
             types and 6 positions; the tables have 2, 2 and 5"
                .into()
        )
    );
    // Known sizes read the same bitsets as sizes read from the position.
    let engine = crate::Engine::new(row(5), SizedRules::<5>);
    let mut state = board(&engine.tables, &[(1, man(0)), (3, man(1))]);
    let moved = step(vec![Change::Move { from: 1, to: 2 }]);
    let undo = state.make::<SizedRules<5>>(&engine.tables, std::slice::from_ref(&moved));
    assert_eq!(state.own_words_in::<SizedRules<5>>(0), [1 << 2]);
    assert_eq!(state.own_words(0), [1 << 2]);
    assert_eq!(state.kind_words_in::<SizedRules<5>>(1, 0), [1 << 3]);
    state.unmake::<SizedRules<5>>(undo);
    assert_eq!(state.own_words_in::<SizedRules<5>>(0), [1 << 1]);
    assert!(state.occupancy_matches_board());
}

#[test]
fn the_threats_to_a_square_are_read_off_the_bitsets_of_each_type() {
    use crate::watched::ThreatMask;
    // Men reach square 1 from anywhere; kings are unbounded (they may hit from anywhere).
    let tables = row(5);
    let (players, kinds, positions) = (2, 2, 5);
    let layout = crate::PieceSquares::new(players, kinds, positions);
    let mut bits = vec![0u64; layout.rows()];
    for player in 0..players {
        for from in 0..positions {
            bits[layout.row(player, 0, from)] = 1 << 1;
        }
    }
    let bounded = vec![true, false, true, false];
    let reach = crate::Reach::new(players, kinds, positions, bounded, bits).expect("sizes agree");
    assert_eq!(reach.hitting_from(0, 1), [0b11111, 0b11111]);
    assert_eq!(reach.hitting_from(0, 3), [0, 0b11111]);
    // Every type at once: the union of the types' squares.
    assert_eq!(reach.hitting_any_from(0, 1), [0b11111]);
    assert_eq!(reach.hitting_any_from(0, 3), [0b11111]);
    assert_eq!(reach.hitting_any_from(0, 99), [0u64; 0]);
    let king = Piece { kind: 1, ..man(0) };
    let state = board(&tables, &[(0, man(0)), (2, man(1)), (4, king)]);
    let threats = |targets: &[Pos]| {
        let mask = ThreatMask::of::<ReadSizes>(&reach, &state, 0, targets);
        mask.squares().collect::<Vec<Pos>>()
    };
    assert_eq!(threats(&[1]), [0, 4]);
    assert_eq!(threats(&[3]), [4]);
    assert_eq!(threats(&[3, 1]), [0, 4]);
    assert_eq!(threats(&[]), [0u32; 0]);
    // An attacker who is not a player has no bitsets, and threatens nothing.
    let none = ThreatMask::of::<ReadSizes>(&reach, &state, 7, &[1]);
    assert_eq!(none.squares().count(), 0);
}

#[test]
fn a_set_of_four_words_works_bit_by_bit_as_its_squares_say() {
    use crate::shape::{SquareSet, Words};
    type Wide = Words<4>;
    let squares = |set: Wide| {
        (0..Wide::WIDTH)
            .filter(|&pos| set.has(pos))
            .collect::<Vec<_>>()
    };
    let of = |squares: &[u32]| {
        squares
            .iter()
            .fold(Wide::default(), |set, &p| set | Wide::bit(p))
    };
    // Sparse and dense sets, squares in every word and on the words' edges.
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for round in 0..200 {
        let words: [u64; 4] = std::array::from_fn(|_| match round % 3 {
            0 => next() & next() & next(),
            1 => next(),
            _ => next() | 1 << 63 | 1,
        });
        let set = Wide::from_words(&words);
        assert_eq!(set.words(), words);
        let held = squares(set);
        assert_eq!(of(&held), set);
        assert_eq!(set.count() as usize, held.len());
        assert_eq!(set.lowest(), held.first().copied().unwrap_or(Wide::WIDTH));
        assert_eq!(squares(set.without_lowest()), held.get(1..).unwrap_or(&[]));
        assert_eq!(squares(!set).len() + held.len(), 256);
        let by = next() as u32 % 256;
        let up: Vec<u32> = held.iter().map(|p| p + by).filter(|&p| p < 256).collect();
        let down: Vec<u32> = held.iter().filter(|&&p| p >= by).map(|p| p - by).collect();
        assert_eq!(squares(set << by), up, "{set:?} << {by}");
        assert_eq!(squares(set >> by), down, "{set:?} >> {by}");
        // The first two words behave as a u128 does.
        let narrow = u128::from_words(&words);
        let low = Wide::from_words(&words[..2]);
        assert_eq!(narrow.count(), low.count());
        assert_eq!(narrow.lowest().min(128), low.lowest().min(128));
        assert_eq!(
            narrow.without_lowest().words(),
            low.without_lowest().words()
        );
    }
    assert_eq!(Wide::default().lowest(), 256);
    assert_eq!(Wide::default().without_lowest(), Wide::default());
}

#[test]
fn a_footprint_on_a_wide_board_holds_every_square_folded_onto_its_bits() {
    use crate::shape::{SquareSet, Words};
    let mut footprint = Footprint::default();
    footprint.note(130);
    footprint.note(5);
    let wide: Words<4> = footprint.squares();
    let held: Vec<u32> = (0..256).filter(|&pos| wide.has(pos)).collect();
    assert_eq!(held, [2, 5, 130, 133]);
    assert!(held.iter().all(|&pos| footprint.contains(pos)));
    let narrow: u64 = footprint.squares();
    assert_eq!(narrow, 1 << 2 | 1 << 5);
}

#[test]
fn the_targets_counted_in_bulk_are_the_narrowest_set_that_holds_every_starting_square() {
    use crate::shape::{Bulk, Shape, Test};
    use crate::tables::Setup;
    let width = |starts: &[Pos]| {
        let mut tables = row(300);
        tables.pieces[0].shapes = vec![Some(Shape::Slide {
            origin: Vec::new(),
            dir: 1,
            then: Some(vec![Test::Enemy]),
        })];
        tables.pieces[0].template_types = vec![None];
        tables.setup = (starts.iter().enumerate())
            .map(|(player, &pos)| Setup {
                player: player as PlayerIx,
                kind: 0,
                positions: vec![pos],
                off_board: 0,
            })
            .collect();
        match tables.bulk_targets() {
            Some(Bulk::OneWord(_)) => Some(64),
            Some(Bulk::TwoWords(_)) => Some(128),
            Some(Bulk::FourWords(targets)) => {
                // The slide west from square 254 crosses every word to square 0.
                let slide = &targets.targets[254];
                assert_eq!(slide.rays.1 - slide.rays.0, 1);
                assert_eq!(targets.rays[slide.rays.0 as usize].len, 254);
                Some(256)
            }
            None => None,
        }
    };
    assert_eq!(width(&[3, 63]), Some(64));
    assert_eq!(width(&[3, 64]), Some(128));
    assert_eq!(width(&[127, 128]), Some(256));
    assert_eq!(width(&[150, 255]), Some(256));
    assert_eq!(width(&[150, 256]), None);
}

#[test]
fn a_spare_position_copies_a_game_whose_bitsets_take_as_many_words_laid_out_otherwise() {
    // Two players, two types, 100 squares: (2 + 2 * 2) bitsets of two words; two
    // players, five types, 60 squares: (2 + 2 * 5) bitsets of one word. Twelve each.
    let wide = row(100);
    let mut narrow = row(60);
    let extra = narrow.pieces[1].clone();
    narrow.pieces.extend([extra.clone(), extra.clone(), extra]);
    let mut scratch = None;
    State::copy_into(&mut scratch, &board(&wide, &[(70, man(1))]));
    let fifth = Piece {
        kind: 4,
        owner: 1,
        attributes: 0,
    };
    let source = board(&narrow, &[(3, fifth), (5, man(0))]);
    let copy = State::copy_into(&mut scratch, &source);
    assert!(copy.occupancy_matches_board());
    assert_eq!(copy.kind_words_in::<ReadSizes>(1, 4), [1 << 3]);
    assert_eq!(copy.own_words(0), [1 << 5]);
}

#[test]
fn lines_of_play_taken_back_kept_and_played_on_keep_their_own_positions() {
    // Lines of play made, copied, dropped and played on in a random order, as a search
    // takes back one line and plays the next from the same past (writing over what the
    // first wrote) or keeps lines side by side: each must answer for its own positions,
    // across block ends, as a plain list of its hashes does.
    let mut rng = crate::SplitMix64::new(43);
    // Few hashes, so that lines repeat positions.
    let hash_of = |n: usize| crate::random::mix(n as u64 + 1);
    let mut lines: Vec<(History, Vec<u64>)> = Vec::new();
    for round in 0..20_000 {
        match rng.below(8) {
            0 | 1 if !lines.is_empty() => {
                let gone = rng.below(lines.len());
                lines.swap_remove(gone);
            }
            2 if !lines.is_empty() => {
                let copied = lines[rng.below(lines.len())].clone();
                lines.push(copied);
            }
            _ => {
                let hash = hash_of(rng.below(12));
                let from =
                    (!lines.is_empty() && rng.below(16) != 0).then(|| rng.below(lines.len()));
                let (history, mut hashes) = match from {
                    Some(from) => (
                        History::pushed(Some(&lines[from].0), hash),
                        lines[from].1.clone(),
                    ),
                    None => (History::pushed(None, hash), Vec::new()),
                };
                hashes.push(hash);
                lines.push((history, hashes));
            }
        }
        for (history, hashes) in &lines {
            assert_eq!(&history.hashes(), hashes, "round {round}");
            for n in 0..12 {
                let expected = hashes.iter().filter(|&&h| h == hash_of(n)).count();
                assert_eq!(
                    history.occurrences_of(hash_of(n)),
                    expected,
                    "round {round}"
                );
            }
        }
        if lines.len() > 40 {
            lines.truncate(20);
        }
    }
}

#[test]
fn a_count_is_read_off_the_bulk_targets_before_any_template_runs_where_they_tell_it() {
    use crate::shape::{Bulk, LeapStep, Shape, Test};
    use crate::tables::Setup;
    use crate::MoveType;
    const JUMP: MoveType = 0;
    const STEP: MoveType = 1;
    // Men step east onto an empty square, or jump an enemy east (a jump continued by
    // jumps, first in the priorities); a king (one alone) steps west.
    let mut tables = row(10);
    let east = |tests| LeapStep { dir: 0, tests };
    let leap = |dir| Shape::Leap {
        origin: Vec::new(),
        steps: vec![LeapStep {
            dir,
            tests: vec![Test::Empty],
        }],
        coded_in: None,
    };
    let jump = Shape::Jump {
        origin: Vec::new(),
        steps: vec![east(vec![Test::Enemy]), east(vec![Test::Empty])],
        captured: 0,
        continue_with: Some(JUMP),
        coded_in: None,
    };
    tables.move_types = vec!["jump".into(), "step".into()];
    tables.priorities = vec![JUMP];
    tables.pieces[0].shapes = vec![Some(jump), Some(leap(0))];
    tables.pieces[0].template_types = vec![Some(JUMP), Some(STEP)];
    tables.pieces[1].shapes = vec![Some(leap(1))];
    tables.pieces[1].template_types = vec![Some(STEP)];
    tables.setup = vec![
        Setup {
            player: 0,
            kind: 0,
            positions: vec![0, 1, 2, 3],
            off_board: 0,
        },
        Setup {
            player: 1,
            kind: 0,
            positions: vec![8, 9],
            off_board: 0,
        },
    ];
    let Some(Bulk::OneWord(bulk)) = tables.bulk_targets() else {
        panic!("a row of ten squares counts in one word");
    };
    let start = State::start(&tables);
    let with = |pieces: &[(Pos, Piece)]| {
        let mut state = start.position_clone();
        for &(pos, piece) in pieces {
            state.put(pos, Some(piece));
        }
        state
    };
    let king = Piece { kind: 1, ..man(0) };
    let counted =
        |state: &State| bulk.count_before_runs::<ReadSizes>(&tables, state, 0, Some(JUMP));
    // Every man counted together: only the man on p3 has an empty square east of it.
    assert_eq!(counted(&start), Some(1));
    assert_eq!(counted(&with(&[(4, man(1)), (5, man(1))])), Some(0));
    // The man on p3 jumps to p5, where no jump goes on: that one turn alone, the
    // others' steps dropped by the priorities.
    assert_eq!(counted(&with(&[(4, man(1))])), Some(1));
    assert_eq!(counted(&with(&[(4, man(1)), (6, king)])), Some(1));
    // A chain that goes on is followed by the guards to its end: on p7, where the
    // enemy on p8 has no empty square past it.
    assert_eq!(counted(&with(&[(4, man(1)), (6, man(1))])), Some(1));
    // Three jumps, to p9, past every enemy.
    let mut three_jumps = with(&[(4, man(1)), (6, man(1))]);
    three_jumps.put(9, None);
    assert_eq!(counted(&three_jumps), Some(1));
    // The king alone is counted by itself, and the men with it, where none jumps.
    assert_eq!(counted(&with(&[(6, king)])), None);
}
