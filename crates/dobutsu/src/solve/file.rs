//! The database file (the layout is in the module documentation of
//! [`super`]): written and read as a stream, checked by a CRC-32.

use super::bits::{blocks_for, RankBits, BLOCK_BITS};
use super::index::Universe;
use super::Database;
use crate::position::Position;
use std::fmt;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"KYOBODOB";
const VERSION: u32 = 1;
const HEADER: usize = 72;

/// Everything that can be wrong with a database file.
#[derive(Debug)]
pub enum DbError {
    /// There is no file at the path.
    Missing(PathBuf),
    /// Reading or writing failed.
    Io(io::Error),
    /// The file does not start with the magic bytes `KYOBODOB`.
    NotADatabase,
    /// A format version this program does not read.
    Version(u32),
    /// The file ends early.
    Truncated,
    /// The header's fields contradict each other or the format; or bytes
    /// follow the checksum.
    Malformed(String),
    /// The contents do not match the checksum.
    Checksum { stored: u32, computed: u32 },
}

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DbError::Missing(p) => write!(f, "no database at {}", p.display()),
            DbError::Io(e) => write!(f, "database i/o: {e}"),
            DbError::NotADatabase => f.write_str("not a Kyobo Dobutsu database (bad magic)"),
            DbError::Version(v) => write!(f, "database format version {v}, expected {VERSION}"),
            DbError::Truncated => f.write_str("the database file is truncated"),
            DbError::Malformed(s) => write!(f, "malformed database: {s}"),
            DbError::Checksum { stored, computed } => write!(
                f,
                "database checksum mismatch (stored {stored:08x}, computed {computed:08x}): the file is corrupt"
            ),
        }
    }
}

impl std::error::Error for DbError {}

impl From<io::Error> for DbError {
    fn from(e: io::Error) -> DbError {
        if e.kind() == io::ErrorKind::UnexpectedEof {
            DbError::Truncated
        } else {
            DbError::Io(e)
        }
    }
}

/// A writer that feeds a CRC as it goes.
struct Crc<W> {
    inner: W,
    crc: crc32fast::Hasher,
}

impl<W: Write> Write for Crc<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// A reader that feeds a CRC as it goes.
struct CrcRead<R> {
    inner: R,
    crc: crc32fast::Hasher,
}

impl<R: Read> Read for CrcRead<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }
}

fn le64(b: &[u8]) -> u64 {
    u64::from_le_bytes(b[..8].try_into().expect("8 bytes"))
}

impl Database {
    /// Writes the database to `out` (see the module documentation for the
    /// layout).
    pub fn write_to(&self, out: impl Write) -> io::Result<()> {
        let mut w = Crc { inner: out, crc: crc32fast::Hasher::new() };
        let mut header = [0u8; HEADER];
        header[0..8].copy_from_slice(MAGIC);
        header[8..12].copy_from_slice(&VERSION.to_le_bytes());
        header[12..16].copy_from_slice(&BLOCK_BITS.to_le_bytes());
        header[16..19].copy_from_slice(&self.universe.totals());
        header[24..32].copy_from_slice(&self.root.raw().to_le_bytes());
        header[32..40].copy_from_slice(&u64::from(self.universe.size()).to_le_bytes());
        header[40..48].copy_from_slice(&self.bits.len().to_le_bytes());
        header[48..56].copy_from_slice(&self.over[0].to_le_bytes());
        header[56..64].copy_from_slice(&self.over[1].to_le_bytes());
        let words = blocks_for(self.universe.size()) as u64 * 7;
        header[64..72].copy_from_slice(&words.to_le_bytes());
        w.write_all(&header)?;
        let mut buf = Vec::with_capacity(1 << 16);
        for word in self.bits.words() {
            buf.extend_from_slice(&word.to_le_bytes());
            if buf.len() >= 1 << 16 {
                w.write_all(&buf)?;
                buf.clear();
            }
        }
        w.write_all(&buf)?;
        buf.clear();
        let mut left = self.bits.len();
        for word in &self.values {
            let n = left.min(8) as usize;
            buf.extend_from_slice(&word.to_le_bytes()[..n]);
            left -= n as u64;
            if buf.len() >= 1 << 16 {
                w.write_all(&buf)?;
                buf.clear();
            }
        }
        w.write_all(&buf)?;
        let crc = w.crc.clone().finalize();
        w.inner.write_all(&crc.to_le_bytes())?;
        w.inner.flush()
    }

    /// Writes the database to the file `path` (replacing it).
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), DbError> {
        let file = std::fs::File::create(path.as_ref())?;
        self.write_to(BufWriter::with_capacity(1 << 20, file))?;
        Ok(())
    }

    /// Reads a database written by [`Database::write_to`], checking
    /// everything: the magic, the version, the header's consistency, the
    /// length, and the checksum.
    pub fn read_from(input: impl Read) -> Result<Database, DbError> {
        let mut r = CrcRead { inner: input, crc: crc32fast::Hasher::new() };
        let mut header = [0u8; HEADER];
        r.read_exact(&mut header)?;
        if &header[0..8] != MAGIC {
            return Err(DbError::NotADatabase);
        }
        let version = u32::from_le_bytes(header[8..12].try_into().expect("4 bytes"));
        if version != VERSION {
            return Err(DbError::Version(version));
        }
        let malformed = |s: &str| Err(DbError::Malformed(s.to_string()));
        if u32::from_le_bytes(header[12..16].try_into().expect("4 bytes")) != BLOCK_BITS {
            return malformed("block size");
        }
        if header[19..24].iter().any(|&b| b != 0) {
            return malformed("non-zero padding");
        }
        let totals = [header[16], header[17], header[18]];
        let Ok(universe) = Universe::new(totals) else {
            return malformed("piece totals");
        };
        let Some(root) = Position::from_raw(le64(&header[24..])) else {
            return malformed("root position");
        };
        if u64::from(universe.size()) != le64(&header[32..]) {
            return malformed("universe size");
        }
        let len = le64(&header[40..]);
        let over = [le64(&header[48..]), le64(&header[56..])];
        let words = le64(&header[64..]);
        if over.iter().any(|&n| n > u64::from(universe.size())) {
            return malformed("counts");
        }
        if words != blocks_for(universe.size()) as u64 * 7 || len > u64::from(universe.size()) {
            return malformed("sizes");
        }
        let mut bit_words = vec![0u64; words as usize];
        let mut buf = vec![0u8; 1 << 16];
        let mut at = 0;
        while at < bit_words.len() {
            let n = (bit_words.len() - at).min(buf.len() / 8);
            r.read_exact(&mut buf[..8 * n])?;
            for (i, chunk) in buf[..8 * n].chunks_exact(8).enumerate() {
                bit_words[at + i] = le64(chunk);
            }
            at += n;
        }
        let mut values = vec![0u64; len.div_ceil(8) as usize];
        let mut left = len;
        let mut at = 0;
        while left > 0 {
            let n = left.min(buf.len() as u64) as usize;
            r.read_exact(&mut buf[..n])?;
            for chunk in buf[..n].chunks(8) {
                let mut word = [0u8; 8];
                word[..chunk.len()].copy_from_slice(chunk);
                values[at] = u64::from_le_bytes(word);
                at += 1;
            }
            left -= n as u64;
        }
        let computed = r.crc.clone().finalize();
        let mut stored = [0u8; 4];
        r.inner.read_exact(&mut stored)?;
        let stored = u32::from_le_bytes(stored);
        if stored != computed {
            return Err(DbError::Checksum { stored, computed });
        }
        if r.inner.read(&mut [0u8; 1])? != 0 {
            return malformed("bytes after the checksum");
        }
        let bits = RankBits::from_words(universe.size(), &bit_words);
        drop(bit_words);
        if bits.len() != len {
            return malformed("the bit set's size and the header disagree");
        }
        let db = Database { universe, root, bits, values, over };
        if db.value(root).is_none() {
            return malformed("the root is not in the set");
        }
        Ok(db)
    }

    /// Reads the database file `path`: [`DbError::Missing`] when there is
    /// none.
    pub fn load(path: impl AsRef<Path>) -> Result<Database, DbError> {
        let path = path.as_ref();
        let file = std::fs::File::open(path).map_err(|e| {
            if e.kind() == io::ErrorKind::NotFound {
                DbError::Missing(path.to_path_buf())
            } else {
                DbError::Io(e)
            }
        })?;
        Database::read_from(BufReader::with_capacity(1 << 20, file))
    }
}
