//! Keys of book positions, and the flipped position.
//!
//! A book looks a position up by its SFEN written as Kyobo and YaneuraOu write
//! it (`Position::to_sfen`: hands in the order R B G S N L P). The move number
//! is kept apart: `IgnoreBookPly` decides whether it must match.

/// The position part of a SFEN (board, side, hands, single-spaced) and its
/// move number, if it has one. `None` for text that is not SFEN-shaped: three
/// or four fields, a board of nine ranks of piece letters and digits, `b` or
/// `w`, hands of piece letters and counts or `-`, a number (the legality of the
/// position is the engine's matter when it plays from it).
pub fn split_ply(sfen: &str) -> Option<(String, Option<u32>)> {
    let fields: Vec<&str> = sfen.split_ascii_whitespace().collect();
    if !(3..=4).contains(&fields.len()) {
        return None;
    }
    let (board, side, hands) = (fields[0], fields[1], fields[2]);
    let piece = |c: char| "PLNSGBRKplnsgbrk".contains(c);
    let board_ok = board.split('/').count() == 9
        && board.chars().all(|c| c == '/' || c == '+' || c.is_ascii_digit() || piece(c));
    let hands_ok = hands == "-" || hands.chars().all(|c| c.is_ascii_digit() || piece(c));
    if !board_ok || !matches!(side, "b" | "w") || !hands_ok {
        return None;
    }
    let ply = match fields.get(3) {
        Some(t) => Some(t.parse::<u32>().ok()?),
        None => None,
    };
    Some((fields[..3].join(" "), ply))
}

const HAND_ORDER: &str = "RBGSNLP";

/// The same position seen from the other side: the board turned round, the
/// colours and the hands exchanged, the other side to move. Takes and gives a
/// position key (see [`split_ply`]); `None` when it is not one.
pub fn flip_sfen(key: &str) -> Option<String> {
    let mut fields = key.split_ascii_whitespace();
    let (board, side, hands) = (fields.next()?, fields.next()?, fields.next()?);
    // Cells in reading order: a piece ("+p", "K") or one empty square.
    let mut ranks: Vec<Vec<String>> = Vec::new();
    for rank in board.split('/') {
        let mut cells = Vec::new();
        let mut promoted = false;
        for c in rank.chars() {
            match c {
                '+' => promoted = true,
                '1'..='9' => {
                    for _ in 0..c.to_digit(10)? {
                        cells.push(String::new());
                    }
                }
                c if c.is_ascii_alphabetic() => {
                    let flipped = swap_case(c);
                    cells.push(if promoted { format!("+{flipped}") } else { flipped.to_string() });
                    promoted = false;
                }
                _ => return None,
            }
        }
        ranks.push(cells);
    }
    let mut out = String::with_capacity(key.len());
    for (i, rank) in ranks.iter().rev().enumerate() {
        if i > 0 {
            out.push('/');
        }
        let mut empty = 0;
        for cell in rank.iter().rev() {
            if cell.is_empty() {
                empty += 1;
            } else {
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                out.push_str(cell);
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
    }
    out.push(' ');
    out.push_str(match side {
        "b" => "w",
        "w" => "b",
        _ => return None,
    });
    out.push(' ');
    out.push_str(&flip_hands(hands)?);
    Some(out)
}

fn swap_case(c: char) -> char {
    if c.is_ascii_uppercase() {
        c.to_ascii_lowercase()
    } else {
        c.to_ascii_uppercase()
    }
}

/// `2Pb` → `B2p`: counts kept, colours exchanged, written in SFEN order.
fn flip_hands(hands: &str) -> Option<String> {
    if hands == "-" {
        return Some("-".to_string());
    }
    let mut groups: Vec<(String, char)> = Vec::new();
    let mut count = String::new();
    for c in hands.chars() {
        if c.is_ascii_digit() {
            count.push(c);
        } else if HAND_ORDER.contains(c.to_ascii_uppercase()) {
            groups.push((std::mem::take(&mut count), swap_case(c)));
        } else {
            return None;
        }
    }
    if !count.is_empty() {
        return None;
    }
    let rank = |c: char| {
        let colour = usize::from(c.is_ascii_lowercase());
        colour * 8 + HAND_ORDER.find(c.to_ascii_uppercase()).unwrap_or(7)
    };
    groups.sort_by_key(|(_, c)| rank(*c));
    Some(groups.into_iter().map(|(n, c)| format!("{n}{c}")).collect())
}

/// A USI move on the flipped board (`7g7f` ↔ `3c3d`, `P*5e` ↔ `P*5e`
/// mirrored); text that is not a move comes back unchanged.
pub fn flip_move(mv: &str) -> String {
    let flip = |c: char| match c {
        '1'..='9' => char::from(b'1' + (b'9' - c as u8)),
        'a'..='i' => char::from(b'a' + (b'i' - c as u8)),
        c => c,
    };
    if !crate::entry::is_usi_move_syntax(mv) {
        return mv.to_string();
    }
    // Drops keep their piece letter (always uppercase in USI).
    match mv.split_once('*') {
        Some((piece, to)) => format!("{piece}*{}", to.chars().map(flip).collect::<String>()),
        None => mv.chars().map(flip).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shogi::Position;

    #[test]
    fn splits_the_move_number() {
        let (key, ply) =
            split_ply("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1").unwrap();
        assert_eq!(ply, Some(1));
        assert_eq!(key, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -");
        let empty = "9/9/9/9/9/9/9/9/9 b -";
        assert_eq!(split_ply("9/9/9/9/9/9/9/9/9 b  -").unwrap(), (empty.to_string(), None));
        assert_eq!(split_ply("9/9/9/9/9/9/9/9/9 b"), None, "no hands");
        assert_eq!(split_ply("9/9 b -"), None, "two ranks");
        assert_eq!(split_ply("9/9/9/9/9/9/9/9/9 x -"), None, "no side to move");
        assert_eq!(split_ply("9/9/9/9/9/9/9/9/9 b - one"), None, "a move number that is not one");
        assert_eq!(split_ply("9/9/9/9/9/9/9/9/9 b Q"), None, "no such piece in hand");
    }

    #[test]
    fn the_start_flipped_is_the_start_with_white_to_move() {
        let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
        assert_eq!(flip_sfen(start).unwrap(), start.replace(" b ", " w "));
        assert_eq!(flip_move("7g7f"), "3c3d");
        assert_eq!(flip_move("8h2b+"), "2b8h+");
        assert_eq!(flip_move("P*5e"), "P*5e");
        assert_eq!(flip_move("S*1a"), "S*9i");
    }

    /// Flipping a position and a legal move of it gives a position whose legal
    /// moves include the flipped move, and the board flipped twice is the board.
    #[test]
    fn flips_agree_with_the_rules() {
        let mut pos = Position::startpos();
        for m in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "8c8d", "4e6c+"] {
            let key = split_ply(&pos.to_sfen()).unwrap().0;
            let flipped = flip_sfen(&key).unwrap();
            assert_eq!(flip_sfen(&flipped).unwrap(), key);
            let mirror = Position::from_sfen(&format!("{flipped} 1")).unwrap();
            let fm = flip_move(m);
            assert!(mirror.parse_usi_move(&fm).is_ok(), "{m} → {fm} in {flipped}");
            // The flipped board's own SFEN is what flip_sfen wrote (hands in order).
            assert_eq!(split_ply(&mirror.to_sfen()).unwrap().0, flipped);
            let mv = pos.parse_usi_move(m).unwrap();
            pos.do_move(mv);
        }
        assert!(pos.to_sfen().contains(" w "), "{}", pos.to_sfen());
    }

    #[test]
    fn hands_in_order() {
        assert_eq!(flip_hands("2Pb").unwrap(), "B2p");
        assert_eq!(flip_hands("RGp").unwrap(), "Prg");
        assert_eq!(flip_hands("-").unwrap(), "-");
        assert_eq!(flip_hands("2"), None);
        assert_eq!(flip_hands("K"), None);
        assert_eq!(flip_sfen("9/9 x -"), None);
    }
}
