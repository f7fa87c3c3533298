//! `kyobo convert IN [OUT]`: a game record from one format to another (the
//! `records` crate does the reading and writing; every move is checked).

use clap::{Args, ValueEnum};
use records::{Format, Record, TextEncoding};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// A record format named on the command line.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum FormatArg {
    /// CSA (written as V3.0).
    Csa,
    /// KIF.
    Kif,
    /// KI2 (moves in Japanese notation).
    Ki2,
    /// A USI `position` line.
    Usi,
    /// JSON Kifu Format.
    Jkf,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Csa => Format::Csa,
            FormatArg::Kif => Format::Kif,
            FormatArg::Ki2 => Format::Ki2,
            FormatArg::Usi => Format::Usi,
            FormatArg::Jkf => Format::Jkf,
        }
    }
}

#[derive(Args)]
pub struct ConvertArgs {
    /// The record to read, `-` for standard input: CSA, KIF/KIFU, KI2, USI/SFEN or
    /// JKF (by the extension, or else by the content), in UTF-8 or Shift_JIS.
    input: PathBuf,
    /// The file to write, in the format and encoding its extension names: `.csa`
    /// (CSA V3.0), `.kif` (KIF, Shift_JIS), `.kifu` (KIF, UTF-8), `.ki2`
    /// (Shift_JIS), `.ki2u`, `.jkf`/`.json`, `.usi`/`.sfen`. Absent or `-`:
    /// standard output, in UTF-8 (USI unless --to says otherwise).
    output: Option<PathBuf>,
    /// The input's format, whatever its extension and content (any case).
    #[arg(long, value_enum, ignore_case = true)]
    from: Option<FormatArg>,
    /// The output's format, whatever its extension (any case).
    #[arg(long, value_enum, ignore_case = true)]
    to: Option<FormatArg>,
    /// Print the main line's moves in Japanese notation (`▲７六歩 △３四歩 …`,
    /// one line) where USI moves would be printed: standard output, USI format.
    #[arg(long)]
    japanese: bool,
}

/// Where the record goes.
fn output_path(args: &ConvertArgs) -> Option<&Path> {
    args.output.as_deref().filter(|p| p.as_os_str() != "-")
}

/// The extension of `path` as a record format and encoding, if it names one.
fn by_extension(path: &Path) -> Option<(Format, TextEncoding)> {
    path.extension().and_then(|e| e.to_str()).and_then(Format::from_extension)
}

/// The option value that names a format (`--from csa`).
fn flag(format: Format) -> &'static str {
    match format {
        Format::Csa => "csa",
        Format::Kif => "kif",
        Format::Ki2 => "ki2",
        Format::Usi => "usi",
        Format::Jkf => "jkf",
    }
}

/// The advice for a record that `format` could not read but whose text looks like
/// another format (a CSA record saved as `.kif`).
fn other_format_hint(text: &str, format: Format) -> Option<String> {
    let seen = Format::detect(text).filter(|&f| f != format)?;
    let name = flag(seen).to_uppercase();
    Some(format!("; the text looks like {name}: try --from {}", flag(seen)))
}

/// Reads the input record; errors name the input and, for a bad record, the line.
/// A CSA file of several games gives its first, with a warning.
fn read_input(args: &ConvertArgs) -> Result<Record, String> {
    let stdin = args.input.as_os_str() == "-";
    let name = if stdin { "standard input".to_string() } else { args.input.display().to_string() };
    let mut bytes = Vec::new();
    let io = if stdin {
        std::io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::read(&args.input).map(|b| bytes = b)
    };
    io.map_err(|e| format!("{name}: {e}"))?;
    let (text, _) = records::decode(&bytes).map_err(|e| format!("{name}: {e}"))?;
    let format = match args.from {
        Some(f) => Format::from(f),
        None => (!stdin)
            .then(|| by_extension(&args.input).map(|(f, _)| f))
            .flatten()
            .or_else(|| Format::detect(&text))
            // A blank text has no format to tell, but every reader calls it empty.
            .or(text.chars().all(|c| c.is_whitespace() || c == '\u{feff}').then_some(Format::Usi))
            .ok_or_else(|| format!("{name}: cannot tell the record's format (try --from)"))?,
    };
    let record = records::read(&text, format).map_err(|e| {
        let hint = other_format_hint(&text, format).unwrap_or_default();
        format!("{name}: {e}{hint}")
    })?;
    if format == Format::Csa {
        let count = records::csa_record_count(&text);
        if count > 1 {
            eprintln!("warning: {name} holds {count} records; converting the first");
        }
    }
    Ok(record)
}

/// The extension that holds `format` in UTF-8.
fn utf8_extension(format: Format) -> &'static str {
    match format {
        Format::Kif => "kifu",
        Format::Ki2 => "ki2u",
        f => flag(f),
    }
}

/// The error for a character Shift_JIS cannot hold: the line of the output that
/// holds it, and the UTF-8 file to write instead.
fn unencodable(path: &Path, format: Format, text: &str, c: char) -> String {
    let (n, line) = text.lines().enumerate().find(|(_, l)| l.contains(c)).unwrap_or((0, ""));
    let instead = path.with_extension(utf8_extension(format));
    format!(
        "{}: line {}: '{line}' holds '{c}', which Shift_JIS cannot hold; write {} instead (UTF-8)",
        path.display(),
        n + 1,
        instead.display()
    )
}

/// Writes `text` on standard output; a reader that has gone away ends quietly.
fn print(text: &str) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        other => other.map_err(|e| format!("standard output: {e}")),
    }
}

/// Converts the record: reads `input`, writes `output` (or prints it).
///
/// # Errors
/// A message for an unreadable or empty input (with the line of a bad record), an
/// output whose format is unknown, a character Shift_JIS cannot hold, or an I/O
/// error.
pub fn run(args: &ConvertArgs) -> Result<(), String> {
    let path = output_path(args);
    if args.japanese && path.is_some() {
        return Err("--japanese prints moves: give no output file".into());
    }
    if args.japanese && args.to.is_some_and(|f| !matches!(f, FormatArg::Usi)) {
        return Err("--japanese replaces USI moves: it goes with --to usi only".into());
    }
    let record = read_input(args)?;
    let Some(path) = path else {
        if args.japanese {
            let line = records::japanese_line(&record.start_position(), &record.main_line(), None);
            return print(&format!("{line}\n"));
        }
        let format = args.to.map_or(Format::Usi, Format::from);
        return print(&records::write(&record, format));
    };
    let ext = by_extension(path);
    let format = args.to.map(Format::from).or(ext.map(|(f, _)| f)).ok_or_else(|| {
        format!("{}: cannot tell the format from the extension (try --to)", path.display())
    })?;
    let encoding = ext.map_or(TextEncoding::Utf8, |(_, e)| e);
    let text = records::write(&record, format);
    let bytes =
        records::encode(&text, encoding).map_err(|c| unencodable(path, format, &text, c))?;
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}
