//! The format-independent game record: headers, start position, moves with their
//! times and comments, the ending, and variations.

use shogi::{Color, Move, Position, SfenError, STARTPOS};
use std::time::Duration;

/// A game record as every reader produces and every writer consumes it.
///
/// Invariants the readers guarantee (and the writers assume): `start` is a valid
/// position, every move of `moves` is legal where it is played, and every
/// variation's moves are legal from the position it branches from. Records built
/// by hand should keep them; the writers report nothing and may write nonsense
/// for an illegal move.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Record {
    /// Headers in the order they were read (players, event, dates, time control, …).
    pub headers: Vec<(HeaderKey, String)>,
    /// The position before the first move.
    pub start: Start,
    /// Comments on the start position (before the first move).
    pub comments: Vec<String>,
    /// The main line.
    pub moves: Vec<RecordMove>,
    /// How the main line ends, when the record says so.
    pub ending: Option<Ending>,
}

/// One move of a line with what the record says about it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct RecordMove {
    /// The move, legal in the position it is played in.
    pub mv: Move,
    /// Time spent on the move.
    pub time: Option<Duration>,
    /// Comments after the move, one entry per comment line.
    pub comments: Vec<String>,
    /// A KIF bookmark (`&name`) on the position after the move.
    pub bookmark: Option<String>,
    /// Alternatives to this move (each starts with a move played instead of it).
    pub variations: Vec<Variation>,
}

impl RecordMove {
    /// A move with nothing else recorded about it.
    pub fn new(mv: Move) -> RecordMove {
        RecordMove { mv, ..RecordMove::default() }
    }

    /// A move and the time spent on it.
    pub fn timed(mv: Move, time: Duration) -> RecordMove {
        RecordMove { mv, time: Some(time), ..RecordMove::default() }
    }
}

/// A line played instead of a move (or instead of an ending) of another line.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Variation {
    /// The moves; the first replaces the move the variation hangs on. May be empty
    /// when the variation is only an ending (resigning instead of a move).
    pub moves: Vec<RecordMove>,
    /// How the variation ends, when the record says so.
    pub ending: Option<Ending>,
}

/// How a line ends. It takes the place of a move: `ply` numbering counts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// Why.
    pub reason: EndReason,
    /// Time spent before the ending (a resignation after 10 seconds' thought).
    pub time: Option<Duration>,
    /// Comments after the ending.
    pub comments: Vec<String>,
    /// Moves played instead of ending the game here.
    pub variations: Vec<Variation>,
}

impl Ending {
    /// An ending with no time, comments or variations.
    pub fn new(reason: EndReason) -> Ending {
        Ending { reason, time: None, comments: Vec::new(), variations: Vec::new() }
    }
}

/// Why a game (or a line) ended. "The side to move" is the side whose turn it is
/// when the ending is recorded, after the line's last move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move resigned (`%TORYO`, 投了).
    Resign,
    /// The game was interrupted; no result (`%CHUDAN`, 中断).
    Abort,
    /// Fourfold repetition (`%SENNICHITE`, 千日手).
    Sennichite,
    /// The side to move ran out of time and loses (`%TIME_UP`, 切れ負け).
    TimeUp,
    /// The side to move loses by a foul (`%ILLEGAL_MOVE`, 反則負け).
    IllegalMove,
    /// This side committed a foul and loses (`%+ILLEGAL_ACTION`, `%-ILLEGAL_ACTION`;
    /// KIF 反則勝ち when it is the side that just moved).
    IllegalAction(Color),
    /// Impasse (`%JISHOGI`, 持将棋).
    Jishogi,
    /// The side to move declared an entering-king win (`%KACHI`, 入玉勝ち).
    DeclareWin,
    /// A draw declaration (`%HIKIWAKE`).
    DeclareDraw,
    /// The game reached its move limit, a draw (`%MAX_MOVES`, CSA V3.0).
    MaxMoves,
    /// The side to move is checkmated (`%TSUMI`, 詰み).
    Mate,
    /// No mate (tsume problems: `%FUZUMI`, 不詰).
    NoMate,
    /// A take-back (`%MATTA`, CSA V2.2 only).
    Matta,
    /// An error ended the game (`%ERROR`).
    Error,
}

impl EndReason {
    /// Every ending (both colours of `IllegalAction`).
    pub const ALL: [EndReason; 15] = [
        EndReason::Resign,
        EndReason::Abort,
        EndReason::Sennichite,
        EndReason::TimeUp,
        EndReason::IllegalMove,
        EndReason::IllegalAction(Color::Black),
        EndReason::IllegalAction(Color::White),
        EndReason::Jishogi,
        EndReason::DeclareWin,
        EndReason::DeclareDraw,
        EndReason::MaxMoves,
        EndReason::Mate,
        EndReason::NoMate,
        EndReason::Matta,
        EndReason::Error,
    ];

    /// The winner, given the side to move when the game ended; `None` for draws,
    /// interruptions and endings that decide nothing.
    pub fn winner(self, side_to_move: Color) -> Option<Color> {
        match self {
            EndReason::Resign | EndReason::TimeUp | EndReason::IllegalMove | EndReason::Mate => {
                Some(side_to_move.flip())
            }
            EndReason::DeclareWin => Some(side_to_move),
            EndReason::IllegalAction(c) => Some(c.flip()),
            _ => None,
        }
    }

    /// Whether the ending is a draw.
    pub fn is_draw(self) -> bool {
        matches!(
            self,
            EndReason::Sennichite
                | EndReason::Jishogi
                | EndReason::DeclareDraw
                | EndReason::MaxMoves
        )
    }
}

/// A header's meaning. The well-known keys are mapped between formats (CSA `N+` ↔
/// KIF 先手 ↔ JKF "先手"); any other key travels verbatim as `Other`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum HeaderKey {
    /// Black's (sente's, in handicap games shitate's) name: CSA `N+`, KIF 先手/下手.
    BlackName,
    /// White's (gote's, uwate's) name: CSA `N-`, KIF 後手/上手.
    WhiteName,
    /// CSA `$EVENT`, KIF 棋戦.
    Event,
    /// CSA `$SITE`, KIF 場所.
    Site,
    /// CSA `$START_TIME`, KIF 開始日時.
    StartTime,
    /// CSA `$END_TIME`, KIF 終了日時.
    EndTime,
    /// CSA `$TIME_LIMIT`, KIF 持ち時間.
    TimeLimit,
    /// CSA `$OPENING`, KIF 戦型.
    Opening,
    /// CSA `$NOTE` (V3.0), KIF 備考.
    Note,
    /// Any other key, spelt as its format spells it (`TIME`, `MAX_MOVES`, 表題, …).
    Other(String),
}

/// (key, CSA name without `$`, KIF name) for the mapped keys; names and `N±` apart.
const KEY_NAMES: [(HeaderKey, &str, &str); 7] = [
    (HeaderKey::Event, "EVENT", "棋戦"),
    (HeaderKey::Site, "SITE", "場所"),
    (HeaderKey::StartTime, "START_TIME", "開始日時"),
    (HeaderKey::EndTime, "END_TIME", "終了日時"),
    (HeaderKey::TimeLimit, "TIME_LIMIT", "持ち時間"),
    (HeaderKey::Opening, "OPENING", "戦型"),
    (HeaderKey::Note, "NOTE", "備考"),
];

impl HeaderKey {
    /// The key of a CSA `$NAME:` line.
    pub fn from_csa(name: &str) -> HeaderKey {
        KEY_NAMES
            .iter()
            .find(|(_, csa, _)| *csa == name)
            .map_or_else(|| HeaderKey::Other(name.to_string()), |(k, _, _)| k.clone())
    }

    /// The name for a CSA `$NAME:` line (names of players are `N+`/`N-` lines).
    pub fn csa_name(&self) -> &str {
        match self {
            HeaderKey::BlackName => "SENTE",
            HeaderKey::WhiteName => "GOTE",
            HeaderKey::Other(s) => s,
            k => KEY_NAMES.iter().find(|(key, _, _)| key == k).map_or("", |(_, csa, _)| csa),
        }
    }

    /// The key of a KIF/KI2/JKF header (`先手`, `棋戦`, …).
    pub fn from_kif(name: &str) -> HeaderKey {
        match name {
            "先手" | "下手" => HeaderKey::BlackName,
            "後手" | "上手" => HeaderKey::WhiteName,
            "対局日" => HeaderKey::StartTime,
            _ => KEY_NAMES
                .iter()
                .find(|(_, _, kif)| *kif == name)
                .map_or_else(|| HeaderKey::Other(name.to_string()), |(k, _, _)| k.clone()),
        }
    }

    /// The KIF name; players are 先手/後手 (the writers use 下手/上手 for handicaps).
    pub fn kif_name(&self) -> &str {
        match self {
            HeaderKey::BlackName => "先手",
            HeaderKey::WhiteName => "後手",
            HeaderKey::Other(s) => s,
            k => KEY_NAMES.iter().find(|(key, _, _)| key == k).map_or("", |(_, _, kif)| kif),
        }
    }
}

/// The standard starting positions (手合割), each with its KIF name, JKF preset
/// and CSA `PI` removals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Handicap {
    /// 平手: no handicap, Black moves first.
    Even,
    /// 香落ち: White's 1一 lance removed.
    Lance,
    /// 右香落ち: White's 9一 lance.
    RightLance,
    /// 角落ち: the bishop.
    Bishop,
    /// 飛車落ち: the rook.
    Rook,
    /// 飛香落ち: rook and 1一 lance.
    RookLance,
    /// 二枚落ち: rook and bishop.
    TwoPieces,
    /// 三枚落ち: rook, bishop, 1一 lance.
    ThreePieces,
    /// 四枚落ち: rook, bishop, both lances.
    FourPieces,
    /// 五枚落ち: four pieces and the 8一 knight.
    FivePieces,
    /// 左五枚落ち: four pieces and the 2一 knight.
    LeftFivePieces,
    /// 六枚落ち: rook, bishop, lances, knights.
    SixPieces,
    /// 左七枚落ち: six pieces and the 3一 silver.
    LeftSevenPieces,
    /// 右七枚落ち: six pieces and the 7一 silver.
    RightSevenPieces,
    /// 八枚落ち: six pieces and both silvers.
    EightPieces,
    /// 十枚落ち: everything but the king and the pawns.
    TenPieces,
}

/// (handicap, KIF name, JKF preset, CSA PI removals, SFEN)
const HANDICAPS: [(Handicap, &str, &str, &str, &str); 16] = [
    (Handicap::Even, "平手", "HIRATE", "", STARTPOS),
    (
        Handicap::Lance,
        "香落ち",
        "KY",
        "11KY",
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::RightLance,
        "右香落ち",
        "KY_R",
        "91KY",
        "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::Bishop,
        "角落ち",
        "KA",
        "22KA",
        "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::Rook,
        "飛車落ち",
        "HI",
        "82HI",
        "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::RookLance,
        "飛香落ち",
        "HIKY",
        "82HI11KY",
        "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::TwoPieces,
        "二枚落ち",
        "2",
        "82HI22KA",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::ThreePieces,
        "三枚落ち",
        "3",
        "82HI22KA11KY",
        "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::FourPieces,
        "四枚落ち",
        "4",
        "82HI22KA11KY91KY",
        "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::FivePieces,
        "五枚落ち",
        "5",
        "82HI22KA11KY91KY81KE",
        "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::LeftFivePieces,
        "左五枚落ち",
        "5_L",
        "82HI22KA11KY91KY21KE",
        "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::SixPieces,
        "六枚落ち",
        "6",
        "82HI22KA11KY91KY21KE81KE",
        "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::LeftSevenPieces,
        "左七枚落ち",
        "7_L",
        "82HI22KA11KY91KY21KE81KE31GI",
        "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::RightSevenPieces,
        "右七枚落ち",
        "7_R",
        "82HI22KA11KY91KY21KE81KE71GI",
        "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::EightPieces,
        "八枚落ち",
        "8",
        "82HI22KA11KY91KY21KE81KE31GI71GI",
        "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::TenPieces,
        "十枚落ち",
        "10",
        "82HI22KA11KY91KY21KE81KE31GI71GI41KI61KI",
        "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
];

impl Handicap {
    /// Every standard start, 平手 first.
    pub const ALL: [Handicap; 16] = [
        Handicap::Even,
        Handicap::Lance,
        Handicap::RightLance,
        Handicap::Bishop,
        Handicap::Rook,
        Handicap::RookLance,
        Handicap::TwoPieces,
        Handicap::ThreePieces,
        Handicap::FourPieces,
        Handicap::FivePieces,
        Handicap::LeftFivePieces,
        Handicap::SixPieces,
        Handicap::LeftSevenPieces,
        Handicap::RightSevenPieces,
        Handicap::EightPieces,
        Handicap::TenPieces,
    ];

    fn row(self) -> &'static (Handicap, &'static str, &'static str, &'static str, &'static str) {
        &HANDICAPS[self as usize]
    }

    /// The KIF 手合割 name: 平手, 香落ち, …
    pub fn kif_name(self) -> &'static str {
        self.row().1
    }

    /// The JKF `initial.preset` name: HIRATE, KY, …
    pub fn jkf_preset(self) -> &'static str {
        self.row().2
    }

    /// The pieces a CSA `PI` line removes, as `82HI22KA`.
    pub fn csa_removals(self) -> &'static str {
        self.row().3
    }

    /// The SFEN (move number 1; White to move in every handicap game).
    pub fn sfen(self) -> &'static str {
        self.row().4
    }

    /// The handicap a 手合割 name stands for (`その他` is none).
    pub fn from_kif_name(name: &str) -> Option<Handicap> {
        HANDICAPS.iter().find(|r| r.1 == name).map(|r| r.0)
    }

    /// The handicap a JKF preset stands for (`OTHER` is none).
    pub fn from_jkf_preset(name: &str) -> Option<Handicap> {
        HANDICAPS.iter().find(|r| r.2 == name).map(|r| r.0)
    }
}

/// The position a record starts from: a standard one, or any other.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Start {
    /// A standard start (平手 included).
    Handicap(Handicap),
    /// Any other position, as the canonical SFEN `Position::to_sfen` writes
    /// (its move number included).
    Sfen(String),
}

impl Default for Start {
    fn default() -> Start {
        Start::Handicap(Handicap::Even)
    }
}

impl Start {
    /// Validates `sfen` and names it: a standard position with move number 1 becomes
    /// `Start::Handicap`, anything else a canonical `Start::Sfen`.
    pub fn from_sfen(sfen: &str) -> Result<Start, SfenError> {
        let pos = Position::from_sfen(sfen)?;
        Ok(Start::from_position(&pos))
    }

    /// The start of a record whose first move is played from `pos`.
    pub fn from_position(pos: &Position) -> Start {
        let sfen = pos.to_sfen();
        match Handicap::ALL.iter().find(|h| h.sfen() == sfen) {
            Some(&h) => Start::Handicap(h),
            None => Start::Sfen(sfen),
        }
    }

    /// The SFEN of the start, with its move number.
    pub fn sfen(&self) -> &str {
        match self {
            Start::Handicap(h) => h.sfen(),
            Start::Sfen(s) => s,
        }
    }

    /// The position itself.
    ///
    /// # Panics
    /// When a hand-made `Start::Sfen` holds an invalid SFEN (the readers never make one).
    pub fn position(&self) -> Position {
        Position::from_sfen(self.sfen()).expect("a record's start position is valid")
    }

    /// The standard start this is, if it is one.
    pub fn handicap(&self) -> Option<Handicap> {
        match self {
            Start::Handicap(h) => Some(*h),
            Start::Sfen(_) => None,
        }
    }
}

impl Record {
    /// An empty record from the standard start position.
    pub fn new() -> Record {
        Record::default()
    }

    /// A record of `moves` played from `start`, with nothing else in it.
    ///
    /// # Errors
    /// The index of the first move that is not legal where it is played.
    pub fn from_moves(start: Start, moves: &[Move]) -> Result<Record, usize> {
        let mut pos = start.position();
        for (i, &m) in moves.iter().enumerate() {
            if !pos.is_legal(m) {
                return Err(i);
            }
            pos.do_move(m);
        }
        Ok(Record {
            start,
            moves: moves.iter().map(|&m| RecordMove::new(m)).collect(),
            ..Record::default()
        })
    }

    /// The first header with this key.
    pub fn header(&self, key: &HeaderKey) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// Replaces the first header with this key, or appends one.
    pub fn set_header(&mut self, key: HeaderKey, value: impl Into<String>) {
        let value = value.into();
        match self.headers.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = value,
            None => self.headers.push((key, value)),
        }
    }

    /// The position before the first move.
    pub fn start_position(&self) -> Position {
        self.start.position()
    }

    /// The main line's moves.
    pub fn main_line(&self) -> Vec<Move> {
        self.moves.iter().map(|m| m.mv).collect()
    }

    /// The position after the main line.
    pub fn final_position(&self) -> Position {
        let mut pos = self.start_position();
        for m in &self.moves {
            pos.do_move(m.mv);
        }
        pos
    }

    /// The winner of the main line, when its ending names one.
    pub fn winner(&self) -> Option<Color> {
        let ending = self.ending.as_ref()?;
        ending.reason.winner(self.final_position().side_to_move())
    }

    /// The number of variations anywhere in the record.
    pub fn variation_count(&self) -> usize {
        fn count(moves: &[RecordMove], ending: &Option<Ending>) -> usize {
            let of = |vs: &[Variation]| -> usize {
                vs.iter().map(|v| 1 + count(&v.moves, &v.ending)).sum()
            };
            moves.iter().map(|m| of(&m.variations)).sum::<usize>()
                + ending.as_ref().map_or(0, |e| of(&e.variations))
        }
        count(&self.moves, &self.ending)
    }

    /// The record without what `format` cannot hold, as reading back what that
    /// format's writer wrote gives it: the contract of the round-trip tests.
    pub fn restricted_to(&self, format: crate::Format) -> Record {
        crate::restrict(self, format)
    }
}
