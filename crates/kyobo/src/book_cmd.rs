//! `kyobo book`: opening books in YaneuraOu's text format — built from game
//! records, given Kyobo's search values, sorted, and looked into.

use book::{read_book, write_book, Book, BookError, Builder, Entry};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use records::Format;
use search::engine::Signals;
use search::{Engine, Limits};
use shogi::{Move, Position};
use shogi_game::ShogiGame;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Subcommand)]
enum BookCommand {
    /// Make a book from game records: USI/SFEN lists (one game a line, as
    /// `startpos moves …`), or KIF, KI2, CSA (several games a file too) and JKF
    /// records; a folder stands for every file in it.
    Build(BuildArgs),
    /// Give every book move Kyobo's search value and depth (one MultiPV search
    /// of each position over its book moves).
    Extend(ExtendArgs),
    /// Write a book sorted by SFEN (what reading it on disk needs).
    Sort {
        /// The book to read.
        input: PathBuf,
        /// The sorted book to write.
        output: PathBuf,
    },
    /// The book moves of one position, and how long finding them took.
    Probe(ProbeArgs),
}

#[derive(Args)]
pub struct BuildArgs {
    /// Record files or folders.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The book to write.
    #[arg(long)]
    out: PathBuf,
    /// Positions up to this move number (1: only the first move of each game).
    #[arg(long, default_value_t = 32)]
    depth: u32,
    /// Keep a move only if it was played at least this often.
    #[arg(long, default_value_t = 1)]
    min_count: u64,
    /// Count only the moves of the side that won (games without a result, such
    /// as USI lists, are left out).
    #[arg(long)]
    winner_only: bool,
}

#[derive(Args)]
pub struct ExtendArgs {
    /// The book to read.
    book: PathBuf,
    /// The book to write (may be the same file).
    #[arg(long)]
    out: PathBuf,
    /// Search depth for each position.
    #[arg(long, default_value_t = 10)]
    depth: i32,
    /// Search each position this long (milliseconds) instead of to a depth.
    #[arg(long)]
    movetime: Option<u64>,
    /// Only positions up to this move number (the rest are kept as they are).
    #[arg(long)]
    max_ply: Option<u32>,
    /// Leave moves that already have a depth at least this as they are.
    #[arg(long)]
    keep_depth: Option<i32>,
    /// Hash table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
}

#[derive(Args)]
pub struct ProbeArgs {
    /// The book.
    book: PathBuf,
    /// The position: an SFEN (a leading `sfen ` is allowed) or `startpos`, the
    /// default.
    #[arg(long)]
    sfen: Option<String>,
    /// Moves played from it (USI).
    #[arg(long, num_args = 1..)]
    moves: Vec<String>,
    /// Read the whole book into memory instead of searching it on disk.
    #[arg(long)]
    in_memory: bool,
    /// Look the position up whatever its move number.
    #[arg(long)]
    ignore_ply: bool,
}

pub fn run(args: &BookArgs) -> Result<(), String> {
    match &args.command {
        BookCommand::Build(a) => build(a),
        BookCommand::Extend(a) => extend(a),
        BookCommand::Sort { input, output } => {
            let entries = read_book(input).map_err(|e| format!("{}: {e}", input.display()))?;
            let n = entries.len();
            write(output, entries)?;
            crate::print_line(&format!("{n} positions written to {}", output.display()));
            Ok(())
        }
        BookCommand::Probe(a) => probe(a),
    }
}

fn write(path: &Path, entries: Vec<Entry>) -> Result<(), String> {
    let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = std::io::BufWriter::new(file);
    write_book(entries, &mut out).map_err(|e| format!("{}: {e}", path.display()))?;
    std::io::Write::flush(&mut out).map_err(|e| format!("{}: {e}", path.display()))
}

/// Every file named, folders opened (one level and below), in name order.
fn files_of(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut inner: Vec<PathBuf> = std::fs::read_dir(input)
                .map_err(|e| format!("{}: {e}", input.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .collect();
            inner.sort();
            files.extend(files_of(&inner)?);
        } else {
            files.push(input.clone());
        }
    }
    Ok(files)
}

/// The files named in a message: all of them when they are few.
fn file_names(files: &[PathBuf]) -> String {
    const SHOWN: usize = 3;
    let mut names: Vec<String> =
        files.iter().take(SHOWN).map(|f| f.display().to_string()).collect();
    if files.len() > SHOWN {
        names.push(format!("{} more", files.len() - SHOWN));
    }
    names.join(", ")
}

/// Whether a file is read as a list of USI games, one a line.
fn is_usi_list(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref(),
        Some("sfen" | "usi" | "txt")
    )
}

fn build(a: &BuildArgs) -> Result<(), String> {
    let mut builder = Builder::new(a.depth, a.winner_only);
    let mut unreadable = 0u64;
    let files = files_of(&a.inputs)?;
    for path in &files {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        if is_usi_list(path) {
            let text = String::from_utf8_lossy(&bytes);
            for (i, line) in text.lines().enumerate() {
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                match records::read_usi(line) {
                    Ok(r) => {
                        builder.add_game(&r.start_position(), &r.main_line(), r.winner());
                    }
                    Err(e) => {
                        unreadable += 1;
                        eprintln!("warning: {}:{}: {}", path.display(), i + 1, e.error);
                    }
                }
            }
            continue;
        }
        let (text, _) = records::decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        let format = path
            .extension()
            .and_then(|e| e.to_str())
            .and_then(Format::from_extension)
            .map(|(f, _)| f)
            .or_else(|| Format::detect(&text));
        let results = match format {
            Some(Format::Csa) => records::read_csa_all(&text),
            Some(f) => vec![records::read(&text, f)],
            None => {
                unreadable += 1;
                eprintln!("warning: {}: not a record Kyobo reads", path.display());
                continue;
            }
        };
        for result in results {
            match result {
                Ok(r) => {
                    builder.add_game(&r.start_position(), &r.main_line(), r.winner());
                }
                Err(e) => {
                    unreadable += 1;
                    eprintln!("warning: {}: {}", path.display(), e.error);
                }
            }
        }
    }
    let summary = builder.summary();
    // An empty book is refused rather than written: it would replace a good one
    // under the same name and be played as "no book move" without a word.
    if summary.games == 0 {
        let names = file_names(&files);
        return Err(if files.is_empty() {
            let inputs: Vec<String> = a.inputs.iter().map(|i| i.display().to_string()).collect();
            format!("no record files in {}; no book written", inputs.join(", "))
        } else if summary.without_winner > 0 {
            format!(
                "no game with a winner in {names} ({} without one, left out by \
                 --winner-only); no book written",
                summary.without_winner
            )
        } else {
            format!(
                "no game could be read from {names} ({unreadable} unreadable, see above): \
                 give KIF, KI2, CSA or JKF records, or USI lists (.sfen, .usi, .txt) of \
                 `startpos moves …` lines; no book written"
            )
        });
    }
    let entries = builder.finish(a.min_count);
    if entries.is_empty() {
        return Err(format!(
            "the book would be empty: {} games read from {}, {} moves counted, none played \
             at least --min-count {} times up to move --depth {}; no book written",
            summary.games,
            file_names(&files),
            summary.moves,
            a.min_count,
            a.depth
        ));
    }
    let (positions, moves) = (entries.len(), entries.iter().map(|e| e.moves.len()).sum::<usize>());
    write(&a.out, entries)?;
    crate::print_line(&format!(
        "{} games from {} files ({} without a winner left out, {} unreadable): \
         {positions} positions, {moves} book moves written to {}",
        summary.games,
        files.len(),
        summary.without_winner,
        unreadable,
        a.out.display()
    ));
    Ok(())
}

fn extend(a: &ExtendArgs) -> Result<(), String> {
    let mut entries = read_book(&a.book).map_err(|e| format!("{}: {e}", a.book.display()))?;
    let mut engine: Engine<ShogiGame> = Engine::new(1, 1);
    engine.try_set_hash_mb(a.hash).map_err(|e| format!("--hash {}: {e}", a.hash))?;
    let bar = ProgressBar::new(entries.len() as u64);
    let style = ProgressStyle::with_template("{bar:40} {pos}/{len} positions, {eta} left")
        .map_err(|e| e.to_string())?;
    bar.set_style(style);
    let (mut searched, mut illegal) = (0u64, 0u64);
    for entry in &mut entries {
        bar.inc(1);
        let Ok(pos) = Position::from_sfen(&entry.sfen) else {
            bar.println(format!("warning: not a position: sfen {}", entry.sfen));
            continue;
        };
        if a.max_ply.is_some_and(|max| pos.game_ply() > max) {
            continue;
        }
        let mut moves: Vec<(usize, Move)> = Vec::new();
        for (i, m) in entry.moves.iter().enumerate() {
            if a.keep_depth.is_some_and(|d| m.depth >= d) {
                continue;
            }
            match pos.parse_usi_move(&m.mv) {
                Ok(mv) => moves.push((i, mv)),
                Err(_) => illegal += 1,
            }
        }
        if moves.is_empty() {
            continue;
        }
        let among: Vec<Move> = moves.iter().map(|(_, m)| *m).collect();
        // With --movetime the search runs until a timer stops it: a timed search
        // stops at once on a single move (a position's only book move would get
        // a depth-1 value) and may stop early to save the clock.
        let limits = Limits {
            depth: if a.movetime.is_some() { None } else { Some(a.depth) },
            infinite: a.movetime.is_some(),
            multipv: among.len(),
            game_ply: pos.game_ply(),
            ..Limits::default()
        };
        let signals = Signals::new();
        let game = ShogiGame::new(pos);
        let result = std::thread::scope(|scope| {
            let (done, finished) = std::sync::mpsc::channel::<()>();
            if let Some(ms) = a.movetime {
                let signals = &signals;
                scope.spawn(move || {
                    if finished.recv_timeout(Duration::from_millis(ms)).is_err() {
                        signals.stop();
                    }
                });
            }
            let result = engine.search_among(&game, &among, &limits, &signals, &mut |_| {});
            let _ = done.send(());
            result
        });
        for root in &result.root_moves {
            let Some((i, _)) = moves.iter().find(|(_, m)| *m == root.mv) else { continue };
            let score = root.display_score();
            if score == -search::value::INFINITE {
                // A stopped search that never reached this move: left as it was.
                continue;
            }
            let book_move = &mut entry.moves[*i];
            book_move.value = score;
            book_move.depth = result.depth;
            if book_move.ponder.is_none() {
                book_move.ponder = root.pv.get(1).map(|m| m.to_usi());
            }
        }
        // Best first, as a reader of the book expects.
        entry.moves.sort_by(|x, y| y.value.cmp(&x.value).then_with(|| y.count.cmp(&x.count)));
        searched += 1;
    }
    bar.finish_and_clear();
    write(&a.out, entries)?;
    crate::print_line(&format!(
        "{searched} positions searched ({}), {illegal} illegal book moves left as they were; written to {}",
        match a.movetime {
            Some(ms) => format!("{ms} ms each"),
            None => format!("depth {}", a.depth),
        },
        a.out.display()
    ));
    Ok(())
}

/// Why `probe` cannot open a book; an unsorted one is answered with this
/// command's way round it, not the USI option's.
fn open_error(path: &Path, e: &BookError) -> String {
    match e {
        BookError::Unsorted(near) => format!(
            "{}: entries not sorted by SFEN (near '{}'), which searching it on disk needs: \
             add --in-memory, or sort it once with `kyobo book sort {} SORTED`",
            path.display(),
            book::entry::excerpt(near),
            path.display()
        ),
        // The reader names the file in these already.
        BookError::Io(_) => e.to_string(),
        e => format!("{}: {e}", path.display()),
    }
}

fn probe(a: &ProbeArgs) -> Result<(), String> {
    let mut pos = match &a.sfen {
        Some(sfen) => {
            Position::from_position_text(sfen).map_err(|e| format!("--sfen '{sfen}': {e}"))?
        }
        None => Position::startpos(),
    };
    for text in &a.moves {
        let m = pos.parse_usi_move(text).map_err(|e| format!("--moves {text}: {e}"))?;
        pos.do_move(m);
    }
    let start = Instant::now();
    let mut book = Book::open(&a.book, !a.in_memory).map_err(|e| open_error(&a.book, &e))?;
    let opened = start.elapsed();
    let (key, ply) = book::split_ply(&pos.to_sfen()).ok_or("the position has no SFEN")?;
    let start = Instant::now();
    let found = book
        .probe(&key, if a.ignore_ply { None } else { ply })
        .map_err(|e| format!("{}: {e}", a.book.display()))?;
    let probed = start.elapsed();
    crate::print_line(&format!("sfen {}", pos.to_sfen()));
    match found {
        None => crate::print_line("not in the book"),
        Some(moves) => {
            for m in moves {
                crate::print_line(&m.to_string());
            }
        }
    }
    crate::print_line(&format!(
        "opened in {:.3} ms, found in {:.3} ms",
        opened.as_secs_f64() * 1000.0,
        probed.as_secs_f64() * 1000.0
    ));
    Ok(())
}
