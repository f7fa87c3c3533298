//! `kyobo csa`: a CSA protocol client (version 1.2.1 and later), for floodgate
//! and any CSA server.
//!
//! The client spawns a USI engine — this same `kyobo` binary by default, or any
//! other (`--engine /usr/games/gpsusi`) — and plays the server's games with it.
//! CSA moves, positions and records are the `records` crate's (`records::csa`).
//!
//! - [`summary`]: the `Game_Summary` (sides, clock, position, moves already played);
//! - [`clock`]: the clock as the server keeps it, and the network margin;
//! - [`usi_process`]: the USI engine process and its `info`/`bestmove` lines;
//! - [`link`]: the TCP connection, the engine's pipes as one event stream, and
//!   the transcript (password redacted);
//! - [`record`]: each game as a CSA record file;
//! - [`client`]: login, agree, play, results, games in a row, reconnection.
//!
//! Settings come from a TOML file (`--config`) and flags; a flag wins over the
//! file. See docs/csa.md.

pub mod client;
pub mod clock;
pub mod link;
pub mod record;
pub mod summary;
pub mod usi_process;

use client::{Client, ClientError, Settings};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;
use usi_process::EngineCommand;

/// `kyobo csa`'s flags.
#[derive(clap::Args, Debug, Default)]
pub struct CsaArgs {
    /// TOML settings file (flags override it)
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Server host [default: 127.0.0.1]
    #[arg(long)]
    host: Option<String>,
    /// Server port [default: 4081]
    #[arg(long)]
    port: Option<u16>,
    /// Login id
    #[arg(long)]
    id: Option<String>,
    /// Password (or the KYOBO_CSA_PASSWORD environment variable); never logged
    #[arg(long)]
    password: Option<String>,
    /// Game name, e.g. floodgate-300-10F (sent as `<game>,<password>`)
    #[arg(long = "game", value_name = "GAME_NAME")]
    game_name: Option<String>,
    /// Games to play in a row [default: 1]
    #[arg(long)]
    games: Option<u32>,
    /// USI engine to play with [default: this kyobo, as `kyobo usi`]
    #[arg(long, value_name = "PROGRAM")]
    engine: Option<String>,
    /// An argument for the engine program (repeat for several)
    #[arg(long = "engine-arg", value_name = "ARG", allow_hyphen_values = true)]
    engine_args: Vec<String>,
    /// A USI option for the engine, NAME=VALUE (repeat for several)
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Directory for the games' CSA records [default: csa-records]
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// Append the exchange with the server to this file (password redacted)
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Milliseconds kept back from every move for the network, before what the
    /// server's times teach [default: 300]
    #[arg(long)]
    margin_ms: Option<u64>,
    /// Seconds without sending before an empty keep-alive line [default: 30]
    #[arg(long)]
    keepalive: Option<u64>,
    /// Milliseconds before the first reconnection; doubled each time [default: 2000]
    #[arg(long)]
    retry_delay_ms: Option<u64>,
    /// Failed attempts in a row before giving up [default: 10]
    #[arg(long)]
    max_retries: Option<u32>,
    /// Do not send the evaluation comment with moves
    #[arg(long)]
    no_comment: bool,
    /// Do not send binc/winc to the engine (for engines that refuse them, such as
    /// gpsusi); the increment stays in the main time given
    #[arg(long)]
    no_usi_increment: bool,
}

/// The TOML settings file: the flags' names with `_` (`game_name`, `margin_ms`),
/// and a `[usi_options]` table.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct FileSettings {
    host: Option<String>,
    port: Option<u16>,
    id: Option<String>,
    password: Option<String>,
    game_name: Option<String>,
    games: Option<u32>,
    engine: Option<String>,
    engine_args: Option<Vec<String>>,
    records: Option<PathBuf>,
    log: Option<PathBuf>,
    margin_ms: Option<u64>,
    keepalive: Option<u64>,
    retry_delay_ms: Option<u64>,
    max_retries: Option<u32>,
    eval_comment: Option<bool>,
    untimed_move_ms: Option<u64>,
    usi_increment: Option<bool>,
    #[serde(default)]
    usi_options: BTreeMap<String, toml::Value>,
}

/// Reads the settings file.
pub fn read_file_settings(path: &Path) -> Result<FileSettings, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// A USI option's value as written in the TOML file.
fn option_value(v: &toml::Value) -> Result<String, String> {
    match v {
        toml::Value::String(s) => Ok(s.clone()),
        toml::Value::Integer(i) => Ok(i.to_string()),
        toml::Value::Boolean(b) => Ok(b.to_string()),
        toml::Value::Float(f) => Ok(f.to_string()),
        other => Err(format!("usi_options: {other} is not a value a USI option takes")),
    }
}

/// The settings from the file (if any), the flags and the environment.
pub fn settle(args: &CsaArgs, env_password: Option<String>) -> Result<Settings, String> {
    let file = match &args.config {
        Some(p) => read_file_settings(p)?,
        None => FileSettings::default(),
    };
    let id =
        args.id.clone().or(file.id).ok_or("an id is needed: --id or `id` in the settings file")?;
    if id.is_empty() || id.contains(char::is_whitespace) {
        return Err(format!("the id '{id}' is empty or has blanks"));
    }
    let password = args.password.clone().or(env_password).or(file.password).unwrap_or_default();
    let game_name = args.game_name.clone().or(file.game_name).filter(|g| !g.is_empty());
    if password.contains(char::is_whitespace)
        || game_name.as_ref().is_some_and(|g| g.contains(char::is_whitespace))
    {
        return Err("the password and the game name cannot have blanks".to_string());
    }
    if password.is_empty() && game_name.is_none() {
        return Err("a password or a game name is needed (--password, KYOBO_CSA_PASSWORD, --game)"
            .to_string());
    }
    let engine = match args.engine.clone().or(file.engine) {
        Some(program) => {
            let args_ = if args.engine_args.is_empty() {
                file.engine_args.unwrap_or_default()
            } else {
                args.engine_args.clone()
            };
            EngineCommand { program, args: args_ }
        }
        None => {
            let me = std::env::current_exe()
                .map_err(|e| format!("cannot find the kyobo binary: {e}"))?;
            EngineCommand {
                program: me.to_string_lossy().into_owned(),
                args: vec!["usi".to_string()],
            }
        }
    };
    let mut usi_options = Vec::new();
    for (name, value) in &file.usi_options {
        usi_options.push((name.clone(), option_value(value)?));
    }
    for text in &args.options {
        let (name, value) =
            text.split_once('=').ok_or_else(|| format!("--option {text}: expected NAME=VALUE"))?;
        let name = name.trim().to_string();
        usi_options.retain(|(n, _)| *n != name);
        usi_options.push((name, value.trim().to_string()));
    }
    Ok(Settings {
        host: args.host.clone().or(file.host).unwrap_or_else(|| "127.0.0.1".to_string()),
        port: args.port.or(file.port).unwrap_or(4081),
        id,
        password,
        game_name,
        games: args.games.or(file.games).unwrap_or(1),
        engine,
        usi_options,
        records_dir: args
            .records
            .clone()
            .or(file.records)
            .unwrap_or_else(|| PathBuf::from("csa-records")),
        log: args.log.clone().or(file.log),
        margin_ms: args.margin_ms.or(file.margin_ms).unwrap_or(300),
        keepalive: Duration::from_secs(args.keepalive.or(file.keepalive).unwrap_or(30).max(1)),
        retry_delay: Duration::from_millis(
            args.retry_delay_ms.or(file.retry_delay_ms).unwrap_or(2000),
        ),
        max_retries: args.max_retries.or(file.max_retries).unwrap_or(10),
        eval_comment: !args.no_comment && file.eval_comment.unwrap_or(true),
        untimed_move_ms: file.untimed_move_ms.unwrap_or(10_000),
        usi_increment: !args.no_usi_increment && file.usi_increment.unwrap_or(true),
    })
}

/// `kyobo csa`: plays the games, or says why it could not.
pub fn run(args: &CsaArgs) -> Result<(), String> {
    shogi::attacks::init();
    let settings = settle(args, std::env::var("KYOBO_CSA_PASSWORD").ok())?;
    let mut client = Client::new(settings).map_err(|e| e.to_string())?;
    client.run().map_err(|e: ClientError| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(id: &str) -> CsaArgs {
        CsaArgs { id: Some(id.to_string()), password: Some("pw".to_string()), ..CsaArgs::default() }
    }

    #[test]
    fn flags_override_the_file() {
        let dir = testdata::ScratchDir::new("csa-settings");
        let path = dir.join("csa.toml");
        std::fs::write(
            &path,
            "host = \"wdoor.c.u-tokyo.ac.jp\"\nport = 4081\nid = \"kyobo_test\"\npassword = \"filepw\"\n\
             game_name = \"floodgate-300-10F\"\ngames = 5\nusi_increment = false\n[usi_options]\nUSI_Hash = 256\nThreads = 2\nBadShapeCheck = true\n",
        )
        .unwrap();
        let mut a = CsaArgs { config: Some(path.clone()), ..CsaArgs::default() };
        a.options = vec!["Threads=1".to_string()];
        a.games = Some(2);
        let s = settle(&a, None).unwrap();
        assert_eq!(s.host, "wdoor.c.u-tokyo.ac.jp");
        assert_eq!(s.id, "kyobo_test");
        assert_eq!(s.games, 2);
        assert_eq!(s.login_secret(), "floodgate-300-10F,filepw");
        assert!(!s.usi_increment);
        assert_eq!(
            s.usi_options,
            vec![
                ("BadShapeCheck".to_string(), "true".to_string()),
                ("USI_Hash".to_string(), "256".to_string()),
                ("Threads".to_string(), "1".to_string())
            ]
        );
        let s = settle(&a, Some("envpw".to_string())).unwrap();
        assert_eq!(s.password, "envpw", "the environment wins over the file");
        std::fs::write(&path, "hots = \"typo\"\n").unwrap();
        assert!(settle(&a, None).unwrap_err().contains("hots"));
    }

    #[test]
    fn settings_that_cannot_log_in_are_refused() {
        assert!(settle(&CsaArgs::default(), None).is_err());
        assert!(settle(&args("two words"), None).is_err());
        let mut a = args("kyobo");
        a.password = None;
        assert!(settle(&a, None).is_err());
        a.game_name = Some("x-60-2F".to_string());
        assert_eq!(settle(&a, None).unwrap().login_secret(), "x-60-2F");
        a.options = vec!["nonsense".to_string()];
        assert!(settle(&a, None).is_err());
    }
}
