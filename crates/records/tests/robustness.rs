//! No input makes a reader panic: arbitrary bytes, and real records (every
//! format's writing of rich records, and the cshogi fixtures) with random
//! mutations (characters and lines deleted, inserted, duplicated and swapped,
//! notation characters dropped in, the text cut short) are read by every reader.
//! Whatever is read must keep the readers' promises: every move legal (variations
//! included), an error's line inside the text, and a record read without error
//! writes out and reads back, in every format, as that format keeps it.

use crate::common;

use common::{rich_record, Rng};
use proptest::prelude::*;
use records::{
    decode, read, write, Ending, Format, Handicap, PartialRecord, Record, RecordMove, Start,
};
use shogi::Position;
use std::path::PathBuf;

/// Every move of a line and of its variations is legal where it is played.
fn line_is_legal(pos: &Position, moves: &[RecordMove], ending: &Option<Ending>) -> bool {
    let mut pos = pos.clone();
    for m in moves {
        if !pos.is_legal(m.mv) {
            return false;
        }
        if !m.variations.iter().all(|v| line_is_legal(&pos, &v.moves, &v.ending)) {
            return false;
        }
        pos.do_move(m.mv);
    }
    ending
        .as_ref()
        .is_none_or(|e| e.variations.iter().all(|v| line_is_legal(&pos, &v.moves, &v.ending)))
}

fn record_is_legal(r: &Record) -> bool {
    line_is_legal(&r.start_position(), &r.moves, &r.ending)
}

/// How much a record read without error must survive being written and read back.
#[derive(Clone, Copy, PartialEq)]
enum Promise {
    /// Everything each format keeps (`Record::restricted_to`): for records that
    /// are records, however damaged.
    Everything,
    /// The moves: for text made of random characters, whose headers and comments
    /// may hold control characters and colons anywhere.
    Moves,
}

/// Reads `text` with every reader and checks what comes back.
fn read_everywhere(text: &str, promise: Promise) {
    let lines = text.lines().count().max(1);
    let _ = Format::detect(text);
    for format in Format::ALL {
        match read(text, format) {
            Ok(record) => {
                assert!(record_is_legal(&record), "{format:?} read an illegal move from\n{text}");
                for to in Format::ALL {
                    let written = write(&record, to);
                    let back = read(&written, to).unwrap_or_else(|e| {
                        panic!("{format:?} -> {to:?}: own writing unreadable: {e}\n{written}")
                    });
                    if promise == Promise::Everything {
                        assert_eq!(
                            back,
                            record.restricted_to(to),
                            "{format:?} -> {to:?}: a round trip changed the record\n{text}\n---\n{written}"
                        );
                    } else {
                        assert_eq!(back.main_line(), record.main_line(), "{format:?} -> {to:?}");
                    }
                }
            }
            Err(partial) => {
                let PartialRecord { record, error } = *partial;
                // A reader may name the line after the last (a JSON text ended early).
                assert!(
                    error.line >= 1 && error.line <= lines + 1,
                    "{format:?}: line {} of {lines}: {error}",
                    error.line
                );
                assert!(record_is_legal(&record), "{format:?}: the partial record is illegal");
                let _ = error.to_string();
            }
        }
    }
}

/// Texts to mutate: each format's writing of rich records from several starts.
fn seeds() -> Vec<String> {
    let mut out = Vec::new();
    let starts = [
        Start::default(),
        Start::Handicap(Handicap::ALL[1]),
        Start::Handicap(Handicap::ALL[Handicap::ALL.len() - 1]),
        Start::from_sfen(
            "ln1g3nl/1r1s1kg2/p1ppppsp1/1p4p1p/9/2P1P1P2/PPSP1P1PP/2G2S1R1/LN2KG1NL w Bb 37",
        )
        .expect("a valid SFEN"),
    ];
    for (i, start) in starts.into_iter().enumerate() {
        let record = rich_record(start, 40, 900 + i as u64);
        for format in Format::ALL {
            out.push(write(&record, format));
        }
    }
    out
}

/// The cshogi fixture files, decoded.
fn fixture_texts() -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cshogi");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the fixture directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("game")))
        .collect();
    names.sort();
    names
        .iter()
        .map(|p| decode(&std::fs::read(p).expect("a fixture")).expect("decodable").0)
        .collect()
}

/// Characters that mean something to some reader.
const ALPHABET: &[char] = &[
    '▲', '△', '同', '　', '打', '成', '不', '右', '左', '直', '上', '寄', '引', '行', '入', '歩',
    '香', '桂', '銀', '金', '角', '飛', '玉', '王', 'と', '馬', '龍', '竜', '全', '圭', '杏', '一',
    '二', '三', '四', '五', '六', '七', '八', '九', '１', '５', '９', '(', ')', '0', '1', '5', '9',
    ':', '：', '/', '+', '-', '%', '\'', '*', '&', '#', '$', 'P', 'I', 'T', 'F', 'U', 'N', 'V',
    'A', 'L', '{', '}', '[', ']', '"', ',', ' ', '\n', '\r', '\t', '変', '化', '手', '投', '了',
    'x', '\\', '|', 'v', '・', '\u{feff}', '\0', 'é', '😀',
];

/// One random edit of `text`.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut lines: Vec<&str> = text.split('\n').collect();
    let at = rng.below(chars.len() as u64 + 1) as usize;
    match rng.below(8) {
        0 => {
            let mut c = chars;
            if at < c.len() {
                c.remove(at);
            }
            c.into_iter().collect()
        }
        1 | 2 => {
            let mut c = chars;
            c.insert(at, ALPHABET[rng.below(ALPHABET.len() as u64) as usize]);
            c.into_iter().collect()
        }
        3 => {
            let mut c = chars;
            if at < c.len() {
                c[at] = ALPHABET[rng.below(ALPHABET.len() as u64) as usize];
            }
            c.into_iter().collect()
        }
        4 => {
            let i = rng.below(lines.len() as u64) as usize;
            lines.remove(i);
            lines.join("\n")
        }
        5 => {
            let i = rng.below(lines.len() as u64) as usize;
            let j = rng.below(lines.len() as u64 + 1) as usize;
            let line = lines[i];
            lines.insert(j, line);
            lines.join("\n")
        }
        6 => {
            let i = rng.below(lines.len() as u64) as usize;
            let j = rng.below(lines.len() as u64) as usize;
            lines.swap(i, j);
            lines.join("\n")
        }
        _ => chars[..at].iter().collect(),
    }
}

#[test]
fn mutated_records_never_panic_a_reader() {
    let mut texts = seeds();
    texts.extend(fixture_texts().into_iter().step_by(4));
    let mut rng = Rng::new(2828);
    let mut read = 0;
    for text in &texts {
        read_everywhere(text, Promise::Everything);
        for _ in 0..24 {
            let mut t = text.clone();
            for _ in 0..=rng.below(4) {
                t = mutate(&t, &mut rng);
            }
            read_everywhere(&t, Promise::Everything);
            read += 1;
        }
    }
    assert!(read > 1000, "{read} mutated texts");
}

#[test]
fn header_keys_no_writer_could_keep() {
    // Texts the property tests below once failed on: a header key that another
    // format would read as a move (▲), a board row (|) or nothing at all (a BOM),
    // or with a control character inside, read without error and then written
    // out as something else, or a key with a colon, which KIF ends the key at.
    // Such keys are refused now.
    for text in [
        "▲▲：\n",
        "同▲:\n\r▲:",
        "同:\n\r|:",
        "同:\n0\r▲:",
        "$\u{feff}:",
        "{\"header\":{},\"moves\":[{}\n同　打:",
        "{\"header\":{},\"moves\":[{}\n同\r▲:\n",
        "$：:",
        "$手合割:平手",
        "$後手の持駒:",
        "{\"header\":{\"：\":\"\"},\"moves\":[{}]}",
        "{\"header\":{\"▲\":\"\"},\"moves\":[{}]}",
    ] {
        read_everywhere(text, Promise::Moves);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic_a_reader(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        if let Ok((text, _)) = decode(&bytes) {
            read_everywhere(&text, Promise::Moves);
        }
    }

    #[test]
    fn arbitrary_notation_never_panics_a_reader(
        picks in proptest::collection::vec(0..ALPHABET.len(), 0..300),
        prefix in 0..5usize,
    ) {
        // Text made of the characters readers look for, after a line that makes
        // each format's reader take it seriously.
        let heads = ["", "V2.2\nPI\n+\n", "手数----指手---------消費時間--\n", "position startpos moves ", "{\"header\":{},\"moves\":[{}"];
        let body: String = picks.iter().map(|&i| ALPHABET[i]).collect();
        read_everywhere(&format!("{}{body}", heads[prefix]), Promise::Moves);
    }

    #[test]
    fn arbitrary_header_keys_are_kept_or_refused(
        picks in proptest::collection::vec(0..ALPHABET.len(), 0..6),
    ) {
        // Every reader's header line with a key of notation characters: read, it
        // must write out in every format and read back (checked above), or be refused.
        let key: String = picks.iter().map(|&i| ALPHABET[i]).collect();
        let mut quoted = String::from('"');
        for c in key.chars() {
            match c {
                '"' | '\\' => quoted.extend(['\\', c]),
                c if c.is_control() => quoted.push_str(&format!("\\u{:04x}", c as u32)),
                c => quoted.push(c),
            }
        }
        quoted.push('"');
        for text in [
            format!("V2.2\n${key}:v\nPI\n+\n"),
            format!("{key}：v\n手数----指手---------消費時間--\n"),
            format!("{key}：v\n▲７六歩\n"),
            format!("{{\"header\":{{{quoted}:\"v\"}},\"moves\":[{{}}]}}"),
        ] {
            read_everywhere(&text, Promise::Moves);
        }
    }
}
