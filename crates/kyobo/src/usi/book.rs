//! The opening book in play: the `Book…` options (named and meant as in
//! YaneuraOu's documentation), the book file opened, and the book move of a
//! position. Also the opening variety without a book (`RandomOpening…`).

use book::{flip_move, flip_sfen, split_ply, Book, BookMove, Policy, Rng};
use shogi::{Color, Move, Position};

use super::command::excerpt;
use super::declare::{usi_options, Kind};

/// `BookFile`'s value that means no book.
pub const NO_BOOK: &str = "no_book";

usi_options! {
    /// The book's options as `setoption` left them (named and meant as in
    /// YaneuraOu's documentation), and the opening variety without a book.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct BookOptions {
        own_book: bool = ("USI_OwnBook", Kind::Check { default: true }, "use the book at all");
        /// A path (relative to the engine's working directory), or `no_book`.
        file: String = ("BookFile", Kind::Text { default: NO_BOOK },
            "an opening book in YaneuraOu's text format; `no_book`: none");
        moves: i64 = ("BookMoves", Kind::Spin { default: 16, min: 0, max: 10_000 },
            "use the book up to this move number");
        ignore_rate: u32 = ("BookIgnoreRate", Kind::Spin { default: 0, min: 0, max: 100 },
            "percent of the moves for which the book is not asked");
        eval_diff: i32 = ("BookEvalDiff", Kind::Spin { default: 30, min: 0, max: 99_999 },
            "leave out moves valued more than this (centipawns) below the best book move");
        eval_black_limit: i32 = ("BookEvalBlackLimit",
            Kind::Spin { default: 0, min: -99_999, max: 99_999 },
            "leave out moves valued below this for Black");
        eval_white_limit: i32 = ("BookEvalWhiteLimit",
            Kind::Spin { default: -140, min: -99_999, max: 99_999 },
            "leave out moves valued below this for White");
        depth_limit: i32 = ("BookDepthLimit", Kind::Spin { default: 0, min: 0, max: 99_999 },
            "leave out moves whose value comes from a shallower search (0: any)");
        consider_count: bool = ("ConsiderBookMoveCount", Kind::Check { default: true },
            "weight by how often a move was played (else all alike)");
        narrow: bool = ("NarrowBook", Kind::Check { default: false },
            "leave out moves played in under a tenth of the position's games");
        ignore_ply: bool = ("IgnoreBookPly", Kind::Check { default: false },
            "find a position whatever its move number");
        flipped: bool = ("FlippedBook", Kind::Check { default: true },
            "a position not in the book is looked up turned round (Black's book answers for White)");
        on_the_fly: bool = ("BookOnTheFly", Kind::Check { default: true },
            "search the book on disk (false: read it into memory)");
        pv_moves: i64 = ("BookPvMoves", Kind::Spin { default: 8, min: 1, max: 246 },
            "length of the book line shown as `pv`");
        random_opening_ply: i64 = ("RandomOpeningPly", Kind::Spin { default: 0, min: 0, max: 1000 },
            "without a book move, how many of the first moves are varied (0: off)");
        random_opening_margin: i32 = ("RandomOpeningMargin",
            Kind::Spin { default: 30, min: 0, max: 10_000 },
            "how far (centipawns) below the best a varied move may score");
        random_opening_width: usize = ("RandomOpeningWidth",
            Kind::Spin { default: 4, min: 2, max: 32 },
            "root moves searched with exact values for the variety");
        random_seed: i64 = ("RandomSeed", Kind::Spin { default: 0, min: 0, max: 2_147_483_647 },
            "what starts the book's and the variety's draws, the same for the same seed (0: the clock)");
    }
    plain {}
}

impl BookOptions {
    /// Which book moves may be played.
    pub fn policy(&self) -> Policy {
        Policy {
            eval_diff: self.eval_diff,
            black_limit: self.eval_black_limit,
            white_limit: self.eval_white_limit,
            depth_limit: self.depth_limit,
            consider_count: self.consider_count,
            narrow: self.narrow,
        }
    }

    /// Whether the book is wanted at all.
    fn wanted(&self) -> bool {
        self.own_book && !self.file.eq_ignore_ascii_case(NO_BOOK)
    }
}

/// The book file in use and the random generator of the choices.
pub struct BookState {
    book: Option<Book>,
    /// The file and mode the book was opened (or failed to open) for.
    opened_for: Option<(String, bool)>,
    pub rng: Rng,
}

/// A book move to play and what to tell the GUI.
pub struct BookAnswer {
    pub best: Move,
    pub ponder: Option<Move>,
    /// `info string book: …` and an `info … pv …` line.
    pub lines: Vec<String>,
}

/// A position's book moves, made legal moves (the flipped book's turned back).
struct Found {
    moves: Vec<(BookMove, Move)>,
    flipped: bool,
    /// Book moves that are not legal here (the book is wrong about them).
    illegal: Vec<String>,
}

impl Default for BookState {
    fn default() -> Self {
        BookState { book: None, opened_for: None, rng: Rng::from_entropy() }
    }
}

impl BookState {
    /// Starts the choices afresh from `seed` (`RandomSeed`; 0: from the clock).
    pub fn reseed(&mut self, seed: i64) {
        self.rng = if seed == 0 { Rng::from_entropy() } else { Rng::new(seed as u64) };
    }

    /// Opens (or closes) the book as the options say, unless that was done for
    /// these options already. Returns a line for the GUI: what was opened, or
    /// the error (`Err`: the engine goes on without a book).
    pub fn prepare(&mut self, o: &BookOptions) -> Option<Result<String, String>> {
        if !o.wanted() {
            self.book = None;
            self.opened_for = None;
            return None;
        }
        let on_disk = o.on_the_fly;
        let wanted = (o.file.clone(), on_disk);
        if self.opened_for.as_ref() == Some(&wanted) {
            return None;
        }
        self.opened_for = Some(wanted);
        let start = std::time::Instant::now();
        match Book::open(std::path::Path::new(&o.file), on_disk) {
            Ok(book) => {
                let size = match book.positions() {
                    Some(n) => format!("{n} positions in memory"),
                    None => "searched on disk".to_string(),
                };
                self.book = Some(book);
                Some(Ok(format!(
                    "book {} opened in {} ms ({size})",
                    o.file,
                    start.elapsed().as_millis()
                )))
            }
            Err(e) => {
                self.book = None;
                Some(Err(format!("BookFile {}: {e}; playing without a book", excerpt(&o.file))))
            }
        }
    }

    /// The book move for `pos`, if the book has one the options allow. Warnings
    /// (an illegal book move, a line the book cannot read) go to `warn`.
    pub fn answer(
        &mut self,
        pos: &Position,
        o: &BookOptions,
        want_ponder: bool,
        warn: &mut dyn FnMut(String),
    ) -> Option<BookAnswer> {
        if !o.wanted() || self.book.is_none() || i64::from(pos.game_ply()) > o.moves {
            return None;
        }
        if self.rng.percent(o.ignore_rate) {
            return None;
        }
        let found = self.lookup(pos, o, warn)?;
        if !found.illegal.is_empty() {
            warn(format!("book moves not legal here, left out: {}", found.illegal.join(" ")));
        }
        let black = pos.side_to_move() == Color::Black;
        let book_moves: Vec<BookMove> = found.moves.iter().map(|(b, _)| b.clone()).collect();
        let choice = o.policy().choose(&book_moves, black, &mut self.rng)?;
        let (chosen, best) = found.moves[choice.index].clone();
        let pv = self.line_from(pos, best, &chosen, o, warn);
        let ponder = if want_ponder { pv.get(1).copied() } else { None };
        let pv_text: Vec<String> = pv.iter().map(|m| m.to_usi()).collect();
        let lines = vec![
            format!(
                "info string book: {} (value {}, depth {}, count {}; drawn with probability {:.0}% \
                 from {} of {} book moves{})",
                best.to_usi(),
                chosen.value,
                chosen.depth,
                chosen.count,
                choice.probability * 100.0,
                choice.candidates,
                found.moves.len(),
                if found.flipped { ", flipped book" } else { "" }
            ),
            format!(
                "info depth {} seldepth {} time 0 nodes 0 score cp {} pv {}",
                chosen.depth.max(1),
                chosen.depth.max(1),
                chosen.value,
                pv_text.join(" ")
            ),
        ];
        Some(BookAnswer { best, ponder, lines })
    }

    /// The book's line from `first`: each next position's likeliest book move,
    /// or the book's ponder move where the book stops (`BookPvMoves` moves).
    fn line_from(
        &mut self,
        pos: &Position,
        first: Move,
        first_entry: &BookMove,
        o: &BookOptions,
        warn: &mut dyn FnMut(String),
    ) -> Vec<Move> {
        let mut line = vec![first];
        let mut p = pos.clone();
        p.do_move(first);
        let mut fallback = first_entry.ponder.clone();
        while (line.len() as i64) < o.pv_moves {
            let next = match self.lookup(&p, o, &mut *warn) {
                Some(found) => {
                    let book_moves: Vec<BookMove> =
                        found.moves.iter().map(|(b, _)| b.clone()).collect();
                    o.policy()
                        .most_likely(&book_moves, p.side_to_move() == Color::Black)
                        .map(|i| found.moves[i].clone())
                }
                None => None,
            };
            let mv = match next {
                Some((entry, mv)) => {
                    fallback = entry.ponder.clone();
                    mv
                }
                None => match fallback.take().and_then(|t| p.parse_usi_move(&t).ok()) {
                    Some(mv) => mv,
                    None => break,
                },
            };
            line.push(mv);
            p.do_move(mv);
        }
        line
    }

    /// The position's book moves: its own entry, else (`FlippedBook`) the
    /// entry of the position seen from the other side, its moves turned back.
    fn lookup(
        &mut self,
        pos: &Position,
        o: &BookOptions,
        warn: &mut dyn FnMut(String),
    ) -> Option<Found> {
        let (key, ply) = split_ply(&pos.to_sfen())?;
        let ply = if o.ignore_ply { None } else { ply };
        let book = self.book.as_mut()?;
        let mut probe = |key: &str| match book.probe(key, ply) {
            Ok(found) => found,
            Err(e) => {
                warn(format!("book: {e}"));
                None
            }
        };
        let (moves, flipped) = match probe(&key) {
            Some(moves) => (moves, false),
            None if o.flipped => (probe(&flip_sfen(&key)?)?, true),
            None => return None,
        };
        let mut found = Found { moves: Vec::new(), flipped, illegal: Vec::new() };
        for mut m in moves {
            if flipped {
                m.mv = flip_move(&m.mv);
                m.ponder = m.ponder.map(|p| flip_move(&p));
            }
            match pos.parse_usi_move(&m.mv) {
                Ok(mv) => found.moves.push((m, mv)),
                Err(_) => found.illegal.push(m.mv),
            }
        }
        if found.moves.is_empty() && found.illegal.is_empty() {
            return None;
        }
        Some(found)
    }
}

/// The opening variety without a book: among the root moves the search valued
/// within `RandomOpeningMargin` centipawns of the best (each searched with an
/// exact value, `RandomOpeningWidth` lines), one drawn uniformly; `None` when
/// the option is off here or the best is a mate.
pub fn random_opening_pick(
    root_moves: &[search::engine::RootMove<Move>],
    o: &BookOptions,
    rng: &mut Rng,
) -> Option<Move> {
    use search::tt::Bound;
    use search::value::Score;
    let width = o.random_opening_width;
    let margin = o.random_opening_margin;
    // A stopped search leaves the lines it had not reached this iteration with
    // the previous iteration's value, and some with none.
    let mut valued: Vec<(Move, search::Value)> = root_moves
        .iter()
        .take(width)
        .filter(|r| r.bound.is_none() || r.bound == Some(Bound::Exact))
        .map(|r| (r.mv, r.display_score()))
        .filter(|&(_, v)| v != -search::value::INFINITE)
        .collect();
    valued.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
    let best = match Score::from_value(valued.first()?.1) {
        Score::Cp(cp) => cp,
        Score::Mate(_) => return None,
    };
    let close: Vec<Move> = valued
        .iter()
        .filter(|&&(_, v)| matches!(Score::from_value(v), Score::Cp(cp) if cp >= best - margin))
        .map(|&(mv, _)| mv)
        .collect();
    let weights = vec![1.0; close.len()];
    rng.weighted(&weights).map(|i| close[i])
}

/// Whether `RandomOpeningPly` asks for variety at this move.
pub fn random_opening_here(pos: &Position, o: &BookOptions) -> bool {
    i64::from(pos.game_ply()) <= o.random_opening_ply
}
