//! Kyobo's shogi rules core.
//!
//! Bitboards and attack tables, the position with make/unmake and Zobrist keys,
//! fully legal move generation (whole and staged), the legality of a single move, SFEN and USI notation,
//! repetition (sennichite, perpetual check, superior/inferior positions),
//! entering-king declaration and perft.

pub mod attacks;
pub mod bitboard;
pub mod entering;
pub mod fuzzing;
pub mod hand;
mod legality;
pub mod movegen;
pub mod mv;
pub mod perft;
pub mod position;
pub mod sfen;
pub mod types;
pub mod usi;
mod zobrist;

pub use bitboard::Bitboard;
pub use entering::{Declaration, EnteringKingRule};
pub use hand::Hand;
pub use movegen::CheckInfo;
pub use movegen::{legal_moves, MoveList};
pub use mv::Move;
pub use position::STARTPOS;
pub use position::{Position, Repetition};
pub use sfen::SfenError;
pub use types::{Color, Piece, PieceKind, Square};
pub use usi::MoveParseError;
