//! The engine's USI options: their declarations (`option name … type …`), their
//! current values, and checked updates from `setoption`. Each option is declared
//! once, with its default, range and a line of documentation (`usi_options!`):
//! the engine's here, the book's in `super::book`, the search algorithms' in the
//! `search` crate's registry (`search::engine::ALGORITHMS`). docs/usi.md,
//! docs/book.md and docs/abc.md hold their tables, which a test compares with
//! the declarations.

use super::book::BookOptions;
use super::command::excerpt;
use super::declare::{usi_options, FromValue, Kind, Value};
use search::engine::{algorithm_option, ALGORITHMS};
use search::options::Spin;
use shogi::EnteringKingRule;
use shogi_game::EvalScales;

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
}

impl FromValue for Variant {
    fn from_value(value: Value<'_>) -> Option<Variant> {
        let Value::Combo(var) = value else { return None };
        Variant::ALL.iter().find(|(n, _)| *n == var).map(|&(_, v)| v)
    }
}

/// `EnteringKingRule`'s values.
const RULES: [(&str, EnteringKingRule); 3] = [
    ("NoEnteringKing", EnteringKingRule::None),
    ("CSARule24", EnteringKingRule::Point24),
    ("CSARule27", EnteringKingRule::Point27),
];

impl FromValue for EnteringKingRule {
    fn from_value(value: Value<'_>) -> Option<EnteringKingRule> {
        let Value::Combo(var) = value else { return None };
        RULES.iter().find(|(n, _)| *n == var).map(|&(_, r)| r)
    }
}

/// The names `SearchAlgorithm` takes: the registry's, in its order.
const ALGORITHM_NAMES: [&str; ALGORITHMS.len()] = {
    let mut names = [""; ALGORITHMS.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = ALGORITHMS[i].name;
        i += 1;
    }
    names
};

usi_options! {
    /// The engine's options as `setoption` left them.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Options {
        hash_mb: usize = ("USI_Hash", Kind::Spin { default: 64, min: 1, max: 65536 },
            "MiB for all the engine's tables together (see \"Memory\")");
        ponder: bool = ("USI_Ponder", Kind::Check { default: false },
            "think on the opponent's time; `bestmove … ponder …`");
        threads: usize = ("Threads", Kind::Spin { default: 1, min: 1, max: 256 },
            "search threads (Lazy SMP)");
        multipv: usize = ("MultiPV", Kind::Spin { default: 1, min: 1, max: 600 },
            "best lines reported");
        /// For a GUI on the same machine; see docs/usi.md for servers.
        network_delay: u64 = ("NetworkDelay", Kind::Spin { default: 0, min: 0, max: 10000 },
            "ms of usual lag, taken off the planned time");
        network_delay2: u64 = ("NetworkDelay2", Kind::Spin { default: 100, min: 0, max: 10000 },
            "ms of worst lag, kept back from the clock's edge");
        minimum_thinking_time: u64 = ("MinimumThinkingTime",
            Kind::Spin { default: 0, min: 0, max: 100000 },
            "ms a move is planned to take at least, as far as the clock allows");
        max_moves_to_draw: u32 = ("MaxMovesToDraw", Kind::Spin { default: 0, min: 0, max: 100000 },
            "the game is drawn at this move number (0: never)");
        resign_value: i32 = ("ResignValue", Kind::Spin { default: 99999, min: 0, max: 99999 },
            "resign when the score is this many centipawns down");
        entering_king_rule: EnteringKingRule = ("EnteringKingRule",
            Kind::Combo { default: "CSARule27", vars: &["NoEnteringKing", "CSARule24", "CSARule27"] },
            "the entering-king declaration's rule");
        /// One of the registry's algorithms (`search::engine::ALGORITHMS`).
        algorithm: &'static str = ("SearchAlgorithm",
            Kind::Combo { default: ALGORITHM_NAMES[0], vars: &ALGORITHM_NAMES },
            "the search the engine plays with (ABC's options: docs/abc.md)");
        /// The bad-shape check at the root, and its margin in centipawns.
        bad_shape_check: bool = ("BadShapeCheck", Kind::Check { default: false },
            "replace a bad-shape best move by a close one that is not (docs/bad-shape.md)");
        bad_shape_margin: i32 = ("BadShapeMargin", Kind::Spin { default: 150, min: 0, max: 10000 },
            "how much worse (centipawns) the replacement may score");
        /// The mate guard after each timed game move's search.
        mate_guard: bool = ("MateGuard", Kind::Check { default: false },
            "after a timed move's search, replace a move the checkmate solver proves allows a mate (a fortieth of the time)");
        /// The game played: shogi, or Dobutsu shogi.
        variant: Variant = ("Variant", Kind::Combo { default: "shogi", vars: &["shogi", "dobutsu"] },
            "the game: shogi, or Dobutsu shogi (docs/dobutsu.md)");
        /// Where the Dobutsu database is read from (a path relative to the
        /// engine's working directory).
        dobutsu_database: String = ("DobutsuDatabase",
            Kind::Text { default: crate::dobutsu_cmd::DEFAULT_DB },
            "the file `kyobo dobutsu solve` writes, for perfect Dobutsu play");
        /// The NNUE network's file (see [`Options::network_file`]).
        eval_file: String = ("EvalFile", Kind::Text { default: NO_EVAL_FILE },
            "an NNUE network in YaneuraOu's `nn.bin` format (halfKP 256x2-32-32) to evaluate with (docs/nnue.md); `none`: the handcrafted evaluation");
        eval_dir: String = ("EvalDir", Kind::Text { default: NO_EVAL_FILE },
            "YaneuraOu's name for it: the folder holding `nn.bin` (of the two, the one set last counts)");
        /// What the network's output is divided by (YaneuraOu's name; the
        /// format's own is 16).
        fv_scale: i32 = ("FV_SCALE",
            Kind::Spin { default: eval::nnue::network::OUTPUT_SCALE as i64, min: 1, max: 128 },
            "what the network's output is divided by; smaller spreads the values wider");
    }
    plain {
        /// The values of the search algorithms' options (`ABC_…`), as set.
        algorithm_values: Vec<(&'static str, i64)> = algorithm_defaults();
        /// The opening book and the opening variety without one (docs/book.md).
        book: BookOptions = BookOptions::default();
        /// The handcrafted evaluation's king-danger scales (`Tune_Danger…`,
        /// listed in a tuning build only).
        eval_scales: EvalScales = EvalScales::default();
    }
}

/// The evaluation's tunable scales as USI options: listed in a tuning build
/// (`--features tune`) only, as PVS's parameters are.
fn eval_scale_options() -> &'static [Spin] {
    if cfg!(feature = "tune") {
        EvalScales::OPTIONS
    } else {
        &[]
    }
}

/// Every option of the registry's algorithms at its default.
fn algorithm_defaults() -> Vec<(&'static str, i64)> {
    ALGORITHMS.iter().flat_map(|a| a.options).map(|s| (s.name, s.default)).collect()
}

impl Options {
    /// The NNUE network's file: `EvalFile`, or `nn.bin` in `EvalDir`, whichever
    /// was set last (setting one sets the other to `none`); `None`: the
    /// handcrafted evaluation.
    pub fn network_file(&self) -> Option<String> {
        let set = |v: &str| !v.eq_ignore_ascii_case(NO_EVAL_FILE);
        if set(&self.eval_file) {
            Some(self.eval_file.clone())
        } else if set(&self.eval_dir) {
            Some(std::path::Path::new(&self.eval_dir).join("nn.bin").to_string_lossy().into_owned())
        } else {
            None
        }
    }

    /// The manifest answered to shogiarena's `usi_tunables` in a tuning build:
    /// every listed algorithm option that declares a tuner's step (PVS's
    /// `Tune_…`, ABC's numbers, the evaluation's scales), as
    /// `shogiarena.usi_tunables.v1` JSON; `None` in an ordinary build, which
    /// offers nothing to tune.
    pub fn tunables_manifest() -> Option<String> {
        /// SPSA's learning rate at the last iteration, the same for every
        /// parameter (OpenBench's customary 0.002).
        const R_END: f64 = 0.002;
        if !cfg!(feature = "tune") {
            return None;
        }
        let tunables: Vec<serde_json::Value> = ALGORITHMS
            .iter()
            .flat_map(|a| a.options)
            .chain(eval_scale_options())
            .filter_map(|s| {
                let step = s.step?;
                Some(serde_json::json!({
                    "id": s.name,
                    "option": s.name,
                    "value_type": "int",
                    "encoding": "integer",
                    "default": s.default,
                    "min": s.min,
                    "max": s.max,
                    "schedule": { "c_end": step, "r_end": R_END },
                }))
            })
            .collect();
        (!tunables.is_empty()).then(|| {
            serde_json::json!({
                "schema_version": "shogiarena.usi_tunables.v1",
                "tunables": tunables,
            })
            .to_string()
        })
    }

    /// The `option …` lines answered to `usi`: the engine's, the algorithms',
    /// the book's.
    pub fn declarations() -> Vec<String> {
        Options::DECLARED
            .iter()
            .map(|d| d.usi_line())
            .chain(ALGORITHMS.iter().flat_map(|a| a.options).map(|s| s.usi_line()))
            .chain(eval_scale_options().iter().map(|s| s.usi_line()))
            .chain(BookOptions::DECLARED.iter().map(|d| d.usi_line()))
            .collect()
    }

    /// The option's own spelling for `name` in any letter case (`Hash` is
    /// `USI_Hash`, as some GUIs send it).
    fn canonical(name: &str) -> Option<&'static str> {
        let name = if name.eq_ignore_ascii_case("Hash") { "USI_Hash" } else { name };
        Options::DECLARED
            .iter()
            .chain(BookOptions::DECLARED)
            .map(|d| d.name)
            .find(|n| n.eq_ignore_ascii_case(name))
            .or_else(|| algorithm_option(name).map(|s| s.name))
            .or_else(|| search::options::find(eval_scale_options(), name).map(|s| s.name))
    }

    /// Applies `setoption`; on error nothing changes. Names and the values of
    /// check and combo options are read in any letter case.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let value = value.map(str::trim).unwrap_or("");
        let Some(name) = Options::canonical(name) else {
            return Err(format!("unknown option '{}'", excerpt(name)));
        };
        if let Some(spin) = algorithm_option(name) {
            let quoted = excerpt(value);
            let v: i64 =
                value.parse().map_err(|_| format!("{name} needs a number, not '{quoted}'"))?;
            spin.check(v)?;
            if let Some(slot) = self.algorithm_values.iter_mut().find(|(n, _)| *n == name) {
                slot.1 = v;
            }
            return Ok(());
        }
        if eval_scale_options().iter().any(|s| s.name == name) {
            let quoted = excerpt(value);
            let v: i64 =
                value.parse().map_err(|_| format!("{name} needs a number, not '{quoted}'"))?;
            return self.eval_scales.set(name, v);
        }
        if BookOptions::DECLARED.iter().any(|d| d.name == name) {
            return self.book.set_declared(name, value);
        }
        self.set_declared(name, value)?;
        // `EvalFile` and `EvalDir` name one network: the one set last counts.
        match name {
            "EvalFile" => self.eval_dir = NO_EVAL_FILE.to_string(),
            "EvalDir" => self.eval_file = NO_EVAL_FILE.to_string(),
            _ => {}
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
        assert_eq!(o.network_file(), None);
        assert!(o.set("evalfile", Some("nets/a.bin")).is_ok());
        assert_eq!(o.network_file().as_deref(), Some("nets/a.bin"));
        assert!(o.set("EvalDir", Some("eval")).is_ok());
        assert_eq!(o.network_file().as_deref(), Some("eval/nn.bin"), "the last set counts");
        assert!(o.set("EvalFile", Some("None")).is_ok());
        assert_eq!(o.network_file(), None);
        assert!(o.set("ABC_Width", Some("99")).is_err());
        assert!(o.set("ABC_Widht", Some("6")).unwrap_err().contains("unknown option 'ABC_Widht'"));
        assert!(o.algorithm_values.contains(&("ABC_Width", 6)));
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

    /// Every declaration's default fits the field it is declared for (the
    /// defaults are made from the declarations), and its kind's line reads back.
    #[test]
    fn every_declared_default_fits_and_reads_back() {
        let o = Options::default();
        assert_eq!(o.hash_mb, 64);
        assert_eq!(o.entering_king_rule, EnteringKingRule::Point27);
        assert_eq!(o.algorithm, "PVS");
        assert_eq!(o.book.eval_white_limit, -140);
        for d in Options::DECLARED.iter().chain(BookOptions::DECLARED) {
            let mut fresh = Options::default();
            let default = match d.kind {
                Kind::Check { default } => default.to_string(),
                Kind::Spin { default, .. } => default.to_string(),
                Kind::Combo { default, .. } | Kind::Text { default } => default.to_string(),
            };
            assert!(fresh.set(d.name, Some(&default)).is_ok(), "{}", d.name);
            assert_eq!(fresh, o, "{} set to its default changes nothing", d.name);
        }
    }

    /// The text of `docs/PAGE` between `<!-- options: NAME -->` and the next
    /// `<!-- end -->`.
    fn documented_table(page: &str, name: &str) -> String {
        let path = format!("{}/../../docs/{page}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let start = format!("<!-- options: {name} -->\n");
        let at = text.find(&start).unwrap_or_else(|| panic!("no '{start}' in {path}"));
        let rest = &text[at + start.len()..];
        rest[..rest.find("<!-- end -->").expect("the table's end")].to_string()
    }

    /// The options' tables in the documentation are the declarations' (a
    /// failure prints the table to put there).
    #[test]
    fn the_documented_tables_are_the_declarations() {
        use crate::usi::declare::doc_table;
        use search::pvs::params::PvsParams;
        let tables = [
            ("usi.md", "engine", doc_table(Options::DECLARED)),
            ("book.md", "book", doc_table(BookOptions::DECLARED)),
            ("abc.md", "abc", search::options::markdown_table(search::abc::AbcOptions::OPTIONS)),
            ("tuning.md", "pvs", search::options::markdown_table(PvsParams::OPTIONS)),
            ("tuning.md", "eval", search::options::markdown_table(EvalScales::OPTIONS)),
        ];
        for (page, name, declared) in tables {
            assert_eq!(
                documented_table(page, name),
                declared,
                "docs/{page}, table {name}:\n{declared}"
            );
        }
    }

    #[test]
    fn the_tunables_manifest_lists_the_tuning_parameters_with_their_steps() {
        let manifest = Options::tunables_manifest();
        if !cfg!(feature = "tune") {
            assert_eq!(manifest, None, "an ordinary build lists no tuning parameters");
            return;
        }
        let m: serde_json::Value =
            serde_json::from_str(&manifest.expect("a tuning build has some")).expect("JSON");
        assert_eq!(m["schema_version"], "shogiarena.usi_tunables.v1");
        let tunables = m["tunables"].as_array().expect("a list");
        let lmr = tunables.iter().find(|t| t["id"] == "Tune_LmrDiv").expect("Tune_LmrDiv");
        assert_eq!(
            (&lmr["option"], &lmr["default"], &lmr["min"], &lmr["max"]),
            (
                &serde_json::json!("Tune_LmrDiv"),
                &serde_json::json!(220),
                &serde_json::json!(50),
                &serde_json::json!(1000)
            )
        );
        assert_eq!(lmr["schedule"]["c_end"], 15);
        let scale = tunables.iter().find(|t| t["id"] == "Tune_DangerScale").expect("danger");
        assert_eq!(
            (&scale["default"], &scale["min"]),
            (&serde_json::json!(12), &serde_json::json!(1))
        );
        // ABC's numbers are there with their steps; its switches are not.
        let delta = tunables.iter().find(|t| t["id"] == "ABC_Delta").expect("ABC_Delta");
        assert_eq!(
            (&delta["default"], &delta["schedule"]["c_end"]),
            (&serde_json::json!(750), &serde_json::json!(50))
        );
        assert!(!tunables.iter().any(|t| t["id"] == "ABC_EarlyCut"), "a switch is not tuned");
        assert!(tunables.iter().all(|t| t["id"]
            .as_str()
            .is_some_and(|id| id.starts_with("Tune_") || id.starts_with("ABC_"))));
    }

    /// The evaluation's scales are options of a tuning build only; there they
    /// are checked like any other.
    #[test]
    fn eval_scales_are_set_in_a_tuning_build_only() {
        let mut o = Options::default();
        let set = o.set("tune_dangerscale", Some("20"));
        if !cfg!(feature = "tune") {
            assert!(set.unwrap_err().contains("unknown option"));
            assert_eq!(o, Options::default());
            return;
        }
        assert!(set.is_ok());
        assert_eq!(o.eval_scales.scale, 20);
        assert!(o.set("Tune_DangerScale", Some("0")).is_err());
        assert!(o.set("Tune_DangerScale", Some("lots")).is_err());
        assert_eq!(o.eval_scales.scale, 20);
        assert!(Options::declarations().iter().any(|l| l.contains("name Tune_DangerCap ")));
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
            "MateGuard",
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
