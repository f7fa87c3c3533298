//! `kyobo shape`: the bad-shape checks (悪形チェック, see `shogi_game::bad_shape`) on a
//! position — which legal moves the engine considers ugly and why — or their
//! firing rates on the moves of a file of games.

use records::Format;
use shogi::{Move, Position};
use shogi_game::bad_shape::{self, Rates, CHECKS};
use std::path::Path;

#[derive(clap::Args)]
pub struct ShapeArgs {
    /// The position (SFEN, or `startpos`): list its bad-shape legal moves.
    #[arg(long, conflicts_with = "rates")]
    sfen: Option<String>,
    /// Moves (USI) played from the position first.
    #[arg(long, num_args = 1.., value_name = "M", requires = "sfen")]
    moves: Vec<String>,
    /// Judge this one move (USI) instead of listing every bad-shape move.
    #[arg(long = "move", value_name = "M", requires = "sfen")]
    judge: Option<String>,
    /// A file of games, one a line (`startpos moves ...` or `sfen ... moves ...`):
    /// how often each check fires on the moves played.
    #[arg(long, value_name = "FILE")]
    rates: Option<String>,
    /// With --rates: judge the moves from this ply on (1: the first move).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    from_ply: u32,
    /// Print moves in Japanese notation (`▲２八飛`) instead of USI.
    #[arg(long, requires = "sfen", conflicts_with = "rates")]
    japanese: bool,
}

pub fn run(args: &ShapeArgs) -> Result<(), String> {
    shogi::attacks::init();
    match (&args.sfen, &args.rates) {
        (Some(sfen), _) => judge(sfen, args),
        (None, Some(path)) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
            let (text, _) = records::decode(&bytes).map_err(|e| format!("{path}: {e}"))?;
            check_game_lines(Path::new(path), &text)?;
            let (rates, errors) = rates_of(&text, args.from_ply as usize);
            for e in &errors {
                eprintln!("{path}:{e}");
            }
            if rates.games == 0 && !errors.is_empty() {
                return Err(format!(
                    "{path}: no game read ({} bad lines, above): --rates wants one game a \
                     line, `startpos moves …` or `sfen … moves …`",
                    errors.len()
                ));
            }
            for line in rates_table(&rates, args.from_ply, errors.len()) {
                crate::print_line(&line);
            }
            Ok(())
        }
        (None, None) => Err("give --sfen SFEN (with --moves, --move) or --rates FILE".into()),
    }
}

/// Refuses a record of another format (a KIF game, say) with the way to turn it
/// into the lines `--rates` reads, instead of a complaint about each of its lines.
fn check_game_lines(path: &Path, text: &str) -> Result<(), String> {
    let format = path
        .extension()
        .and_then(|e| e.to_str())
        .and_then(Format::from_extension)
        .map(|(f, _)| f)
        .or_else(|| Format::detect(text));
    let name = match format {
        Some(Format::Kif) => "KIF",
        Some(Format::Ki2) => "KI2",
        Some(Format::Csa) => "CSA",
        Some(Format::Jkf) => "JKF",
        Some(Format::Usi) | None => return Ok(()),
    };
    Err(format!(
        "{}: a {name} record, but --rates wants one game a line (`startpos moves …` or \
         `sfen … moves …`): convert it first with `kyobo convert {} {}` and give that \
         file (the lines of several games may go in one file)",
        path.display(),
        path.display(),
        path.with_extension("usi").display()
    ))
}

fn judge(sfen: &str, args: &ShapeArgs) -> Result<(), String> {
    let pos = position(sfen, &args.moves)?;
    for line in judgement(&pos, args.judge.as_deref(), args.japanese)? {
        crate::print_line(&line);
    }
    Ok(())
}

/// The position `sfen` (or `startpos`; a leading `sfen ` is allowed) after `moves`.
fn position(sfen: &str, moves: &[String]) -> Result<Position, String> {
    let mut pos =
        Position::from_position_text(sfen).map_err(|e| format!("--sfen '{}': {e}", sfen.trim()))?;
    for text in moves {
        let m = pos.parse_usi_move(text).map_err(|e| format!("--moves: {e}"))?;
        pos.do_move(m);
    }
    Ok(pos)
}

/// The verdict on one move, or the list of bad-shape legal moves of `pos`; moves
/// in USI, or in Japanese notation when `japanese`.
fn judgement(pos: &Position, one: Option<&str>, japanese: bool) -> Result<Vec<String>, String> {
    let name = |m: Move| {
        if japanese {
            records::japanese(pos, m, None)
        } else {
            m.to_usi()
        }
    };
    if let Some(text) = one {
        let m = pos.parse_usi_move(text).map_err(|e| format!("--move: {e}"))?;
        let fired: Vec<_> = bad_shape::firing(pos, m).collect();
        let m = name(m);
        return Ok(match fired.split_first() {
            None => vec![format!("{m}: not bad shape")],
            Some((first, rest)) => {
                let mut lines = vec![format!("{m}: bad shape: {} — {}", first.name, first.reason)];
                lines.extend(rest.iter().map(|c| format!("  also {} — {}", c.name, c.reason)));
                lines
            }
        });
    }
    let legal = shogi::legal_moves(pos).len();
    let bad = bad_shape::bad_moves(pos);
    let mut lines = vec![format!("{} of {legal} legal moves are bad shape", bad.len())];
    let names: Vec<String> = bad.iter().map(|(m, _)| name(*m)).collect();
    // Japanese names are padded with ideographic spaces, which line them up on a
    // terminal as the full-width characters they are made of.
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    for (n, (_, c)) in names.iter().zip(&bad) {
        let pad = if japanese {
            "\u{3000}".repeat(width - n.chars().count())
        } else {
            " ".repeat(6usize.saturating_sub(n.len()))
        };
        lines.push(format!("{n}{pad} {} — {}", c.name, c.reason));
    }
    Ok(lines)
}

/// The rates over every good line of `text`, and for each bad line
/// `NUMBER: why: 'text'` (blank lines and `#` comments are skipped silently).
fn rates_of(text: &str, from_ply: usize) -> (Rates, Vec<String>) {
    let mut rates = Rates::new();
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match bad_shape::parse_record(line) {
            Ok((start, moves)) => rates.add_game(&start, &moves, from_ply),
            Err(e) => errors.push(format!("{}: {e}: '{}'", i + 1, book::entry::excerpt(line))),
        }
    }
    (rates, errors)
}

/// The table `--rates` prints: per check the moves it fires on (first or not) and
/// their share of the moves judged, then the moves any check fires on.
fn rates_table(rates: &Rates, from_ply: u32, skipped: usize) -> Vec<String> {
    let mut lines = vec![
        format!(
            "games {}, moves judged {} (from ply {from_ply}), bad lines skipped {skipped}",
            rates.games, rates.judged
        ),
        format!("{:<26} {:>8} {:>8}", "check", "fired", "%"),
    ];
    for (check, &n) in CHECKS.iter().zip(&rates.fired) {
        lines.push(format!("{:<26} {n:>8} {:>8.3}", check.name, rates.percent(n)));
    }
    lines.push(format!("{:<26} {:>8} {:>8.3}", "any", rates.bad, rates.percent(rates.bad)));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn lists_and_judges_moves() {
        shogi::attacks::init();
        // Figure 1 of KFEnd's bad-shape article: the rook on 26 after the 2nd-file exchange.
        let fig1 = moves("2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d P*2c 2d2f 4a3b");
        let pos = position("startpos", &fig1).unwrap();
        let verdict = judgement(&pos, Some("2f3f"), false).unwrap();
        assert!(verdict[0].starts_with("2f3f: bad shape: rook_on_pawn_head — "), "{verdict:?}");
        assert_eq!(judgement(&pos, Some("2f2h"), false).unwrap(), vec!["2f2h: not bad shape"]);
        let list = judgement(&pos, None, false).unwrap();
        assert!(list[0].ends_with("legal moves are bad shape"), "{list:?}");
        assert!(list.iter().any(|l| l.starts_with("2f3f ") && l.contains("rook_on_pawn_head")));
        assert!(judgement(&pos, Some("2f2a"), false).is_err());
        let ja = judgement(&pos, Some("2f3f"), true).unwrap();
        assert!(ja[0].starts_with("▲３六飛: bad shape: rook_on_pawn_head — "), "{ja:?}");
        let list = judgement(&pos, None, true).unwrap();
        assert!(list.iter().any(|l| l.starts_with("▲３六飛") && l.contains("rook_on_pawn_head")));
        assert!(position("startpos", &moves("7g7f 7g7f")).is_err());
        assert!(position("sfen 9/9 b - 1", &[]).is_err());
        let sfen = format!("sfen {}", shogi::STARTPOS);
        assert_eq!(position(&sfen, &[]).unwrap(), Position::startpos());
    }

    #[test]
    fn rates_skip_bad_lines_and_count_the_rest() {
        let text = "startpos moves 7g7f 3c3d\n\
                    # a comment\n\
                    startpos moves 7g7f 7g7f\n\
                    sfen nonsense\n\
                    startpos moves 2g2f 8c8d 2f2e\n";
        let (rates, errors) = rates_of(text, 1);
        assert_eq!(rates.games, 2);
        assert_eq!(rates.judged, 5);
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[0].starts_with("3: move 2"), "{errors:?}");
        assert!(errors[1].starts_with("4: "), "{errors:?}");
        let (later, _) = rates_of(text, 3);
        assert_eq!(later.judged, 1);
        let table = rates_table(&rates, 1, errors.len());
        assert_eq!(table.len(), CHECKS.len() + 3);
        assert!(table[0].ends_with("bad lines skipped 2"), "{table:?}");
        assert!(table.last().unwrap().starts_with("any "), "{table:?}");
    }
}
