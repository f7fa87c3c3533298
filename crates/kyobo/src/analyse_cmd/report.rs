//! The HTML report of `kyobo analyse`: one self-contained file (inline CSS and
//! SVG, no script, no external resource) with the evaluation graph over the game
//! (Black's winning chances and score), each side's accuracy, the critical
//! moments as board diagrams, and every move with its judgement.
//!
//! Board diagrams are SVG drawn here: pieces as kanji (the far side's turned
//! round), both hands, the last move's squares highlighted, the board seen from
//! either side (a critical moment is seen from the side that erred).

use super::{mark, score_text, win_chance, Accuracy, Judgement, BLUNDER, DUBIOUS, MISTAKE};
use records::japanese::{japanese, kind_name};
use records::{HeaderKey, Record};
use search::value::Score;
use shogi::{Color, Move, PieceKind, Position, Square};
use std::fmt::Write;

/// The most critical moments shown: the moves that lose the most, from a mistake up.
const MOMENTS: usize = 8;
/// Scores drawn beyond this (centipawns) are drawn at it.
const SCORE_CAP: i32 = 3000;

/// `&`, `<`, `>` and `"` escaped for HTML text and attributes.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// The one-character name of a piece on a diagram (玉 for Black's king, 王 for White's).
fn piece_char(kind: PieceKind, color: Color) -> &'static str {
    match kind {
        PieceKind::King if color == Color::White => "王",
        PieceKind::ProLance => "杏",
        PieceKind::ProKnight => "圭",
        PieceKind::ProSilver => "全",
        k => kind_name(k),
    }
}

/// A score for Black: the mover's score turned round for White's moves.
fn for_black(score: Score, mover: Color) -> Score {
    match (score, mover) {
        (s, Color::Black) => s,
        (Score::Cp(cp), Color::White) => Score::Cp(-cp),
        (Score::Mate(n), Color::White) => Score::Mate(-n),
    }
}

fn capped_cp(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp.clamp(-SCORE_CAP, SCORE_CAP),
        Score::Mate(n) if n > 0 => SCORE_CAP,
        Score::Mate(_) => -SCORE_CAP,
    }
}

/// A line graph over the game: `values` (one a move, in `lo..=hi`) as a polyline,
/// the marked moves as dots, the middle line dashed.
fn graph(title: &str, values: &[f64], lo: f64, hi: f64, marks: &[Option<&str>]) -> String {
    let (w, h, pad) = (720.0, 200.0, 30.0);
    let n = values.len().max(2) as f64 - 1.0;
    let x = |i: usize| pad + (w - 2.0 * pad) * i as f64 / n;
    let y = |v: f64| pad + (h - 2.0 * pad) * (hi - v.clamp(lo, hi)) / (hi - lo);
    let mut s = format!(
        "<svg class=\"graph\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" \
         aria-label=\"{title}\"><rect x=\"{pad}\" y=\"{pad}\" width=\"{}\" height=\"{}\" \
         class=\"plot\"/><line x1=\"{pad}\" x2=\"{}\" y1=\"{m}\" y2=\"{m}\" class=\"mid\"/>",
        w - 2.0 * pad,
        h - 2.0 * pad,
        w - pad,
        m = y((lo + hi) / 2.0)
    );
    let _ = write!(s, "<text x=\"{pad}\" y=\"18\" class=\"title\">{}</text>", escape(title));
    let points: Vec<String> =
        values.iter().enumerate().map(|(i, &v)| format!("{:.1},{:.1}", x(i), y(v))).collect();
    let _ = write!(s, "<polyline points=\"{}\" class=\"line\"/>", points.join(" "));
    for (i, (&v, m)) in values.iter().zip(marks).enumerate() {
        if let Some(m) = m {
            let class = match *m {
                "??" => "blunder",
                "?" => "mistake",
                _ => "dubious",
            };
            let _ = write!(
                s,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" class=\"{class}\"><title>move {} {m}</title></circle>",
                x(i),
                y(v),
                i + 1
            );
        }
    }
    s.push_str("</svg>");
    s
}

/// The board after `last` was played, seen from `viewer`'s side.
pub fn board_svg(pos: &Position, last: Option<Move>, viewer: Color) -> String {
    let cell = 40.0;
    let (bx, by) = (20.0, 50.0);
    let (w, h) = (bx * 2.0 + 9.0 * cell + 10.0, by * 2.0 + 9.0 * cell);
    let place = |sq: Square| -> (f64, f64) {
        let (f, r) = (f64::from(sq.file()), f64::from(sq.rank()));
        match viewer {
            Color::Black => (bx + (8.0 - f) * cell, by + r * cell),
            Color::White => (bx + f * cell, by + (8.0 - r) * cell),
        }
    };
    let mut s = format!(
        "<svg class=\"board\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\">\
         <rect x=\"{bx}\" y=\"{by}\" width=\"{}\" height=\"{}\" class=\"wood\"/>",
        9.0 * cell,
        9.0 * cell
    );
    if let Some(m) = last {
        let mut squares = vec![(m.to(), "to")];
        if !m.is_drop() {
            squares.push((m.from(), "from"));
        }
        for (sq, class) in squares {
            let (x, y) = place(sq);
            let _ = write!(
                s,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\" class=\"{class}\"/>"
            );
        }
    }
    for i in 0..=9 {
        let d = f64::from(i) * cell;
        let _ = write!(
            s,
            "<line x1=\"{bx}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" class=\"grid\"/>\
             <line x1=\"{}\" x2=\"{}\" y1=\"{by}\" y2=\"{}\" class=\"grid\"/>",
            bx + 9.0 * cell,
            by + d,
            by + d,
            bx + d,
            bx + d,
            by + 9.0 * cell
        );
    }
    // File numbers above, rank numerals to the right, as the viewer reads them.
    for i in 0..9u8 {
        let file = match viewer {
            Color::Black => 9 - i,
            Color::White => i + 1,
        };
        let rank = match viewer {
            Color::Black => i,
            Color::White => 8 - i,
        };
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\" class=\"coord\">{file}</text>\
             <text x=\"{}\" y=\"{}\" class=\"coord\">{}</text>",
            bx + (f64::from(i) + 0.5) * cell,
            by - 6.0,
            bx + 9.0 * cell + 8.0,
            by + (f64::from(i) + 0.6) * cell,
            ["一", "二", "三", "四", "五", "六", "七", "八", "九"][usize::from(rank)]
        );
    }
    for sq in Square::all() {
        let piece = pos.piece_on(sq);
        let Some(kind) = piece.kind() else { continue };
        let (x, y) = place(sq);
        let (cx, cy) = (x + cell / 2.0, y + cell / 2.0);
        let turn = if piece.color() == viewer {
            String::new()
        } else {
            format!(" transform=\"rotate(180 {cx} {cy})\"")
        };
        let class = if kind.is_promoted() { "piece promoted" } else { "piece" };
        let _ = write!(
            s,
            "<text x=\"{cx}\" y=\"{}\" class=\"{class}\"{turn}>{}</text>",
            cy + 11.0,
            piece_char(kind, piece.color())
        );
    }
    // Hands: the viewer's below the board, the other side's above.
    for color in [Color::Black, Color::White] {
        let hand = pos.hand(color);
        let mut text =
            String::from(if color == Color::Black { "☗持駒 " } else { "☖持駒 " });
        let mut any = false;
        for kind in [
            PieceKind::Rook,
            PieceKind::Bishop,
            PieceKind::Gold,
            PieceKind::Silver,
            PieceKind::Knight,
            PieceKind::Lance,
            PieceKind::Pawn,
        ] {
            let n = hand.count(kind);
            if n > 0 {
                any = true;
                text.push_str(kind_name(kind));
                if n > 1 {
                    let _ = write!(text, "{n}");
                }
                text.push(' ');
            }
        }
        if !any {
            text.push_str("なし");
        }
        let y = if color == viewer { by + 9.0 * cell + 30.0 } else { by - 28.0 };
        let _ = write!(s, "<text x=\"{bx}\" y=\"{y}\" class=\"hand\">{}</text>", text.trim_end());
    }
    s.push_str("</svg>");
    s
}

/// The report of a game: `judgements` holds, for each move of `moves`, the
/// position before it and what the analysis said.
pub fn html(
    record: &Record,
    moves: &[Move],
    judgements: &[(Position, Judgement)],
    settings: &str,
) -> String {
    let name = |key: HeaderKey, side: &str| {
        record.header(&key).map_or_else(|| side.to_string(), |n| format!("{side} {n}"))
    };
    let title =
        format!("{} – {}", name(HeaderKey::BlackName, "☗"), name(HeaderKey::WhiteName, "☖"));
    let first_ply = record.start_position().game_ply() as usize;
    let texts: Vec<String> =
        judgements.iter().zip(moves).map(|((pos, j), &m)| mover_text(pos, m, j)).collect();
    let marks: Vec<Option<&str>> = judgements.iter().map(|(_, j)| mark(j.loss)).collect();
    let chances: Vec<f64> =
        judgements.iter().map(|(_, j)| 100.0 * win_chance(for_black(j.played, j.mover))).collect();
    let scores: Vec<f64> = judgements
        .iter()
        .map(|(_, j)| f64::from(capped_cp(for_black(j.played, j.mover))))
        .collect();

    let mut s = String::with_capacity(64 * 1024);
    s.push_str("<!DOCTYPE html>\n<html lang=\"ja\"><head><meta charset=\"utf-8\">");
    let _ = write!(s, "<title>Kyobo analysis: {}</title>", escape(&title));
    s.push_str(STYLE);
    s.push_str("</head><body>");
    let _ = write!(s, "<h1>{}</h1><p class=\"settings\">{}</p>", escape(&title), escape(settings));
    s.push_str("<h2>Evaluation</h2>");
    s.push_str(&graph("☗ winning chances (%)", &chances, 0.0, 100.0, &marks));
    s.push_str(&graph(
        &format!("☗ score (centipawns, ±{SCORE_CAP} at most)"),
        &scores,
        -f64::from(SCORE_CAP),
        f64::from(SCORE_CAP),
        &marks,
    ));
    s.push_str(
        "<h2>Accuracy</h2><table class=\"accuracy\"><tr><th></th><th>accuracy</th>\
                <th>mean loss</th><th>?!</th><th>?</th><th>??</th></tr>",
    );
    for color in [Color::Black, Color::White] {
        let Some(a) = Accuracy::of(judgements.iter().map(|(_, j)| j), color) else {
            continue;
        };
        let _ = write!(
            s,
            "<tr><th>{}</th><td>{:.0} % ({}/{})</td><td>{:.1} points</td><td>{}</td>\
             <td>{}</td><td>{}</td></tr>",
            if color == Color::Black { "☗ Black" } else { "☖ White" },
            a.percent(),
            a.good,
            a.moves,
            100.0 * a.mean_loss,
            a.marks[0],
            a.marks[1],
            a.marks[2]
        );
    }
    let _ = write!(
        s,
        "</table><p class=\"note\">A move's loss is the winning chances (1/(1+e<sup>-cp/600</sup>)) \
         of the best move minus those of the move played. ?! from {:.0} points, ? from {:.0}, \
         ?? from {:.0}; accuracy: the share of moves losing under {:.0}. \
         The boards' kanji need a Japanese font (Noto Sans CJK JP, IPAexGothic, \
         Yu Gothic or Hiragino; on Debian: fonts-noto-cjk).</p>",
        100.0 * DUBIOUS,
        100.0 * MISTAKE,
        100.0 * BLUNDER,
        100.0 * DUBIOUS
    );

    let mut critical: Vec<usize> =
        (0..judgements.len()).filter(|&i| judgements[i].1.loss >= MISTAKE).collect();
    critical.sort_by(|&a, &b| judgements[b].1.loss.total_cmp(&judgements[a].1.loss));
    critical.truncate(MOMENTS);
    critical.sort_unstable();
    s.push_str("<h2>Critical moments</h2>");
    if critical.is_empty() {
        s.push_str("<p>No mistake or blunder.</p>");
    }
    s.push_str("<div class=\"moments\">");
    for &i in &critical {
        let (pos, j) = &judgements[i];
        let mut after = pos.clone();
        after.do_move(moves[i]);
        let _ = write!(
            s,
            "<figure>{}<figcaption><b>{} {}</b> {}</figcaption></figure>",
            board_svg(&after, Some(moves[i]), j.mover),
            first_ply + i,
            escape(&texts[i]),
            escape(&super::comment(j, pos, true))
        );
    }
    s.push_str(
        "</div><h2>Moves</h2><table class=\"moves\"><tr><th>#</th><th>move</th>\
                <th>☗ score</th><th>☗ chances</th><th>best (the mover's score)</th></tr>",
    );
    for (i, (pos, j)) in judgements.iter().enumerate() {
        let best = j.better.as_ref().map_or(String::new(), |(_, score, pv)| {
            format!("{} {}", score_text(*score), records::japanese_line(pos, pv, None))
        });
        let _ = write!(
            s,
            "<tr class=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{:.0} %</td><td>{}</td></tr>",
            match marks[i] {
                Some("??") => "blunder",
                Some("?") => "mistake",
                Some(_) => "dubious",
                None => "",
            },
            first_ply + i,
            escape(&texts[i]),
            score_text(for_black(j.played, j.mover)),
            chances[i],
            escape(&best)
        );
    }
    s.push_str("</table></body></html>\n");
    s
}

/// `▲７六歩?!`: the move in Japanese notation with its mark.
fn mover_text(pos: &Position, m: Move, j: &Judgement) -> String {
    format!("{}{}", japanese(pos, m, None), mark(j.loss).unwrap_or(""))
}

const STYLE: &str = "<style>\
body{font-family:'Noto Sans CJK JP','Noto Sans JP','IPAexGothic','IPAGothic','Yu Gothic','Hiragino Sans','Meiryo',sans-serif;margin:2em;color:#222;max-width:1100px}\
h1{font-size:1.5em}.settings,.note{color:#555;font-size:.9em}\
svg text{font-family:'Noto Serif CJK JP','Noto Sans CJK JP','IPAexMincho','IPAMincho','Yu Mincho','Hiragino Mincho ProN','MS Mincho',serif}\
.graph{display:block;margin:.5em 0}.graph .plot{fill:#fafafa;stroke:#999}\
.graph .mid{stroke:#bbb;stroke-dasharray:4 4}.graph .line{fill:none;stroke:#1a5fb4;stroke-width:2}\
.graph .title{font-size:13px;fill:#333}\
circle.blunder{fill:#c01c28}circle.mistake{fill:#e66100}circle.dubious{fill:#f5c211}\
.moments{display:flex;flex-wrap:wrap;gap:1em}figure{margin:0;width:410px}\
figcaption{font-size:.9em}.board .wood{fill:#f1d7a0}.board .grid{stroke:#333;stroke-width:1}\
.board .from{fill:#f6e7b9}.board .to{fill:#f4a261}\
.board .piece{font-size:28px;text-anchor:middle;fill:#111}.board .promoted{fill:#b00}\
.board .coord{font-size:12px;text-anchor:middle;fill:#555}.board .hand{font-size:15px;fill:#111}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 8px;font-size:.9em}\
tr.blunder td{background:#f8d7da}tr.mistake td{background:#fde2c8}tr.dubious td{background:#fdf3c4}\
</style>";

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(pos: &Position, cp: i32, loss: f64) -> (Position, Judgement) {
        let j = Judgement { mover: pos.side_to_move(), played: Score::Cp(cp), better: None, loss };
        (pos.clone(), j)
    }

    #[test]
    fn boards_in_both_orientations() {
        let mut pos = Position::startpos();
        let m = pos.parse_usi_move("7g7f").expect("legal");
        pos.do_move(m);
        let black = board_svg(&pos, Some(m), Color::Black);
        let white = board_svg(&pos, Some(m), Color::White);
        for svg in [&black, &white] {
            assert_eq!(svg.matches("class=\"piece").count(), 40);
            assert_eq!(svg.matches("rotate(180").count(), 20, "the far side turned round");
            assert!(svg.contains("class=\"to\"") && svg.contains("class=\"from\""));
            assert!(svg.contains(">玉<") && svg.contains(">王<"));
        }
        // 7f (file 7, rank f) is the third column from the left and the sixth row
        // for Black; the seventh column from the left and the fourth row for White.
        assert!(
            black.contains("<rect x=\"100\" y=\"250\" width=\"40\" height=\"40\" class=\"to\"/>")
        );
        assert!(
            white.contains("<rect x=\"260\" y=\"170\" width=\"40\" height=\"40\" class=\"to\"/>")
        );
        assert_ne!(black, white);
    }

    #[test]
    fn the_report_is_one_file_with_graphs_moments_and_every_move() {
        let record = Record::from_moves(records::Start::default(), &[]).expect("empty");
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        let mut judgements = Vec::new();
        for (i, usi) in ["7g7f", "3c3d", "8h4d", "4c4d"].iter().enumerate() {
            let m = pos.parse_usi_move(usi).expect("legal");
            let loss = if i == 2 { 0.5 } else { 0.0 };
            judgements.push(judged(&pos, if i == 2 { -900 } else { 30 }, loss));
            moves.push(m);
            pos.do_move(m);
        }
        let page = html(&record, &moves, &judgements, "depth 1");
        assert!(page.starts_with("<!DOCTYPE html>") && page.ends_with("</html>\n"));
        assert_eq!(page.matches("class=\"graph\"").count(), 2);
        assert_eq!(page.matches("class=\"board\"").count(), 1, "one critical moment");
        assert!(page.contains("▲４四角??"));
        assert_eq!(page.matches("<tr class=").count(), 4, "every move listed");
        for outside in ["<script", "http:", "https:", "src="] {
            assert!(!page.contains(outside), "self-contained: {outside}");
        }
    }
}
