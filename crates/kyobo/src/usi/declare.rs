//! USI options declared once. `usi_options!` makes from one list, a line per
//! option (field, type, USI name, kind with default and range, one line of
//! documentation): the options' struct, its `Default`, the declarations (from
//! which the `option …` lines answered to `usi` and the documentation's table are
//! written) and the checked `setoption` of each.

/// What a USI option holds, with its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `type check`.
    Check { default: bool },
    /// `type spin`.
    Spin { default: i64, min: i64, max: i64 },
    /// `type combo`: one of `vars`, read in any letter case.
    Combo { default: &'static str, vars: &'static [&'static str] },
    /// `type string`: any text but the empty one.
    Text { default: &'static str },
}

/// One option: its USI name, kind and what it does (a line of documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Declared {
    pub name: &'static str,
    pub kind: Kind,
    pub doc: &'static str,
}

/// A value `setoption` gave, checked against its declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value<'a> {
    Check(bool),
    Spin(i64),
    /// The combo's own spelling of the value.
    Combo(&'static str),
    Text(&'a str),
}

impl Kind {
    /// The default as a value.
    pub fn default_value(self) -> Value<'static> {
        match self {
            Kind::Check { default } => Value::Check(default),
            Kind::Spin { default, .. } => Value::Spin(default),
            Kind::Combo { default, .. } => Value::Combo(default),
            Kind::Text { default } => Value::Text(default),
        }
    }
}

impl Declared {
    /// The `option …` line answered to `usi`.
    pub fn usi_line(&self) -> String {
        let name = self.name;
        match self.kind {
            Kind::Check { default } => format!("option name {name} type check default {default}"),
            Kind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            Kind::Combo { default, vars } => {
                let vars: Vec<String> = vars.iter().map(|v| format!("var {v}")).collect();
                format!("option name {name} type combo default {default} {}", vars.join(" "))
            }
            Kind::Text { default } => format!("option name {name} type string default {default}"),
        }
    }

    /// The row of the documentation's table: `| option | default | values | what it does |`.
    #[cfg(test)]
    pub fn doc_row(&self) -> String {
        let (default, values) = match self.kind {
            Kind::Check { default } => (default.to_string(), "true, false".to_string()),
            Kind::Spin { default, min, max } => (default.to_string(), format!("{min} to {max}")),
            Kind::Combo { default, vars } => (default.to_string(), vars.join(", ")),
            Kind::Text { default } => (default.to_string(), "text".to_string()),
        };
        format!("| `{}` | {default} | {values} | {} |", self.name, self.doc)
    }

    /// `text` as this option's value, or why it is not one (quoting at most a
    /// short excerpt of it).
    pub fn parse<'a>(&self, text: &'a str) -> Result<Value<'a>, String> {
        let name = self.name;
        let quoted = super::command::excerpt(text);
        match self.kind {
            Kind::Check { .. } => match text.to_ascii_lowercase().as_str() {
                "true" => Ok(Value::Check(true)),
                "false" => Ok(Value::Check(false)),
                _ => Err(format!("{name} must be true or false, not '{quoted}'")),
            },
            Kind::Spin { min, max, .. } => {
                let v: i64 =
                    text.parse().map_err(|_| format!("{name} needs a number, not '{quoted}'"))?;
                if v < min || v > max {
                    return Err(format!("{name} must be between {min} and {max}, not {v}"));
                }
                Ok(Value::Spin(v))
            }
            Kind::Combo { vars, .. } => vars
                .iter()
                .find(|v| v.eq_ignore_ascii_case(text))
                .map(|v| Value::Combo(v))
                .ok_or_else(|| format!("unknown {name} '{quoted}' ({})", vars.join(", "))),
            Kind::Text { .. } if text.is_empty() => Err(format!("{name} needs a value")),
            Kind::Text { .. } => Ok(Value::Text(text)),
        }
    }
}

/// The documentation's table of `declared`.
#[cfg(test)]
pub fn doc_table(declared: &[Declared]) -> String {
    let mut table =
        String::from("| option | default | values | what it does |\n|---|---|---|---|\n");
    for d in declared {
        table.push_str(&d.doc_row());
        table.push('\n');
    }
    table
}

/// A field's type as an option's value. Each field is declared with the kind
/// its type takes, which a unit test checks for every declaration.
pub trait FromValue: Sized {
    fn from_value(value: Value<'_>) -> Option<Self>;
}

impl FromValue for bool {
    fn from_value(value: Value<'_>) -> Option<bool> {
        match value {
            Value::Check(on) => Some(on),
            _ => None,
        }
    }
}

macro_rules! spin_field {
    ($($ty:ty),*) => {$(
        impl FromValue for $ty {
            fn from_value(value: Value<'_>) -> Option<$ty> {
                match value {
                    Value::Spin(v) => <$ty>::try_from(v).ok(),
                    _ => None,
                }
            }
        }
    )*};
}
spin_field!(usize, u64, u32, i32, i64);

impl FromValue for String {
    fn from_value(value: Value<'_>) -> Option<String> {
        match value {
            Value::Text(text) => Some(text.to_string()),
            _ => None,
        }
    }
}

impl FromValue for &'static str {
    fn from_value(value: Value<'_>) -> Option<&'static str> {
        match value {
            Value::Combo(var) => Some(var),
            _ => None,
        }
    }
}

/// Declares a struct of USI options, one line each:
///
/// ```ignore
/// usi_options! {
///     pub struct Opts {
///         /// The field's doc.
///         hash_mb: usize = ("USI_Hash", Kind::Spin { default: 64, min: 1, max: 65536 },
///             "MiB for the tables");
///     }
///     plain {}
/// }
/// ```
///
/// makes `Opts` with `pub hash_mb: usize`, `Default`, `Opts::DECLARED` (in
/// order) and `Opts::set_declared(name, text)`, which takes the option's own
/// spelling and refuses a value its kind does not allow, changing nothing.
/// Fields that are no option follow in a block `plain { field: Type = default; }`
/// (empty where there are none).
macro_rules! usi_options {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $(#[doc = $doc:literal])*
                $field:ident : $ty:ty = ($usi:literal, $kind:expr, $line:literal);
            )*
        }
        plain {
            $(
                $(#[doc = $pdoc:literal])*
                $pfield:ident : $pty:ty = $pdefault:expr;
            )*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $( $(#[doc = $doc])* pub $field: $ty, )*
            $( $(#[doc = $pdoc])* pub $pfield: $pty, )*
        }

        impl $name {
            /// Every option's declaration, in the order `usi` answers them.
            pub const DECLARED: &'static [$crate::usi::declare::Declared] = &[
                $( $crate::usi::declare::Declared { name: $usi, kind: $kind, doc: $line }, )*
            ];

            /// Sets the option `name` (its own spelling) from `text`; a value its
            /// kind does not allow is an error and changes nothing.
            pub fn set_declared(&mut self, name: &str, text: &str) -> Result<(), String> {
                let Some(declared) = Self::DECLARED.iter().find(|d| d.name == name) else {
                    return Err(format!("unknown option '{name}'"));
                };
                let value = declared.parse(text)?;
                $( if declared.name == $usi {
                    self.$field = $crate::usi::declare::FromValue::from_value(value)
                        .ok_or_else(|| format!("{name} cannot hold {value:?}"))?;
                } )*
                Ok(())
            }
        }

        impl Default for $name {
            fn default() -> Self {
                $name {
                    $( $field: $crate::usi::declare::FromValue::from_value(
                        ($kind).default_value(),
                    ).expect(concat!("the default of ", $usi, " fits its field")), )*
                    $( $pfield: $pdefault, )*
                }
            }
        }
    };
}

pub(crate) use usi_options;
