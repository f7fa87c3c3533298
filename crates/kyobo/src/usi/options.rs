//! The engine's USI options: their declarations (`option name … type …`), their
//! current values, and checked updates from `setoption`.

use super::book::BookOptions;
use super::command::excerpt;
use search::abc::OPTIONS as ABC_OPTIONS;
use search::engine::ALGORITHMS;
use shogi::EnteringKingRule;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub hash_mb: usize,
    pub ponder: bool,
    pub threads: usize,
    pub multipv: usize,
    pub network_delay: u64,
    pub network_delay2: u64,
    pub minimum_thinking_time: u64,
    pub max_moves_to_draw: u32,
    pub resign_value: i32,
    pub entering_king_rule: EnteringKingRule,
    /// One of `search::engine::ALGORITHMS`.
    pub algorithm: &'static str,
    /// The values of ABC's options, in the order of `search::abc::OPTIONS`.
    pub abc: [i64; ABC_OPTIONS.len()],
    /// The bad-shape check at the root, and its margin in centipawns.
    pub bad_shape_check: bool,
    pub bad_shape_margin: i32,
    /// The game played: shogi, or Dobutsu shogi (`Variant`).
    pub variant: Variant,
    /// Where the Dobutsu database is read from (`DobutsuDatabase`; a path
    /// relative to the engine's working directory).
    pub dobutsu_database: String,
    /// The opening book and the opening variety without one.
    pub book: BookOptions,
    /// The NNUE network's file (`EvalFile`, or `nn.bin` in `EvalDir`); `None`:
    /// the handcrafted evaluation.
    pub eval_file: Option<String>,
    /// What the network's output is divided by (`FV_SCALE`, as YaneuraOu names
    /// it; the format's own is 16).
    pub fv_scale: i32,
}

/// `EvalFile`'s and `EvalDir`'s value that means the handcrafted evaluation.
pub const NO_EVAL_FILE: &str = "none";

/// The game the engine plays (option `Variant`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Shogi on 9 x 9 (the default).
    Shogi,
    /// Dobutsu shogi (どうぶつしょうぎ) on 3 x 4: `position` takes its SFEN
    /// (`startpos` is `gle/1c1/1C1/ELG b - 1`) and USI-style moves (`b3b2`,
    /// `C*b2`).
    Dobutsu,
}

impl Variant {
    /// Every variant with its option value.
    pub const ALL: [(&'static str, Variant); 2] =
        [("shogi", Variant::Shogi), ("dobutsu", Variant::Dobutsu)];

    /// The option value (`shogi`, `dobutsu`).
    pub fn name(self) -> &'static str {
        match self {
            Variant::Shogi => "shogi",
            Variant::Dobutsu => "dobutsu",
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 64,
            ponder: false,
            threads: 1,
            multipv: 1,
            // For a GUI on the same machine; see docs/usi.md for servers.
            network_delay: 0,
            network_delay2: 100,
            minimum_thinking_time: 0,
            max_moves_to_draw: 0,
            resign_value: 99999,
            entering_king_rule: EnteringKingRule::Point27,
            algorithm: ALGORITHMS[0],
            abc: ABC_OPTIONS.map(|(_, default, _, _)| default),
            bad_shape_check: false,
            bad_shape_margin: 150,
            variant: Variant::Shogi,
            dobutsu_database: crate::dobutsu_cmd::DEFAULT_DB.to_string(),
            book: BookOptions::default(),
            eval_file: None,
            fv_scale: eval::nnue::network::OUTPUT_SCALE,
        }
    }
}

/// `(name, min, max)` of every spin option.
const SPINS: [(&str, i64, i64); 10] = [
    ("USI_Hash", 1, 65536),
    ("Threads", 1, 256),
    ("MultiPV", 1, 600),
    ("NetworkDelay", 0, 10000),
    ("NetworkDelay2", 0, 10000),
    ("MinimumThinkingTime", 0, 100000),
    ("MaxMovesToDraw", 0, 100000),
    ("ResignValue", 0, 99999),
    ("BadShapeMargin", 0, 10000),
    ("FV_SCALE", 1, 128),
];

const RULES: [(&str, EnteringKingRule); 3] = [
    ("NoEnteringKing", EnteringKingRule::None),
    ("CSARule24", EnteringKingRule::Point24),
    ("CSARule27", EnteringKingRule::Point27),
];

impl Options {
    fn spin_value(&self, name: &str) -> i64 {
        match name {
            "USI_Hash" => self.hash_mb as i64,
            "Threads" => self.threads as i64,
            "MultiPV" => self.multipv as i64,
            "NetworkDelay" => self.network_delay as i64,
            "NetworkDelay2" => self.network_delay2 as i64,
            "MinimumThinkingTime" => self.minimum_thinking_time as i64,
            "MaxMovesToDraw" => i64::from(self.max_moves_to_draw),
            "BadShapeMargin" => i64::from(self.bad_shape_margin),
            "FV_SCALE" => i64::from(self.fv_scale),
            _ => i64::from(self.resign_value),
        }
    }

    /// The `option …` lines answered to `usi`.
    pub fn declarations() -> Vec<String> {
        let defaults = Options::default();
        let mut lines = vec![
            format!("option name USI_Ponder type check default {}", defaults.ponder),
            format!("option name BadShapeCheck type check default {}", defaults.bad_shape_check),
        ];
        for (name, min, max) in SPINS {
            lines.push(format!(
                "option name {name} type spin default {} min {min} max {max}",
                defaults.spin_value(name)
            ));
        }
        let default_rule = RULES
            .iter()
            .find(|(_, r)| *r == defaults.entering_king_rule)
            .map_or("CSARule27", |(n, _)| n);
        let vars: Vec<String> = RULES.iter().map(|(n, _)| format!("var {n}")).collect();
        lines.push(format!(
            "option name EnteringKingRule type combo default {default_rule} {}",
            vars.join(" ")
        ));
        let vars: Vec<String> = ALGORITHMS.iter().map(|n| format!("var {n}")).collect();
        lines.push(format!(
            "option name SearchAlgorithm type combo default {} {}",
            defaults.algorithm,
            vars.join(" ")
        ));
        for (name, default, min, max) in ABC_OPTIONS {
            lines.push(format!(
                "option name {name} type spin default {default} min {min} max {max}"
            ));
        }
        let vars: Vec<String> = Variant::ALL.iter().map(|(n, _)| format!("var {n}")).collect();
        lines.push(format!(
            "option name Variant type combo default {} {}",
            defaults.variant.name(),
            vars.join(" ")
        ));
        lines.push(format!(
            "option name DobutsuDatabase type string default {}",
            defaults.dobutsu_database
        ));
        lines.push(format!("option name EvalFile type string default {NO_EVAL_FILE}"));
        lines.push(format!("option name EvalDir type string default {NO_EVAL_FILE}"));
        lines.extend(BookOptions::declarations());
        lines
    }

    /// The option's own spelling for `name` in any letter case (`Hash` is
    /// `USI_Hash`, as some GUIs send it).
    fn canonical(name: &str) -> Option<&'static str> {
        let name = if name.eq_ignore_ascii_case("Hash") { "USI_Hash" } else { name };
        [
            "USI_Ponder",
            "BadShapeCheck",
            "EnteringKingRule",
            "SearchAlgorithm",
            "Variant",
            "DobutsuDatabase",
            "EvalFile",
            "EvalDir",
        ]
        .into_iter()
        .chain(SPINS.iter().map(|(n, _, _)| *n))
        .chain(ABC_OPTIONS.iter().map(|(n, _, _, _)| *n))
        .find(|n| n.eq_ignore_ascii_case(name))
        .or_else(|| BookOptions::canonical(name))
    }

    /// Applies `setoption`; on error nothing changes. Names and the values of
    /// check and combo options are read in any letter case.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let value = value.map(str::trim).unwrap_or("");
        let quoted = excerpt(value);
        let Some(name) = Options::canonical(name) else {
            return Err(format!("unknown option '{}'", excerpt(name)));
        };
        if BookOptions::canonical(name).is_some() {
            return self.book.set(name, value);
        }
        if name == "USI_Ponder" || name == "BadShapeCheck" {
            let on = match value.to_ascii_lowercase().as_str() {
                "true" => true,
                "false" => false,
                _ => return Err(format!("{name} must be true or false, not '{quoted}'")),
            };
            if name == "USI_Ponder" {
                self.ponder = on;
            } else {
                self.bad_shape_check = on;
            }
            return Ok(());
        }
        if name == "EnteringKingRule" {
            let rule = RULES
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(value))
                .ok_or_else(|| format!("unknown EnteringKingRule '{quoted}'"))?;
            self.entering_king_rule = rule.1;
            return Ok(());
        }
        if name == "Variant" {
            self.variant = Variant::ALL
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(value))
                .ok_or_else(|| format!("unknown Variant '{quoted}' (shogi or dobutsu)"))?
                .1;
            return Ok(());
        }
        if name == "DobutsuDatabase" {
            if value.is_empty() {
                return Err("DobutsuDatabase needs a path".to_string());
            }
            self.dobutsu_database = value.to_string();
            return Ok(());
        }
        if name == "EvalFile" || name == "EvalDir" {
            if value.is_empty() {
                return Err(format!("{name} needs a path or {NO_EVAL_FILE}"));
            }
            self.eval_file = if value.eq_ignore_ascii_case(NO_EVAL_FILE) {
                None
            } else if name == "EvalDir" {
                // YaneuraOu's option: the folder of the file `nn.bin`.
                Some(std::path::Path::new(value).join("nn.bin").to_string_lossy().into_owned())
            } else {
                Some(value.to_string())
            };
            return Ok(());
        }
        if name == "SearchAlgorithm" {
            self.algorithm = ALGORITHMS
                .into_iter()
                .find(|n| n.eq_ignore_ascii_case(value))
                .ok_or_else(|| format!("unknown SearchAlgorithm '{quoted}'"))?;
            return Ok(());
        }
        if let Some(i) = ABC_OPTIONS.iter().position(|(n, _, _, _)| *n == name) {
            let (_, _, min, max) = ABC_OPTIONS[i];
            let v: i64 =
                value.parse().map_err(|_| format!("{name} needs a number, not '{quoted}'"))?;
            if v < min || v > max {
                return Err(format!("{name} must be between {min} and {max}, not {v}"));
            }
            self.abc[i] = v;
            return Ok(());
        }
        let Some(&(_, min, max)) = SPINS.iter().find(|(n, _, _)| *n == name) else {
            return Err(format!("unknown option '{name}'"));
        };
        let v: i64 = value.parse().map_err(|_| format!("{name} needs a number, not '{quoted}'"))?;
        if v < min || v > max {
            return Err(format!("{name} must be between {min} and {max}, not {v}"));
        }
        match name {
            "USI_Hash" => self.hash_mb = v as usize,
            "Threads" => self.threads = v as usize,
            "MultiPV" => self.multipv = v as usize,
            "NetworkDelay" => self.network_delay = v as u64,
            "NetworkDelay2" => self.network_delay2 = v as u64,
            "MinimumThinkingTime" => self.minimum_thinking_time = v as u64,
            "MaxMovesToDraw" => self.max_moves_to_draw = v as u32,
            "BadShapeMargin" => self.bad_shape_margin = v as i32,
            "FV_SCALE" => self.fv_scale = v as i32,
            _ => self.resign_value = v as i32,
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checked_updates() {
        let mut o = Options::default();
        assert!(o.set("USI_Hash", Some("128")).is_ok());
        assert_eq!(o.hash_mb, 128);
        assert!(o.set("USI_Hash", Some("0")).is_err());
        assert!(o.set("USI_Hash", Some("lots")).is_err());
        assert_eq!(o.hash_mb, 128);
        assert!(o.set("Nonsense", Some("1")).is_err());
        assert!(o.set("EnteringKingRule", Some("CSARule24")).is_ok());
        assert_eq!(o.entering_king_rule, EnteringKingRule::Point24);
        assert!(o.set("EnteringKingRule", Some("Whatever")).is_err());
        assert!(o.set("USI_Ponder", Some("true")).is_ok());
        assert!(o.ponder);
        assert!(o.set("USI_Ponder", Some("yes")).is_err());
        assert!(o.set("SearchAlgorithm", Some("pvs")).is_ok());
        assert_eq!(o.algorithm, "PVS");
        assert!(o.set("SearchAlgorithm", Some("MCTS")).is_err());
        assert_eq!(o.algorithm, "PVS");
        assert!(o.set("SearchAlgorithm", Some("abc")).is_ok());
        assert_eq!(o.algorithm, "ABC");
        assert!(o.set("abc_width", Some("6")).is_ok());
        assert!(o.set("EvalFile", Some("")).is_err());
        assert!(o.set("evalfile", Some("nets/a.bin")).is_ok());
        assert_eq!(o.eval_file.as_deref(), Some("nets/a.bin"));
        assert!(o.set("EvalDir", Some("eval")).is_ok());
        assert_eq!(o.eval_file.as_deref(), Some("eval/nn.bin"));
        assert!(o.set("EvalFile", Some("None")).is_ok());
        assert_eq!(o.eval_file, None);
        assert!(o.set("ABC_Width", Some("99")).is_err());
        let width = ABC_OPTIONS.iter().position(|o| o.0 == "ABC_Width").unwrap();
        assert_eq!(o.abc[width], 6);
        assert_eq!(o.variant, Variant::Shogi);
        assert!(o.set("Variant", Some("Dobutsu")).is_ok());
        assert_eq!(o.variant, Variant::Dobutsu);
        assert!(o.set("Variant", Some("chess")).is_err());
        assert_eq!(o.variant, Variant::Dobutsu);
        assert_eq!(o.dobutsu_database, "dobutsu.db");
        assert!(o.set("DobutsuDatabase", Some("/data/dobutsu shogi.db")).is_ok());
        assert_eq!(o.dobutsu_database, "/data/dobutsu shogi.db");
        assert!(o.set("DobutsuDatabase", Some("")).is_err());
        assert_eq!(o.dobutsu_database, "/data/dobutsu shogi.db");
        assert!(o.set("bookfile", Some("book/standard_book.db")).is_ok());
        assert_eq!(o.book.file, "book/standard_book.db");
        assert!(o.set("BookFile", Some("")).is_err());
        assert!(o.set("BookEvalWhiteLimit", Some("-200")).is_ok());
        assert_eq!(o.book.policy().white_limit, -200);
        assert!(o.set("BookIgnoreRate", Some("101")).is_err());
        assert!(o.set("NarrowBook", Some("maybe")).is_err());
        assert!(o.set("narrowbook", Some("TRUE")).is_ok());
        assert!(o.book.policy().narrow);
    }

    #[test]
    fn names_in_any_letter_case() {
        let mut o = Options::default();
        assert!(o.set("usi_hash", Some("32")).is_ok());
        assert!(o.set("HASH", Some("48")).is_ok());
        assert_eq!(o.hash_mb, 48);
        assert!(o.set("threads", Some("2")).is_ok());
        assert_eq!(o.threads, 2);
        assert!(o.set("usi_ponder", Some("True")).is_ok());
        assert!(o.ponder);
        assert!(o.set("enteringkingrule", Some("csarule24")).is_ok());
        assert_eq!(o.entering_king_rule, EnteringKingRule::Point24);
        let long = "y".repeat(100_000);
        let e = o.set(&long, Some("1")).unwrap_err();
        assert!(e.len() < 100, "{e}");
    }

    #[test]
    fn declarations_name_every_option() {
        let lines = Options::declarations().join("\n");
        for name in [
            "USI_Hash",
            "USI_Ponder",
            "Threads",
            "MultiPV",
            "NetworkDelay",
            "NetworkDelay2",
            "MinimumThinkingTime",
            "MaxMovesToDraw",
            "ResignValue",
            "EnteringKingRule",
            "SearchAlgorithm",
            "BadShapeCheck",
            "BadShapeMargin",
            "ABC_Delta",
            "ABC_Width",
            "Variant",
            "DobutsuDatabase",
            "EvalFile",
            "EvalDir",
            "FV_SCALE",
            "USI_OwnBook",
            "BookFile",
            "BookMoves",
            "BookIgnoreRate",
            "BookEvalDiff",
            "BookEvalBlackLimit",
            "BookEvalWhiteLimit",
            "BookDepthLimit",
            "ConsiderBookMoveCount",
            "NarrowBook",
            "IgnoreBookPly",
            "FlippedBook",
            "BookOnTheFly",
            "BookPvMoves",
            "RandomOpeningPly",
            "RandomOpeningMargin",
            "RandomOpeningWidth",
        ] {
            assert!(lines.contains(&format!("option name {name} ")), "{name}");
        }
    }
}
