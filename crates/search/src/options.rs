//! The numeric options of the search algorithms, each declared once: its USI
//! name, default, range and one line of documentation. The `spin_options!` macro
//! makes from one list the options' struct (a typed field each), its `Default`,
//! the declarations ([`Spin`]s, from which the USI `option` lines and the
//! documentation's table are written) and `set`, which checks a value against
//! its declaration.

/// One numeric option (a USI `spin`; a switch is a spin from 0 to 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spin {
    /// The USI name (`ABC_Width`).
    pub name: &'static str,
    pub default: i64,
    pub min: i64,
    pub max: i64,
    /// A tuner's step: how far SPSA moves the value to either side when it
    /// measures (its `c_end`); `None` for an option that is not for tuning.
    pub step: Option<i64>,
    /// What it does, in one line (the documentation table's last column).
    pub doc: &'static str,
}

impl Spin {
    /// The `option …` line answered to `usi`.
    pub fn usi_line(&self) -> String {
        format!(
            "option name {} type spin default {} min {} max {}",
            self.name, self.default, self.min, self.max
        )
    }

    /// `value` if it is within the range, else why not.
    pub fn check(&self, value: i64) -> Result<i64, String> {
        if value < self.min || value > self.max {
            return Err(format!(
                "{} must be between {} and {}, not {value}",
                self.name, self.min, self.max
            ));
        }
        Ok(value)
    }
}

/// The declaration named `name` in any letter case.
pub fn find<'a>(spins: &'a [Spin], name: &str) -> Option<&'a Spin> {
    spins.iter().find(|s| s.name.eq_ignore_ascii_case(name))
}

/// The documentation's table of `spins`: `| option | default | range | what it
/// does |`, with a `step` column before the last where the options have steps.
pub fn markdown_table(spins: &[Spin]) -> String {
    let steps = spins.iter().any(|s| s.step.is_some());
    let mut table = if steps {
        String::from("| option | default | range | step | what it does |\n|---|---|---|---|---|\n")
    } else {
        String::from("| option | default | range | what it does |\n|---|---|---|---|\n")
    };
    for s in spins {
        let step = match (steps, s.step) {
            (false, _) => String::new(),
            (true, Some(step)) => format!(" {step} |"),
            (true, None) => " – |".to_string(),
        };
        table.push_str(&format!(
            "| `{}` | {} | {} to {} |{step} {} |\n",
            s.name, s.default, s.min, s.max, s.doc
        ));
    }
    table
}

/// A field's type as a spin's value: numbers convert, a switch is `value != 0`.
pub trait FromSpin {
    fn from_spin(value: i64) -> Self;
}

impl FromSpin for bool {
    fn from_spin(value: i64) -> bool {
        value != 0
    }
}

impl FromSpin for i32 {
    fn from_spin(value: i64) -> i32 {
        value.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }
}

impl FromSpin for usize {
    fn from_spin(value: i64) -> usize {
        value.max(0) as usize
    }
}

/// Declares a struct of spin options, one line each:
///
/// ```ignore
/// spin_options! {
///     /// The struct's doc.
///     pub struct Opts {
///         /// The field's doc.
///         width: usize = ("ABC_Width", 12, 1, 20, "moves a node keeps by key");
///         /// A tuned one: its step follows the range.
///         margin: i32 = ("Tune_Margin", 100, 0, 500, step 10, "a margin");
///     }
/// }
/// ```
///
/// makes `Opts` with `pub width: usize`, `Default` (12), `Opts::OPTIONS` (the
/// [`Spin`]s in order) and `Opts::set(name, value)`, which takes a name in any
/// letter case and refuses an unknown name or a value out of range, changing
/// nothing.
#[macro_export]
macro_rules! spin_options {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $(#[doc = $doc:literal])*
                $field:ident : $ty:ty = ($usi:literal, $default:expr, $min:expr, $max:expr, $(step $step:expr,)? $line:literal);
            )*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $( $(#[doc = $doc])* pub $field: $ty, )*
        }

        impl $name {
            /// Every option's declaration, in order.
            pub const OPTIONS: &'static [$crate::options::Spin] = &[
                $( $crate::options::Spin {
                    name: $usi,
                    default: $default,
                    min: $min,
                    max: $max,
                    step: $crate::spin_step!($($step)?),
                    doc: $line,
                }, )*
            ];

            /// Sets the option `name` (any letter case) to `value`; an unknown
            /// name or a value out of range is an error and changes nothing.
            pub fn set(&mut self, name: &str, value: i64) -> Result<(), String> {
                let Some(spin) = $crate::options::find(Self::OPTIONS, name) else {
                    return Err(format!("unknown option '{name}'"));
                };
                let value = spin.check(value)?;
                $( if spin.name == $usi {
                    self.$field = $crate::options::FromSpin::from_spin(value);
                } )*
                Ok(())
            }
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $( $field: $crate::options::FromSpin::from_spin($default), )* }
            }
        }
    };
}

/// A declaration's step: `None` where none is given (see [`spin_options!`]).
#[doc(hidden)]
#[macro_export]
macro_rules! spin_step {
    () => {
        None
    };
    ($step:expr) => {
        Some($step)
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    spin_options! {
        /// Two options for the tests.
        #[derive(Clone, Debug, PartialEq)]
        pub struct Two {
            /// A width.
            width: usize = ("T_Width", 12, 1, 20, "how wide");
            /// A switch.
            on: bool = ("T_On", 1, 0, 1, "whether on");
        }
    }

    spin_options! {
        /// Tuned options.
        #[derive(Clone, Debug, PartialEq)]
        pub struct Tuned {
            /// A margin.
            margin: i32 = ("T_Margin", 100, 0, 500, step 10, "a margin");
            /// A switch, not tuned.
            on: bool = ("T_On", 1, 0, 1, "whether on");
        }
    }

    #[test]
    fn a_step_is_declared_with_the_range_and_shown_in_the_table() {
        let mut t = Tuned::default();
        assert!(t.set("T_Margin", 110).is_ok());
        assert_eq!(t, Tuned { margin: 110, on: true });
        assert_eq!(Tuned::OPTIONS[0].step, Some(10));
        assert_eq!(Tuned::OPTIONS[1].step, None);
        assert_eq!(Two::OPTIONS[0].step, None);
        assert_eq!(
            markdown_table(Tuned::OPTIONS),
            "| option | default | range | step | what it does |\n|---|---|---|---|---|\n\
             | `T_Margin` | 100 | 0 to 500 | 10 | a margin |\n| `T_On` | 1 | 0 to 1 | – | whether on |\n"
        );
    }

    #[test]
    fn one_declaration_gives_defaults_names_ranges_and_checked_updates() {
        let mut t = Two::default();
        assert_eq!(t, Two { width: 12, on: true });
        assert_eq!(Two::OPTIONS.len(), 2);
        assert_eq!(
            Two::OPTIONS[0].usi_line(),
            "option name T_Width type spin default 12 min 1 max 20"
        );
        assert!(t.set("t_width", 7).is_ok());
        assert!(t.set("T_On", 0).is_ok());
        assert_eq!(t, Two { width: 7, on: false });
        assert_eq!(t.set("T_Width", 21).unwrap_err(), "T_Width must be between 1 and 20, not 21");
        assert_eq!(t.set("T_Widht", 5).unwrap_err(), "unknown option 'T_Widht'");
        assert_eq!(t, Two { width: 7, on: false }, "nothing changed");
        assert_eq!(
            markdown_table(Two::OPTIONS),
            "| option | default | range | what it does |\n|---|---|---|---|\n\
             | `T_Width` | 12 | 1 to 20 | how wide |\n| `T_On` | 1 | 0 to 1 | whether on |\n"
        );
    }
}
