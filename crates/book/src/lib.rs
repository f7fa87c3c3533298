//! Kyobo's opening book, in YaneuraOu's text format (the shogi engines' common one).
//!
//! ```text
//! #YANEURAOU-DB2016 1.00
//! sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
//! 7g7f 3c3d 30 20 812
//! 2g2f 8c8d 25 20 655
//! ```
//!
//! An entry is a `sfen …` line (the position with its move number) followed by one
//! line per book move: `move ponder value depth count` (`ponder` may be `none`;
//! `value` is in centipawns for the side to move, `depth` the search depth that
//! gave it, 0 when no search did; fields missing at the end read as 0, 0 and 1).
//! Lines starting with `#` and empty lines are ignored.
//!
//! - [`entry`]: one entry's lines, read ([`parse_move_line`]) and written.
//! - [`key`]: the lookup key of a position and the flipped position (a book of
//!   Black's moves answers White).
//! - [`file`](mod@file): [`Book`], a book file searched on disk (a sorted file of millions
//!   of positions opens at once) or read into memory (any order).
//! - [`choose`]: which book move to play ([`Policy`], the `Book…` options).
//! - [`build`]: a book from game records ([`Builder`]).
//! - [`rng`]: the small random generator the choices use.

pub mod build;
pub mod choose;
pub mod entry;
pub mod file;
pub mod key;
pub mod rng;

pub use build::{Builder, GameSummary};
pub use choose::{Choice, Policy};
pub use entry::{parse_move_line, write_book, BookMove, Entry, LineError, HEADER};
pub use file::{read_book, Book, BookError};
pub use key::{flip_move, flip_sfen, split_ply};
pub use rng::Rng;
