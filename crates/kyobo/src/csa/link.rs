//! The client's two links — the TCP connection to the server and the pipes to the
//! USI engine — as one stream of [`Event`]s, and the transcript of what went over
//! the server link.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream, ToSocketAddrs};
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

/// The longest line read from the server or the engine; the rest of a longer line
/// is read and dropped.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Something that came over a link. Each connection and each engine process has
/// its own number, so that lines of one that has been replaced are told apart.
#[derive(Debug)]
pub enum Event {
    Server { conn: u64, line: String },
    ServerClosed { conn: u64, reason: String },
    Engine { gen: u64, line: String },
    EngineGone { gen: u64 },
}

/// Reads `input` line by line on its own thread, handing each line (without its
/// end of line, invalid UTF-8 replaced) to `line`, then calls `end` with why it
/// stopped. A line cut by the end of input is still handed over.
pub fn spawn_line_reader<R, F, G>(input: R, line: F, end: G)
where
    R: Read + Send + 'static,
    F: Fn(String) -> bool + Send + 'static,
    G: FnOnce(String) + Send + 'static,
{
    std::thread::spawn(move || {
        let mut reader = BufReader::new(input);
        let mut buf = Vec::new();
        let reason = loop {
            buf.clear();
            match read_line_capped(&mut reader, &mut buf) {
                Ok(0) => break "closed by the other side".to_string(),
                Ok(_) => {
                    let text = String::from_utf8_lossy(&buf);
                    let text = text.trim_end_matches(['\n', '\r']).to_string();
                    if !line(text) {
                        return;
                    }
                }
                Err(e) => break e.to_string(),
            }
        };
        end(reason);
    });
}

/// One line into `buf` (at most [`MAX_LINE_BYTES`] kept), as `read_until`.
fn read_line_capped(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<usize> {
    let mut total = 0;
    loop {
        let (done, used) = {
            let chunk = match reader.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                return Ok(total);
            }
            let (done, used) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (true, i + 1),
                None => (false, chunk.len()),
            };
            let room = MAX_LINE_BYTES.saturating_sub(buf.len());
            buf.extend_from_slice(&chunk[..used.min(room)]);
            (done, used)
        };
        reader.consume(used);
        total += used;
        if done {
            return Ok(total);
        }
    }
}

/// A connection to the CSA server: lines go out through [`Connection::send`],
/// lines in arrive as [`Event::Server`].
pub struct Connection {
    pub id: u64,
    stream: TcpStream,
}

impl Connection {
    /// Connects to `host:port` (each address the name resolves to, `timeout` each)
    /// and starts reading.
    pub fn open(
        host: &str,
        port: u16,
        timeout: Duration,
        id: u64,
        tx: Sender<Event>,
    ) -> std::io::Result<Connection> {
        let mut last = None;
        let addrs = (host, port).to_socket_addrs()?;
        for addr in addrs {
            match TcpStream::connect_timeout(&addr, timeout) {
                Ok(stream) => {
                    let _ = stream.set_nodelay(true);
                    let _ = stream.set_write_timeout(Some(Duration::from_secs(20)));
                    let reader = stream.try_clone()?;
                    let tx_end = tx.clone();
                    spawn_line_reader(
                        reader,
                        move |line| tx.send(Event::Server { conn: id, line }).is_ok(),
                        move |reason| {
                            let _ = tx_end.send(Event::ServerClosed { conn: id, reason });
                        },
                    );
                    return Ok(Connection { id, stream });
                }
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "no address")))
    }

    /// Sends one line (the end of line is added).
    pub fn send(&mut self, line: &str) -> std::io::Result<()> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.stream.write_all(&bytes)?;
        self.stream.flush()
    }

    /// Closes both directions; the reader then reports the connection closed.
    pub fn close(&self) {
        let _ = self.stream.shutdown(Shutdown::Both);
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.close();
    }
}

/// The transcript of the server link: `[seconds] > line` for lines sent,
/// `[seconds] < line` for lines received, `[seconds] # note` for the client's
/// notes. The password never appears: it is replaced by `*****` wherever it
/// would, and `LOGIN` lines have their password field replaced whatever it is.
pub struct Transcript {
    file: Option<File>,
    start: Instant,
    secret: String,
}

impl Transcript {
    pub fn new(file: Option<File>, secret: &str) -> Transcript {
        Transcript { file, start: Instant::now(), secret: secret.to_string() }
    }

    /// `line` with the secret taken out.
    pub fn redact(&self, line: &str) -> String {
        let mut text = line.to_string();
        if let Some(rest) = text.strip_prefix("LOGIN ") {
            let mut parts: Vec<&str> = rest.split(' ').collect();
            if parts.len() >= 2 {
                parts[1] = "*****";
            }
            text = format!("LOGIN {}", parts.join(" "));
        }
        if !self.secret.is_empty() {
            text = text.replace(&self.secret, "*****");
        }
        text
    }

    fn write(&mut self, mark: char, line: &str) {
        let text = self.redact(line);
        let t = self.start.elapsed().as_secs_f64();
        if let Some(f) = self.file.as_mut() {
            let _ = writeln!(f, "[{t:9.3}] {mark} {text}");
        }
    }

    pub fn sent(&mut self, line: &str) {
        self.write('>', line);
    }

    pub fn received(&mut self, line: &str) {
        self.write('<', line);
    }

    pub fn note(&mut self, text: &str) {
        self.write('#', text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_password_never_reaches_the_transcript() {
        let t = Transcript::new(None, "floodgate-300-10F,s3cret");
        assert_eq!(t.redact("LOGIN kyobo floodgate-300-10F,s3cret"), "LOGIN kyobo *****");
        assert_eq!(t.redact("LOGIN kyobo other x1"), "LOGIN kyobo ***** x1");
        assert_eq!(t.redact("LOGIN:kyobo OK"), "LOGIN:kyobo OK");
        assert_eq!(t.redact("##[ERROR] floodgate-300-10F,s3cret"), "##[ERROR] *****");
    }

    #[test]
    fn long_lines_are_cut_and_the_rest_read() {
        let mut text = vec![b'x'; MAX_LINE_BYTES * 2];
        text.extend_from_slice(b"\nnext\n");
        let mut reader = BufReader::new(&text[..]);
        let mut buf = Vec::new();
        assert_eq!(read_line_capped(&mut reader, &mut buf).unwrap(), MAX_LINE_BYTES * 2 + 1);
        assert_eq!(buf.len(), MAX_LINE_BYTES);
        buf.clear();
        read_line_capped(&mut reader, &mut buf).unwrap();
        assert_eq!(buf, b"next\n");
    }
}
