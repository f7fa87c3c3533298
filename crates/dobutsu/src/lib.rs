//! Dobutsu shogi (どうぶつしょうぎ): the rules, SFEN/USI-style notation, perft,
//! and the search framework's [`search::Game`] for it.
//!
//! # The game
//!
//! A board of 3 files (a–c, left to right as Sente sees it) by 4 ranks (1–4, top
//! to bottom). Rank 1 is Gote's back rank, rank 4 Sente's; Sente moves first.
//! The start position, `gle/1c1/1C1/ELG b - 1`:
//!
//! ```text
//!      a   b   c
//!   1  g   l   e      Gote: giraffe a1, lion b1, elephant c1, chick b2
//!   2  .   c   .
//!   3  .   C   .      Sente: chick b3, elephant a4, lion b4, giraffe c4
//!   4  E   L   G
//! ```
//!
//! Every piece moves one step: the lion (L) in any direction, the giraffe (G)
//! orthogonally, the elephant (E) diagonally, the chick (C) straight forward
//! (toward rank 1 for Sente, rank 4 for Gote). A chick that moves onto the far
//! rank promotes to a hen (`+C`), which moves like a shogi gold (any step but
//! the backward diagonals); promotion is mandatory. A captured piece goes to the
//! captor's hand, a hen as a chick, and may be dropped on any empty square
//! instead of a move: no rule restricts drops (no nifu, no drop-mate rule), and a
//! chick dropped on the far rank does not promote and never moves again.
//!
//! # The end of the game (Tanaka's convention)
//!
//! The values of Tanaka's retrograde analysis (the second player wins in 78
//! plies) follow from this model, which [`Position::end`] implements and
//! [`search::Game::outcome`] reports, at the start of each turn:
//! 1. a side whose lion is gone has lost (only after a lion capture was played);
//! 2. a side that can capture the opposing lion **has won**: the game ends
//!    there, the capture need not be played (it may be, and is legal);
//! 3. otherwise, a side whose back rank holds the opposing lion **has lost**: the
//!    opponent's lion reached the far rank and cannot be captured (the try);
//! 4. a side whose own lion stands on the far rank has won (its try survived a
//!    turn; only set-up positions get here, as games end a ply earlier by 3).
//!
//! No move is illegal for exposing the own lion: a move that leaves it
//! capturable is legal and loses by rule 2 on the opponent's turn. A side
//! with no legal move at all (every piece blocked, nothing in hand) has lost.
//! In a search a win by rule 2 is a "mate in one ply" (the capture counts as
//! the ply), so distances are counted as Tanaka counts them: the start
//! position is lost in 78 plies.
//!
//! Repetition: the rules of play call a repeated position sennichite (a draw,
//! after replays in tournaments). The search scores any repetition of an earlier
//! position of the game or of the line being searched, with the same side to
//! move and hands, as a draw ([`search::Game::repetition`]); the game-theoretic
//! values agree, as positions that no side can force a win from are draws.
//!
//! # Notation
//!
//! - Positions: SFEN-style, as in shogi ([`sfen`]): `gle/1c1/1C1/ELG b - 1`;
//!   uppercase Sente, lowercase Gote; `L G E C` and `+C` for the hen (`H`
//!   accepted on input); hands `-` or e.g. `G2Ce` (a count before a letter).
//! - Moves: USI-style ([`usi`]): `b3b2` (file letter, rank digit), `b2b1+` (the
//!   mandatory promotion, always written; optional on input), `C*b2` (a drop,
//!   uppercase letter for either side). [`Move::long_notation`] writes game
//!   records' `Cb3xb2`, `Lb4-a3`, `G*b3`.
//! - `Display` for a position draws the board with piece names.
//!
//! # Search
//!
//! [`Dobutsu`] implements [`search::Game`]: the unit is a chick on the board
//! (100); the evaluation is material (board and hand values, hand pieces a
//! little more) and the lions' advance toward the far rank. Captures (the
//! lion's too), chick promotions and tries are the tactical moves quiescence
//! search tries; `in_check` is "the own lion is attacked"; `see_ge` runs a
//! static exchange on the destination (no sliders on this board, so nothing
//! is uncovered); `mate_in_one` finds a try the opponent cannot answer, and
//! `opponent_threatens_to_end` sees the opponent's. Null moves stay off: on 12
//! squares a side that must move often has only losing moves (the same reason
//! a quiescence stand-pat can be wrong, which deeper iterations repair).
//!
//! # The exact solution
//!
//! [`solve`] gives every position reachable from the start its
//! game-theoretic value by retrograde analysis: 246,803,167 positions (side
//! to move normalised, mirror images as one, as Tanaka counts them), the
//! start lost for the side to move in 78 plies. Positions that neither side
//! can force a win from are draws (play goes on for ever; the repetition
//! rule ends it). [`solve::Database`] stores the values compactly, and gives
//! every move of a position with its exact value.
//!
//! # Representation
//!
//! A [`Position`] is one `u64` (12 squares of 4 bits, 6 hand counts of 2 bits,
//! the side to move), `Copy` and its own injective encoding; [`Position::key`]
//! mixes it bijectively into the table key. A [`Move`] is 16 bits and carries
//! what it captures, so [`Position::unmake_move`] needs nothing else.
//! [`Dobutsu`] adds the game's earlier positions, for repetitions.

pub mod game;
pub mod mv;
pub mod perft;
pub mod position;
pub mod sfen;
pub mod solve;
pub mod types;
pub mod usi;

pub use game::Dobutsu;
pub use mv::Move;
pub use perft::{divide, perft};
pub use position::{End, Position, Which};
pub use sfen::{SfenError, STARTPOS};
pub use types::{Color, Kind, Square};
pub use usi::MoveParseError;
