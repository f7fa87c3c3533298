//! The USI state machine: options, the games, and the search thread.

use super::command::Command;
use super::dobutsu::DobutsuState;
use super::options::{Options, Variant};
use super::report::{error, warning};
use super::shogi_state::ShogiState;
use super::variant::{clock_for, GameVariant, SearchThread};
use super::{display, send};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

pub struct Session {
    options: Options,
    /// Every game the option `Variant` chooses from.
    games: Games,
    search: SearchThread,
}

/// The games, each keeping its position, engine and tables while another is
/// played: switching `Variant` back and forth loses nothing.
struct Games {
    shogi: ShogiState,
    dobutsu: DobutsuState,
}

impl Games {
    /// The game `variant` names: the one that answers the commands.
    fn chosen(&mut self, variant: Variant) -> &mut dyn GameVariant {
        match variant {
            Variant::Shogi => &mut self.shogi,
            Variant::Dobutsu => &mut self.dobutsu,
        }
    }

    /// Every game, for what each must hear whichever is played.
    fn all(&mut self) -> [&mut dyn GameVariant; 2] {
        [&mut self.shogi, &mut self.dobutsu]
    }
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

/// Lines for a person, as `info string` (GUIs ignore them), after a warning
/// when they are about an older position than the last `position` asked for.
fn tell(position_error: Option<&str>, lines: Vec<String>) {
    if let Some(e) = position_error {
        warning(format!("no position set ({e}); showing the last good one"));
    }
    for line in lines {
        send(&format!("info string {line}"));
    }
}

impl Session {
    pub fn new() -> Session {
        let options = Options::default();
        Session {
            games: Games { shogi: ShogiState::new(&options), dobutsu: DobutsuState::new() },
            options,
            search: SearchThread::new(),
        }
    }

    /// Handles one line of input.
    pub fn handle(&mut self, line: &str) -> Flow {
        let command = match Command::parse(line) {
            Ok(c) => c,
            Err(e) => {
                error(e);
                return Flow::Continue;
            }
        };
        let game = self.games.chosen(self.options.variant);
        match command {
            Command::Empty => {}
            Command::Usi => {
                send(&format!("id name Kyobo {}", env!("CARGO_PKG_VERSION")));
                send("id author the Kyobo developers");
                for line in Options::declarations() {
                    send(&line);
                }
                send("usiok");
            }
            Command::UsiTunables => {
                if let Some(manifest) = Options::tunables_manifest() {
                    send(&format!("info string shogiarena_tunables_json {manifest}"));
                }
                send("usi_tunablesok");
            }
            Command::IsReady => {
                // Tables are made here, where GUIs wait, not on the game's clock.
                if !self.search.is_running() {
                    game.prepare(&mut self.options);
                }
                send("readyok");
            }
            Command::SetOption { name, value } => match self.options.set(&name, value.as_deref()) {
                Err(e) => error(e),
                Ok(()) => {
                    for game in self.games.all() {
                        game.option_set(&name, &self.options);
                    }
                }
            },
            Command::UsiNewGame => {
                self.search.finish(false);
                for game in self.games.all() {
                    game.new_game(&mut self.options);
                }
            }
            Command::Position { start, moves } => {
                if let Some(problem) = game.set_position(&start, &moves) {
                    error(problem);
                }
            }
            Command::Go(params) => {
                self.search.finish(false);
                for w in &params.warnings {
                    warning(w);
                }
                game.go(params, &mut self.options, &mut self.search);
            }
            Command::Stop => self.search.finish(false),
            Command::PonderHit(fields, warnings) => {
                for w in warnings {
                    warning(w);
                }
                let clock = clock_for(game.side_to_move(), &fields);
                self.search.signals.ponderhit(clock);
            }
            Command::GameOver(_) => self.search.finish(true),
            Command::Quit => {
                self.search.finish(true);
                return Flow::Quit;
            }
            Command::Display => tell(game.position_error(), game.board()),
            Command::Moves => tell(game.position_error(), game.moves()),
            Command::Eval => {
                let lines = game.evaluation(&self.options);
                tell(game.position_error(), lines);
            }
            Command::Shape => match game.shape() {
                Ok(lines) => tell(game.position_error(), lines),
                Err(e) => error(e),
            },
            Command::Help => tell(game.position_error(), display::help()),
        }
        Flow::Continue
    }

    /// The input ended (a script piped its commands): let a search with limits
    /// finish and answer, stop an open-ended one (it answers at once).
    pub fn end_of_input(&mut self) {
        self.search.end_of_input();
    }
}
