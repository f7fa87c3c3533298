//! A book file: searched where it lies on disk, or read into memory.
//!
//! On disk ([`Book::open`] with `on_disk`), a lookup is a binary search over the
//! file's bytes: about 2 log2(size) short reads, so a book of millions of
//! positions opens at once and answers in well under a millisecond. It needs the
//! entries sorted by their SFEN, as YaneuraOu's tools and `kyobo book build`
//! write them; opening checks the order of the first and the last entries.
//! In memory, any order is read, at the cost of reading it all first.

use crate::entry::{excerpt, parse_move_line, BookMove, Entry, LineError};
use crate::key::split_ply;
use std::collections::HashMap;
use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

/// Why a book cannot be opened or read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The file cannot be opened or read.
    Io(String),
    /// Neither a `#` comment, an empty line nor a `sfen` line first: not a book.
    NotABook(String),
    /// A move line that cannot be read (`at`: its line number in memory, its
    /// byte offset on disk).
    Line { at: u64, error: LineError },
    /// A move line before any `sfen` line.
    MoveBeforePosition { at: u64 },
    /// A `sfen` line without board, side and hands.
    BadPosition { at: u64, text: String },
    /// On disk only: the entries are not sorted by SFEN.
    Unsorted(String),
    /// The memory to read the book into is not there.
    OutOfMemory(u64),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io(e) => write!(f, "{e}"),
            BookError::NotABook(line) => {
                write!(f, "not a book in YaneuraOu's format (it starts '{}')", excerpt(line))
            }
            BookError::Line { at, error } => write!(f, "move line at {at}: {error}"),
            BookError::MoveBeforePosition { at } => {
                write!(f, "move line at {at} comes before any sfen line")
            }
            BookError::BadPosition { at, text } => {
                write!(f, "sfen line at {at} is not a position: '{}'", excerpt(text))
            }
            BookError::Unsorted(near) => write!(
                f,
                "entries not sorted by SFEN (near '{}'): read it into memory \
                 (BookOnTheFly false) or sort it with `kyobo book sort`",
                excerpt(near)
            ),
            BookError::OutOfMemory(bytes) => write!(f, "no memory to read {bytes} bytes"),
        }
    }
}

impl std::error::Error for BookError {}

/// The entries of one position key: each one's move number and moves.
type Entries = Vec<(Option<u32>, Vec<BookMove>)>;

/// Where an entry's `sfen` line starts, where the next line starts, its key and
/// move number.
type EntryStart = (u64, u64, String, Option<u32>);

/// An open book.
pub struct Book {
    store: Store,
}

enum Store {
    Disk(DiskBook),
    /// Position key → (move number, moves) of each entry with that key.
    Memory(HashMap<String, Entries>),
}

impl Book {
    /// Opens the book at `path`: searched on disk (`on_disk`) or read into memory.
    ///
    /// # Errors
    /// [`BookError`]: the file, its first line, a line of it (in memory: every
    /// line is read now), or its order (on disk).
    pub fn open(path: &Path, on_disk: bool) -> Result<Book, BookError> {
        let io = |e: std::io::Error| BookError::Io(format!("{}: {e}", path.display()));
        let file = File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        if on_disk {
            let mut disk = DiskBook { file: BufReader::new(file), len };
            disk.check_start().map_err(|e| e.or_io(path))?;
            disk.check_order().map_err(|e| e.or_io(path))?;
            return Ok(Book { store: Store::Disk(disk) });
        }
        let mut bytes = Vec::new();
        let size = usize::try_from(len).map_err(|_| BookError::OutOfMemory(len))?;
        bytes.try_reserve_exact(size).map_err(|_| BookError::OutOfMemory(len))?;
        BufReader::new(file).read_to_end(&mut bytes).map_err(io)?;
        let text = String::from_utf8_lossy(&bytes);
        let entries = read_entries(&text)?;
        let mut map: HashMap<String, Entries> = HashMap::new();
        map.try_reserve(entries.len()).map_err(|_| BookError::OutOfMemory(len))?;
        for (key, ply, moves) in entries {
            map.entry(key).or_default().push((ply, moves));
        }
        Ok(Book { store: Store::Memory(map) })
    }

    /// The number of positions, when the book is in memory.
    pub fn positions(&self) -> Option<usize> {
        match &self.store {
            Store::Memory(map) => Some(map.len()),
            Store::Disk(_) => None,
        }
    }

    /// The book moves of the position `key` (see [`split_ply`]): of the entries
    /// with move number `ply` (and those written without one), or of every entry
    /// of the position when `ply` is `None`. Moves in several entries are merged:
    /// counts added, the value of the deepest search kept.
    ///
    /// # Errors
    /// On disk, a line of the entries read that cannot be read, or the file.
    pub fn probe(
        &mut self,
        key: &str,
        ply: Option<u32>,
    ) -> Result<Option<Vec<BookMove>>, BookError> {
        let found: Entries = match &mut self.store {
            Store::Memory(map) => map.get(key).cloned().unwrap_or_default(),
            Store::Disk(disk) => disk.find(key)?,
        };
        let mut merged: Vec<BookMove> = Vec::new();
        for (entry_ply, moves) in found {
            if ply.is_some() && entry_ply.is_some() && entry_ply != ply {
                continue;
            }
            for m in moves {
                match merged.iter_mut().find(|k| k.mv == m.mv) {
                    Some(k) => {
                        let count = k.count.saturating_add(m.count);
                        if m.depth > k.depth {
                            *k = m;
                        }
                        k.count = count;
                    }
                    None => merged.push(m),
                }
            }
        }
        Ok(if merged.is_empty() { None } else { Some(merged) })
    }
}

/// Every entry of a book's text, in the file's order: (position key, move
/// number, moves).
type Parsed = (String, Option<u32>, Vec<BookMove>);

fn read_entries(text: &str) -> Result<Vec<Parsed>, BookError> {
    let mut entries: Vec<Parsed> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let at = i as u64 + 1;
        let line = line.trim();
        if i == 0 && !(line.is_empty() || line.starts_with('#') || line.starts_with("sfen ")) {
            return Err(BookError::NotABook(line.to_string()));
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(sfen) = line.strip_prefix("sfen ") {
            let (key, ply) = split_ply(sfen)
                .ok_or_else(|| BookError::BadPosition { at, text: sfen.to_string() })?;
            entries.push((key, ply, Vec::new()));
            continue;
        }
        let m = parse_move_line(line).map_err(|error| BookError::Line { at, error })?;
        match entries.last_mut() {
            Some(e) => e.2.push(m),
            None => return Err(BookError::MoveBeforePosition { at }),
        }
    }
    Ok(entries)
}

/// Reads a whole book into entries, in the file's order (for `kyobo book`'s
/// commands that rewrite a book).
///
/// # Errors
/// As [`Book::open`] in memory.
pub fn read_book(path: &Path) -> Result<Vec<Entry>, BookError> {
    let bytes =
        std::fs::read(path).map_err(|e| BookError::Io(format!("{}: {e}", path.display())))?;
    let text = String::from_utf8_lossy(&bytes);
    Ok(read_entries(&text)?
        .into_iter()
        .map(|(key, ply, moves)| Entry {
            sfen: match ply {
                Some(n) => format!("{key} {n}"),
                None => key,
            },
            moves,
        })
        .collect())
}

/// A sorted book searched in place.
struct DiskBook {
    file: BufReader<File>,
    len: u64,
}

/// An I/O error on disk, told apart so that the path can be added.
enum DiskError {
    Io(std::io::Error),
    Book(BookError),
}

impl DiskError {
    fn or_io(self, path: &Path) -> BookError {
        match self {
            DiskError::Io(e) => BookError::Io(format!("{}: {e}", path.display())),
            DiskError::Book(b) => b,
        }
    }
}

impl From<std::io::Error> for DiskError {
    fn from(e: std::io::Error) -> Self {
        DiskError::Io(e)
    }
}

/// Entries whose order is checked at each end of a file opened on disk.
const ORDER_CHECKED: usize = 256;

impl DiskBook {
    /// The line starting at byte `at` (without its end of line) and where the
    /// next one starts; `None` at the end of the file.
    fn line_at(&mut self, at: u64) -> std::io::Result<Option<(String, u64)>> {
        self.file.seek(SeekFrom::Start(at))?;
        let mut buf = Vec::new();
        let n = self.file.read_until(b'\n', &mut buf)?;
        if n == 0 {
            return Ok(None);
        }
        let text = String::from_utf8_lossy(&buf).trim_end_matches(['\n', '\r']).to_string();
        Ok(Some((text, at + n as u64)))
    }

    /// The start of the first line that starts at or after byte `at`.
    fn line_start_from(&mut self, at: u64) -> std::io::Result<u64> {
        if at == 0 {
            return Ok(0);
        }
        self.file.seek(SeekFrom::Start(at - 1))?;
        let mut skipped = Vec::new();
        let n = self.file.read_until(b'\n', &mut skipped)?;
        Ok(at - 1 + n as u64)
    }

    /// The first `sfen` line starting in `[at, limit)`: its start, the next
    /// line's start, its key and move number.
    fn entry_from(&mut self, at: u64, limit: u64) -> Result<Option<EntryStart>, DiskError> {
        let mut start = self.line_start_from(at)?;
        while start < limit {
            let Some((line, next)) = self.line_at(start)? else {
                return Ok(None);
            };
            if let Some(sfen) = line.trim().strip_prefix("sfen ") {
                let (key, ply) = split_ply(sfen).ok_or_else(|| {
                    DiskError::Book(BookError::BadPosition { at: start, text: sfen.to_string() })
                })?;
                return Ok(Some((start, next, key, ply)));
            }
            start = next;
        }
        Ok(None)
    }

    /// The move lines that follow an entry's `sfen` line, and where the next
    /// entry starts.
    fn moves_from(&mut self, mut at: u64) -> Result<(Vec<BookMove>, u64), DiskError> {
        let mut moves = Vec::new();
        while let Some((line, next)) = self.line_at(at)? {
            let line = line.trim();
            if line.starts_with("sfen ") {
                break;
            }
            if !line.is_empty() && !line.starts_with('#') {
                let m = parse_move_line(line)
                    .map_err(|error| DiskError::Book(BookError::Line { at, error }))?;
                moves.push(m);
            }
            at = next;
        }
        Ok((moves, at))
    }

    /// The entries of `key`, found by binary search for the first entry whose
    /// key is not less than it.
    fn find(&mut self, key: &str) -> Result<Entries, BookError> {
        self.find_inner(key).map_err(|e| match e {
            DiskError::Io(e) => BookError::Io(e.to_string()),
            DiskError::Book(b) => b,
        })
    }

    fn find_inner(&mut self, key: &str) -> Result<Entries, DiskError> {
        // Entries starting before `lo` have smaller keys; those starting at or
        // after `hi` have keys not smaller.
        let (mut lo, mut hi) = (0, self.len);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.entry_from(mid, hi)? {
                Some((start, _, entry_key, _)) if entry_key.as_bytes() < key.as_bytes() => {
                    lo = start + 1;
                }
                _ => hi = mid,
            }
        }
        let mut found = Vec::new();
        let mut at = lo;
        while let Some((_, next, entry_key, ply)) = self.entry_from(at, self.len)? {
            if entry_key != key {
                break;
            }
            let (moves, after) = self.moves_from(next)?;
            found.push((ply, moves));
            at = after;
        }
        Ok(found)
    }

    /// The first line that says anything must be a comment or a `sfen` line.
    fn check_start(&mut self) -> Result<(), DiskError> {
        let mut at = 0;
        while let Some((line, next)) = self.line_at(at)? {
            let line = line.trim();
            if line.is_empty() {
                at = next;
                continue;
            }
            if line.starts_with('#') || line.starts_with("sfen ") {
                return Ok(());
            }
            return Err(DiskError::Book(BookError::NotABook(line.to_string())));
        }
        Ok(())
    }

    /// The first and the last [`ORDER_CHECKED`] entries are in order (a file
    /// in another order fails here, not with lookups that miss).
    fn check_order(&mut self) -> Result<(), DiskError> {
        let mut keys = Vec::new();
        let mut at = 0;
        while keys.len() < ORDER_CHECKED {
            let Some((_, next, key, _)) = self.entry_from(at, self.len)? else { break };
            keys.push(key);
            at = next;
        }
        let mut at = self.len.saturating_sub(64 * 1024).max(at);
        let mut tail = 0;
        while tail < ORDER_CHECKED {
            let Some((_, next, key, _)) = self.entry_from(at, self.len)? else { break };
            keys.push(key);
            at = next;
            tail += 1;
        }
        for pair in keys.windows(2) {
            if pair[0].as_bytes() > pair[1].as_bytes() {
                return Err(DiskError::Book(BookError::Unsorted(pair[1].clone())));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// Writes `text` as the book `name` in a scratch folder of the calling test's.
    fn temp_book(dir: &testdata::ScratchDir, name: &str, text: &str) -> std::path::PathBuf {
        let path = dir.join(name);
        std::fs::File::create(&path).unwrap().write_all(text.as_bytes()).unwrap();
        path
    }

    const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
    /// Keys that sort after START (`w` > `b`), before it (`9` < `l`), and after AFTER.
    const AFTER: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w -";
    const BEFORE_ALL: &str = "9/9/9/9/4k4/9/9/9/4K4 b -";
    const AFTER_ALL: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w P";

    #[test]
    fn disk_and_memory_agree_on_a_small_book() {
        let dir = testdata::ScratchDir::new("book-unit");
        let text = format!(
            "#YANEURAOU-DB2016 1.00\nsfen {START} 1\n7g7f 3c3d 30 10 5\n2g2f none 20 10 3\n\
             sfen {START} 3\n5g5f none 0 0 1\n7g7f none 10 12 2\nsfen {AFTER} 1\n1g1f\n"
        );
        let path = temp_book(&dir, "small.db", &text);
        for on_disk in [true, false] {
            let mut book = Book::open(&path, on_disk).unwrap();
            let at1 = book.probe(START, Some(1)).unwrap().unwrap();
            assert_eq!(at1.len(), 2);
            assert_eq!(at1[0].count, 5);
            let all = book.probe(START, None).unwrap().unwrap();
            let f = all.iter().find(|m| m.mv == "7g7f").unwrap();
            assert_eq!((f.count, f.depth, f.value), (7, 12, 10), "merged, deepest kept");
            assert_eq!(all.len(), 3);
            assert_eq!(book.probe(START, Some(2)).unwrap(), None);
            assert_eq!(book.probe(AFTER, Some(1)).unwrap().unwrap()[0].mv, "1g1f");
            assert_eq!(book.probe(BEFORE_ALL, None).unwrap(), None);
            assert_eq!(book.probe(AFTER_ALL, None).unwrap(), None);
        }
    }

    #[test]
    fn typed_errors() {
        let dir = testdata::ScratchDir::new("book-errors");
        let p = temp_book(&dir, "bad1.db", "hello\n");
        assert!(matches!(Book::open(&p, true), Err(BookError::NotABook(_))));
        assert!(matches!(Book::open(&p, false), Err(BookError::NotABook(_))));
        let p = temp_book(&dir, "bad2.db", "#x\n7g7f\n");
        assert!(matches!(Book::open(&p, false), Err(BookError::MoveBeforePosition { at: 2 })));
        let p = temp_book(&dir, "bad3.db", "sfen b -\n");
        assert!(matches!(Book::open(&p, false), Err(BookError::BadPosition { .. })));
        let p = temp_book(&dir, "bad3b.db", "sfen zzz b - 1\n1g1f\n");
        assert!(matches!(Book::open(&p, false), Err(BookError::BadPosition { .. })));
        let x = "9/9/9/9/4k4/9/9/9/4K4 b -";
        let y = "9/9/9/9/4k4/9/9/9/4K4 w -";
        let p = temp_book(&dir, "bad4.db", &format!("sfen {x} 1\n7g7f none many\n"));
        assert!(matches!(Book::open(&p, false), Err(BookError::Line { at: 2, .. })));
        let mut disk = Book::open(&p, true).unwrap();
        assert!(matches!(disk.probe(x, None), Err(BookError::Line { .. })));
        let p = temp_book(&dir, "bad5.db", &format!("sfen {y} 1\n1g1f\nsfen {x} 1\n1g1f\n"));
        assert!(matches!(Book::open(&p, true), Err(BookError::Unsorted(_))));
        assert!(Book::open(&p, false).is_ok());
        let missing = dir.join("no-such-book.db");
        assert!(matches!(Book::open(&missing, true), Err(BookError::Io(_))));
    }
}
