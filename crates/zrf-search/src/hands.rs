//! Hands kept on the grid. Zillions' own stock off the board gives a taken piece back
//! to its owner (`recycle captures`), so the rules files of shogis, where it joins the
//! taker's hand, keep each side's hand as grid positions beside the board: a taken
//! piece is moved there, and "dropped" from there by an ordinary move. Pictures draw
//! those positions apart, UCI names a move out of them as a drop, and the evaluation
//! does not value pieces by what they could do there.

use zrf_runtime::Tables;

/// Positions that hold pieces in hand rather than being part of the board, by the
/// conventions of the rules files that keep hands on the grid (Doubutsu and the small
/// shogis): a zone named like `hand-zone` or `off-board`, or the drawn positions
/// outside a zone named `board-zone` (or `board`) where one leaves some out.
pub fn hand_positions(tables: &Tables) -> Vec<bool> {
    let positions = tables.positions.len();
    let members = |zone: usize| -> Vec<bool> {
        (0..positions)
            .map(|pos| {
                tables.zones[zone].iter().any(|words| {
                    words
                        .get(pos / 64)
                        .is_some_and(|w| w >> (pos % 64) & 1 == 1)
                })
            })
            .collect()
    };
    let mut hand = vec![false; positions];
    for (zone, name) in tables.zone_names.iter().enumerate() {
        let name = name.to_ascii_lowercase();
        if name.contains("hand") || name == "off-board" {
            for (pos, member) in members(zone).into_iter().enumerate() {
                hand[pos] |= member;
            }
        } else if name == "board-zone" || name == "board" {
            let on_board = members(zone);
            let drawn = |pos: usize| tables.rects[pos].is_some();
            // A zone holding no drawn position says nothing of the drawing.
            if (0..positions).any(|p| on_board[p] && drawn(p)) {
                for pos in (0..positions).filter(|&p| drawn(p) && !on_board[p]) {
                    hand[pos] = true;
                }
            }
        }
    }
    // Hands that would be all of the board are not hands.
    if (0..positions).all(|p| hand[p] || tables.rects[p].is_none()) {
        hand.iter_mut().for_each(|h| *h = false);
    }
    hand
}
