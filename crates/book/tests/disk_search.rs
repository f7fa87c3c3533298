//! A book searched on disk finds exactly what the same book read into memory
//! finds, and no file makes either panic.

use book::{write_book, Book, BookMove, Entry};
use proptest::prelude::*;
use std::io::Write;
use std::path::PathBuf;
use testdata::ScratchDir;

/// A book file's path in a scratch folder of its own, removed with the folder.
fn temp_path(tag: &str) -> (ScratchDir, PathBuf) {
    let dir = ScratchDir::new("book-prop");
    let path = dir.join(format!("{tag}-{}.db", rand_suffix()));
    (dir, path)
}

fn rand_suffix() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::SeqCst)
}

/// Keys of the shape `board side hands` (nine ranks), from a small alphabet so
/// that keys share long prefixes (and one is often a prefix of another: the
/// hands `P` and `Pb`).
fn key() -> impl Strategy<Value = String> {
    (
        prop::collection::vec("[pP1]{1,2}", 9).prop_map(|ranks| ranks.join("/")),
        prop_oneof![Just("b"), Just("w")],
        prop_oneof![Just("-"), Just("P"), Just("Pb"), Just("2P")],
    )
        .prop_map(|(board, side, hands)| format!("{board} {side} {hands}"))
}

fn book_move() -> impl Strategy<Value = BookMove> {
    (1u8..=9, 1u8..=9, -300i32..300, 0i32..30, 1u64..50).prop_map(|(f, r, value, depth, count)| {
        BookMove {
            mv: format!("{f}{}{f}{}", char::from(b'a' + r - 1), char::from(b'a' + (r % 9))),
            ponder: None,
            value,
            depth,
            count,
        }
    })
}

fn entries() -> impl Strategy<Value = Vec<(String, Option<u32>, Vec<BookMove>)>> {
    prop::collection::vec(
        (key(), prop::option::of(1u32..40), prop::collection::vec(book_move(), 1..4)),
        0..60,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn disk_finds_what_memory_finds(book in entries(), probes in prop::collection::vec(key(), 0..20), ply in prop::option::of(1u32..40)) {
        let (_dir, path) = temp_path("agree");
        let written: Vec<Entry> = book
            .iter()
            .map(|(k, p, moves)| Entry {
                sfen: match p { Some(n) => format!("{k} {n}"), None => k.clone() },
                moves: moves.clone(),
            })
            .collect();
        let mut file = std::fs::File::create(&path).unwrap();
        write_book(written, &mut file).unwrap();
        drop(file);
        let mut disk = Book::open(&path, true).unwrap();
        let mut memory = Book::open(&path, false).unwrap();
        for k in book.iter().map(|e| e.0.clone()).chain(probes) {
            let mut d = disk.probe(&k, ply).unwrap();
            let mut m = memory.probe(&k, ply).unwrap();
            // The merge keeps the first-seen order, which differs between the
            // file's order and the memory's; compare as sets.
            for list in [&mut d, &mut m].into_iter().flatten() {
                list.sort_by(|a, b| a.mv.cmp(&b.mv));
            }
            prop_assert_eq!(d.clone(), m, "key {}", k);
            if ply.is_none() && book.iter().any(|e| e.0 == k) {
                prop_assert!(d.is_some());
            }
        }
    }

    #[test]
    fn no_file_makes_a_panic(text in "(sfen [a-z1/ ]{0,12}\n|[0-9a-z*+ -]{0,16}\n|#[^\n]{0,5}\n|\r\n){0,12}", k in key()) {
        let (_dir, path) = temp_path("fuzz");
        std::fs::File::create(&path).unwrap().write_all(text.as_bytes()).unwrap();
        for on_disk in [true, false] {
            if let Ok(mut b) = Book::open(&path, on_disk) {
                let _ = b.probe(&k, None);
                let _ = b.probe(&k, Some(1));
            }
        }
    }

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let (_dir, path) = temp_path("bytes");
        std::fs::File::create(&path).unwrap().write_all(&bytes).unwrap();
        for on_disk in [true, false] {
            if let Ok(mut b) = Book::open(&path, on_disk) {
                let _ = b.probe("9/9/9/9/9/9/9/9/9 b -", None);
            }
        }
    }
}
