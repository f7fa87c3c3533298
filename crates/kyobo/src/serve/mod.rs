//! `kyobo serve`: a page to play and review in the browser, served on this
//! machine only (127.0.0.1) unless an address is named.
//!
//! The page (`page/`, compiled in) talks to the server in JSON:
//!
//! | request | what it does |
//! | --- | --- |
//! | `GET /api/state` | the game and the review as they stand |
//! | `GET /api/events` | server-sent events: the engine's thoughts, its moves, an analysis's progress |
//! | `POST /api/game/new` | a game (`variant`, `side`, `movetime_ms`, `handicap`) |
//! | `POST /api/game/move` | the person's move (`{"move": "7g7f"}`); an illegal one is refused with its reason |
//! | `POST /api/game/undo`, `/resign`, `/declare` | take back, resign, declare an entering-king win |
//! | `GET /api/game/record?format=kif` | the record (`kif`, `csa`; Dobutsu: `txt`) |
//! | `POST /api/review/open?name=FILE` | a record (the file's bytes) to review |
//! | `POST /api/review/game` | the shogi game just played, to review |
//! | `POST /api/review/analyse` | analyse the record (`{"depth": 6}`) |
//!
//! Every error is `{"error": "…"}` with a 4xx status; nothing a page sends
//! stops the server.

mod events;
mod play;
mod review;

use clap::Args;
use dobutsu::solve::{Database, DbError};
use events::Events;
use play::{NewGame, Play};
use review::Review;
use serde_json::{json, Value};
use std::io::Read;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tiny_http::{Header, Method, Request, Response, Server};

/// The largest request body read (a record file): 4 MiB.
const MAX_BODY: u64 = 4 << 20;

const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

#[derive(Args)]
pub struct ServeArgs {
    /// The port (0: any free port, printed when the server starts).
    #[arg(long, default_value_t = 8088)]
    port: u16,
    /// The address to listen on. The default, 127.0.0.1, lets only this
    /// machine in; another address (0.0.0.0: every network) opens the page to
    /// other machines, with no password.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    address: IpAddr,
    /// Transposition table size in MiB for the shogi engine and for analyses.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// The Dobutsu database (`kyobo dobutsu solve --out FILE`): perfect play.
    /// Without it (the default file missing) the engine searches.
    #[arg(long, default_value = crate::dobutsu_cmd::DEFAULT_DB)]
    dobutsu_db: PathBuf,
}

/// A request refused: the HTTP status and why, in words for the page.
#[derive(Debug)]
pub struct ApiError {
    pub status: u16,
    pub message: String,
}

impl ApiError {
    /// 400: the request cannot be done as asked.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError { status: 400, message: message.into() }
    }
    /// 409: it clashes with what is under way.
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError { status: 409, message: message.into() }
    }
    /// 500: the server's own fault.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError { status: 500, message: message.into() }
    }
}

/// Everything the requests share.
struct App {
    play: Arc<Play>,
    review: Arc<Review>,
    events: Arc<Events>,
    /// The `Host` headers a page may send (a guard against DNS rebinding when
    /// the server listens on the loopback only); `None` accepts any.
    hosts: Option<Vec<String>>,
}

/// Runs the server until the process is stopped.
///
/// # Errors
/// A port that cannot be opened, a named database that cannot be read, a
/// table that cannot be allocated.
pub fn run(args: &ServeArgs) -> Result<(), String> {
    shogi::attacks::init();
    let db = load_db(&args.dobutsu_db)?;
    let addr = SocketAddr::new(args.address, args.port);
    let server = Server::http(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let bound = server
        .server_addr()
        .to_ip()
        .ok_or_else(|| format!("cannot listen on {addr}: not an IP address"))?;
    let events = Arc::new(Events::default());
    let has_db = db.is_some();
    let app = Arc::new(App {
        play: Arc::new(Play::new(args.hash, db, Arc::clone(&events))?),
        review: Arc::new(Review::new(args.hash, Arc::clone(&events))),
        events,
        hosts: bound.ip().is_loopback().then(|| {
            let port = bound.port();
            vec![format!("127.0.0.1:{port}"), format!("localhost:{port}"), format!("[::1]:{port}")]
        }),
    });
    let url = match bound.ip() {
        IpAddr::V6(ip) => format!("http://[{ip}]:{}/", bound.port()),
        IpAddr::V4(ip) => format!("http://{ip}:{}/", bound.port()),
    };
    crate::print_line(&format!("Kyobo serves {url}"));
    crate::print_line(if bound.ip().is_loopback() {
        "  this machine only (--address names another address)"
    } else {
        "  open to other machines on the network, with no password"
    });
    crate::print_line(&format!(
        "  Dobutsu: {}",
        if has_db { "the database's perfect play" } else { "no database, the engine searches" }
    ));
    for request in server.incoming_requests() {
        let app = Arc::clone(&app);
        std::thread::spawn(move || app.handle(request));
    }
    Ok(())
}

/// The database at `path`: `None` where the default file is missing; an
/// error where a named file is missing or any file is unreadable.
fn load_db(path: &Path) -> Result<Option<Database>, String> {
    match Database::load(path) {
        Ok(db) => Ok(Some(db)),
        Err(DbError::Missing(_)) if path == Path::new(crate::dobutsu_cmd::DEFAULT_DB) => Ok(None),
        Err(e) => Err(format!("--dobutsu-db {}: {e}", path.display())),
    }
}

fn header(name: &str, value: &str) -> Option<Header> {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).ok()
}

fn respond_with(request: Request, status: u16, body: Vec<u8>, content_type: &str) {
    let mut response = Response::from_data(body).with_status_code(status);
    for h in [header("Content-Type", content_type), header("Cache-Control", "no-store")]
        .into_iter()
        .flatten()
    {
        response = response.with_header(h);
    }
    // The page may have gone; nothing to do then.
    let _ = request.respond(response);
}

fn respond_json(request: Request, result: Result<Value, ApiError>) {
    let (status, body) = match result {
        Ok(v) => (200, v),
        Err(e) => (e.status, json!({ "error": e.message })),
    };
    respond_with(request, status, body.to_string().into_bytes(), "application/json; charset=utf-8");
}

/// The request's body, at most [`MAX_BODY`] bytes.
fn body(request: &mut Request) -> Result<Vec<u8>, ApiError> {
    let mut bytes = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ApiError::bad(format!("the request could not be read: {e}")))?;
    if bytes.len() as u64 > MAX_BODY {
        return Err(ApiError { status: 413, message: "larger than 4 MiB".into() });
    }
    Ok(bytes)
}

fn json_body<T: serde::de::DeserializeOwned>(request: &mut Request) -> Result<T, ApiError> {
    let bytes = body(request)?;
    serde_json::from_slice(&bytes).map_err(|e| ApiError::bad(format!("a malformed request: {e}")))
}

/// The value of `key` in the URL's query (`?name=game.kif`), percent-decoded.
fn query(url: &str, key: &str) -> Option<String> {
    let (_, q) = url.split_once('?')?;
    q.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=')?;
        (k == key).then(|| percent_decode(v))
    })
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b'+' => out.push(b' '),
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[derive(serde::Deserialize)]
struct MoveRequest {
    #[serde(rename = "move")]
    text: String,
}

#[derive(serde::Deserialize)]
struct AnalyseRequest {
    depth: i32,
}

impl App {
    fn host_allowed(&self, request: &Request) -> bool {
        let Some(hosts) = &self.hosts else { return true };
        request
            .headers()
            .iter()
            .find(|h| h.field.equiv("Host"))
            .is_some_and(|h| hosts.iter().any(|allowed| h.value.as_str() == allowed))
    }

    fn handle(&self, mut request: Request) {
        if !self.host_allowed(&request) {
            return respond_json(
                request,
                Err(ApiError {
                    status: 403,
                    message: "this server answers its own address only".into(),
                }),
            );
        }
        let url = request.url().to_string();
        let path = url.split('?').next().unwrap_or("");
        let method = request.method().clone();
        match (&method, path) {
            (Method::Get, "/") => {
                respond_with(request, 200, PAGE.into(), "text/html; charset=utf-8")
            }
            (Method::Get, "/app.js") => {
                respond_with(request, 200, SCRIPT.into(), "text/javascript; charset=utf-8")
            }
            (Method::Get, "/style.css") => {
                respond_with(request, 200, STYLE.into(), "text/css; charset=utf-8")
            }
            (Method::Get, "/api/events") => {
                let queue = self.events.listen();
                events::stream(request.into_writer(), queue);
            }
            (Method::Get, "/api/state") => {
                let state = (|| {
                    Ok(json!({
                        "play": self.play.state()?["game"],
                        "review": self.review.state()?["review"],
                    }))
                })();
                respond_json(request, state)
            }
            (Method::Post, "/api/game/new") => {
                let r = json_body::<NewGame>(&mut request).and_then(|g| self.play.start(&g));
                respond_json(request, r)
            }
            (Method::Post, "/api/game/move") => {
                let r = json_body::<MoveRequest>(&mut request)
                    .and_then(|m| self.play.human_move(m.text.trim()));
                respond_json(request, r)
            }
            (Method::Post, "/api/game/undo") => {
                let r = self.play.undo();
                respond_json(request, r)
            }
            (Method::Post, "/api/game/resign") => {
                let r = self.play.resign();
                respond_json(request, r)
            }
            (Method::Post, "/api/game/declare") => {
                let r = self.play.declare();
                respond_json(request, r)
            }
            (Method::Get, "/api/game/record") => {
                let format = query(&url, "format").unwrap_or_default();
                match self.play.record(&format) {
                    Ok((bytes, name)) => {
                        let mut response = Response::from_data(bytes);
                        let kind = if name.ends_with(".kif") {
                            "text/plain; charset=shift_jis"
                        } else {
                            "text/plain; charset=utf-8"
                        };
                        let disposition = format!("attachment; filename=\"{name}\"");
                        for h in [
                            header("Content-Type", kind),
                            header("Content-Disposition", &disposition),
                        ]
                        .into_iter()
                        .flatten()
                        {
                            response = response.with_header(h);
                        }
                        let _ = request.respond(response);
                    }
                    Err(e) => respond_json(request, Err(e)),
                }
            }
            (Method::Post, "/api/review/open") => {
                let name = query(&url, "name").unwrap_or_else(|| "record".to_string());
                let r = body(&mut request).and_then(|bytes| self.review.open(&bytes, &name));
                respond_json(request, r)
            }
            (Method::Post, "/api/review/game") => {
                let r = self
                    .play
                    .shogi_record()
                    .and_then(|(record, name)| self.review.open_record(record, name));
                respond_json(request, r)
            }
            (Method::Post, "/api/review/analyse") => {
                let r = json_body::<AnalyseRequest>(&mut request)
                    .and_then(|a| self.review.analyse(a.depth));
                respond_json(request, r)
            }
            (_, p) if p.starts_with("/api/") => respond_json(
                request,
                Err(ApiError { status: 404, message: format!("no {method} {p}") }),
            ),
            _ => respond_with(request, 404, b"not found".to_vec(), "text/plain; charset=utf-8"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_values_are_percent_decoded() {
        assert_eq!(query("/x?name=a%20b.kif&z=1", "name").as_deref(), Some("a b.kif"));
        assert_eq!(query("/x?name=%E5%B0%86.kif", "name").as_deref(), Some("将.kif"));
        assert_eq!(query("/x?name=100%", "name").as_deref(), Some("100%"));
        assert_eq!(query("/x?name=%4", "name").as_deref(), Some("%4"));
        assert_eq!(query("/x", "name"), None);
        assert_eq!(query("/x?other=1", "name"), None);
    }
}
