//! The game clock as the server keeps it, and the network margin learnt from the
//! times the server reports.
//!
//! The server (shogi-server, floodgate) charges a move the whole seconds between
//! its sending the previous move and its receiving this one, at least
//! `Least_Time_Per_Move`; the main time then gains the increment and loses the
//! charge (never below zero). A move is late when its charge reaches the main
//! time plus the byoyomi plus the increment. So the time a move may take is that
//! sum, less what the network adds on the way.

use shogi::Color;
use std::collections::VecDeque;

/// One side's time control, in the game's time unit (`Time_Unit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeRule {
    /// Milliseconds in one time unit (1000 for `1sec`).
    pub unit_ms: u64,
    pub total: u64,
    pub byoyomi: u64,
    pub increment: u64,
    pub least_per_move: u64,
}

impl Default for TimeRule {
    fn default() -> Self {
        TimeRule { unit_ms: 1000, total: 0, byoyomi: 0, increment: 0, least_per_move: 0 }
    }
}

impl TimeRule {
    /// Reads `Time_Unit`, `Total_Time`, `Byoyomi`, `Increment` and
    /// `Least_Time_Per_Move` (later keys win); the key and value that cannot be
    /// read otherwise.
    pub fn from_fields(fields: &[(String, String)]) -> Result<TimeRule, (String, String)> {
        let mut rule = TimeRule::default();
        for (k, v) in fields {
            let bad = || (k.clone(), v.clone());
            let number = || v.parse::<u64>().map_err(|_| bad());
            match k.as_str() {
                "Time_Unit" => rule.unit_ms = parse_unit(v).ok_or_else(bad)?,
                "Total_Time" => rule.total = number()?,
                "Byoyomi" => rule.byoyomi = number()?,
                "Increment" => rule.increment = number()?,
                "Least_Time_Per_Move" => rule.least_per_move = number()?,
                _ => {}
            }
        }
        Ok(rule)
    }

    pub fn total_ms(&self) -> u64 {
        self.total.saturating_mul(self.unit_ms)
    }

    pub fn byoyomi_ms(&self) -> u64 {
        self.byoyomi.saturating_mul(self.unit_ms)
    }

    pub fn increment_ms(&self) -> u64 {
        self.increment.saturating_mul(self.unit_ms)
    }

    /// `300+10F`, `600+10s byoyomi`: how people name the control.
    pub fn describe(&self) -> String {
        let unit = match self.unit_ms {
            1000 => "s".to_string(),
            60_000 => "min".to_string(),
            1 => "ms".to_string(),
            n => format!("x{n}ms"),
        };
        let mut s = format!("{}{unit}", self.total);
        if self.byoyomi > 0 {
            s.push_str(&format!(" + {}{unit} byoyomi", self.byoyomi));
        }
        if self.increment > 0 {
            s.push_str(&format!(" + {}{unit} increment", self.increment));
        }
        s
    }
}

/// `1sec`, `1min`, `100msec`… → milliseconds per unit.
fn parse_unit(text: &str) -> Option<u64> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let n: u64 = if digits == 0 { 1 } else { text[..digits].parse().ok()? };
    let per = match &text[digits..] {
        "msec" | "ms" => 1,
        "sec" | "s" => 1000,
        "min" | "m" => 60_000,
        _ => return None,
    };
    (n > 0).then(|| n.saturating_mul(per))
}

/// Both sides' main time as the server counts it.
#[derive(Clone, Debug)]
pub struct GameClock {
    rules: [TimeRule; 2],
    remaining_ms: [u64; 2],
}

impl GameClock {
    pub fn new(rules: [TimeRule; 2]) -> GameClock {
        GameClock { rules, remaining_ms: [rules[0].total_ms(), rules[1].total_ms()] }
    }

    /// Charges `color` for a move the server reported as taking `units`.
    pub fn charge(&mut self, color: Color, units: u64) {
        let rule = self.rules[color.index()];
        let spent = units.max(rule.least_per_move).saturating_mul(rule.unit_ms);
        let r = &mut self.remaining_ms[color.index()];
        *r = (*r + rule.increment_ms()).saturating_sub(spent);
    }

    /// Main time left to `color`, in milliseconds.
    pub fn remaining_ms(&self, color: Color) -> u64 {
        self.remaining_ms[color.index()]
    }

    /// How long `color`'s next move may take by the server's rule: the main time,
    /// the byoyomi and the increment.
    pub fn allowance_ms(&self, color: Color) -> u64 {
        let rule = &self.rules[color.index()];
        self.remaining_ms(color) + rule.byoyomi_ms() + rule.increment_ms()
    }

    /// Whether there is a clock at all (a game of `Total_Time:0`, no byoyomi and no
    /// increment has none).
    pub fn is_timed(&self, color: Color) -> bool {
        let rule = &self.rules[color.index()];
        rule.total > 0 || rule.byoyomi > 0 || rule.increment > 0
    }

    /// The `go` parameters of `me`'s move: `(btime, wtime, byoyomi, binc, winc)`
    /// in milliseconds. Our own allowance is cut by `margin_ms`, taken off the main
    /// time first and then off the byoyomi; USI adds the increment after the move
    /// while the server counts it before, so the main time given includes it.
    pub fn go_times(&self, me: Color, margin_ms: u64) -> (u64, u64, u64, u64, u64) {
        let mut main = [0u64; 2];
        for c in Color::ALL {
            main[c.index()] = self.remaining_ms(c) + self.rules[c.index()].increment_ms();
        }
        let mine = &mut main[me.index()];
        let cut_main = margin_ms.min(*mine);
        *mine -= cut_main;
        let byoyomi = self.rules[me.index()].byoyomi_ms().saturating_sub(margin_ms - cut_main);
        (main[0], main[1], byoyomi, self.rules[0].increment_ms(), self.rules[1].increment_ms())
    }
}

/// The time kept back from each move for the network: a fixed base and the lag
/// learnt from the server's reports.
///
/// After each of our moves the server reports the time it charged; that less the
/// time we measured from receiving the previous move to sending ours is a lower
/// bound of the lag (the server truncates to whole units). The learnt lag is the
/// largest of the last [`Margin::WINDOW`] bounds, at most [`Margin::CAP_MS`].
#[derive(Clone, Debug)]
pub struct Margin {
    base_ms: u64,
    recent: VecDeque<u64>,
}

impl Margin {
    pub const WINDOW: usize = 8;
    pub const CAP_MS: u64 = 5000;

    pub fn new(base_ms: u64) -> Margin {
        Margin { base_ms, recent: VecDeque::new() }
    }

    /// Learns from one of our moves: `measured_ms` by our clock, `charged_units`
    /// as the server reported. Charges raised to `Least_Time_Per_Move` say nothing
    /// of the lag and are passed over.
    pub fn observe(&mut self, rule: &TimeRule, measured_ms: u64, charged_units: u64) {
        if charged_units <= rule.least_per_move && rule.least_per_move > 0 {
            return;
        }
        let lag = charged_units
            .saturating_mul(rule.unit_ms)
            .saturating_sub(measured_ms)
            .min(Self::CAP_MS);
        if self.recent.len() == Self::WINDOW {
            self.recent.pop_front();
        }
        self.recent.push_back(lag);
    }

    /// The lag learnt so far.
    pub fn learnt_ms(&self) -> u64 {
        self.recent.iter().copied().max().unwrap_or(0)
    }

    /// The whole margin: base plus learnt lag.
    pub fn total_ms(&self) -> u64 {
        self.base_ms + self.learnt_ms()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(total: u64, byoyomi: u64, increment: u64) -> TimeRule {
        TimeRule { total, byoyomi, increment, ..TimeRule::default() }
    }

    #[test]
    fn units_are_read() {
        assert_eq!(parse_unit("1sec"), Some(1000));
        assert_eq!(parse_unit("1min"), Some(60_000));
        assert_eq!(parse_unit("10msec"), Some(10));
        assert_eq!(parse_unit("sec"), Some(1000));
        assert_eq!(parse_unit("0sec"), None);
        assert_eq!(parse_unit("1hour"), None);
    }

    #[test]
    fn fischer_clock_as_the_server_counts_it() {
        let mut clock = GameClock::new([rule(300, 0, 10); 2]);
        assert_eq!(clock.allowance_ms(Color::Black), 310_000);
        clock.charge(Color::Black, 15);
        assert_eq!(clock.remaining_ms(Color::Black), 295_000);
        clock.charge(Color::Black, 400);
        assert_eq!(clock.remaining_ms(Color::Black), 0);
        assert_eq!(clock.allowance_ms(Color::Black), 10_000);
        // The increment counts for the move being made; 500 ms kept back.
        assert_eq!(clock.go_times(Color::Black, 500), (9_500, 310_000, 0, 10_000, 10_000));
    }

    #[test]
    fn byoyomi_pays_the_margin_once_main_time_is_gone() {
        let mut clock = GameClock::new([rule(10, 5, 0); 2]);
        assert_eq!(clock.go_times(Color::White, 300), (10_000, 9_700, 5_000, 0, 0));
        clock.charge(Color::White, 12);
        assert_eq!(clock.go_times(Color::White, 300), (10_000, 0, 4_700, 0, 0));
        assert!(clock.is_timed(Color::White));
        assert!(!GameClock::new([rule(0, 0, 0); 2]).is_timed(Color::Black));
    }

    #[test]
    fn least_time_per_move_is_charged() {
        let mut clock = GameClock::new([TimeRule { least_per_move: 1, ..rule(60, 0, 0) }; 2]);
        clock.charge(Color::Black, 0);
        assert_eq!(clock.remaining_ms(Color::Black), 59_000);
    }

    #[test]
    fn the_margin_learns_the_lag() {
        let r = rule(300, 0, 10);
        let mut m = Margin::new(300);
        m.observe(&r, 1_900, 1);
        assert_eq!(m.total_ms(), 300);
        m.observe(&r, 1_200, 3);
        assert_eq!(m.learnt_ms(), 1_800);
        for _ in 0..Margin::WINDOW {
            m.observe(&r, 2_500, 2);
        }
        assert_eq!(m.learnt_ms(), 0, "an old spike is forgotten");
        m.observe(&r, 0, 60);
        assert_eq!(m.learnt_ms(), Margin::CAP_MS);
        let least = TimeRule { least_per_move: 1, ..r };
        let mut m = Margin::new(0);
        m.observe(&least, 100, 1);
        assert_eq!(m.learnt_ms(), 0, "a charge raised to the least time is no lag");
    }
}
