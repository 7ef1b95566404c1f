//! Keys whose value is one name out of a fixed set (`[review] runtime`, `[audit] test_failure`,
//! `[loop] gate`, the backends, the kinds): typed in [`super::Settings`], spelt as text in the
//! files. An unknown name fails the load with the key, the name and the names it could be; the
//! effective configuration (`retake config show`) prints the same spelling back.

use protocol::message::{Backend, ExecutorMode, RuleProfile, TestFailurePolicy};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serializer};
use team::gate::GateKind;

/// A setting's value out of a fixed set of names.
pub trait Choice: Sized + Copy + 'static {
    /// Every value, in the order an error message lists them.
    const ALL: &'static [Self];
    /// Its spelling in the configuration.
    fn name(self) -> &'static str;
}

/// The names `T` can take, as an error message lists them (`a, b or c`).
pub fn expected<T: Choice>() -> String {
    let names: Vec<&str> = T::ALL.iter().map(|c| c.name()).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.concat(),
    }
}

/// The value `raw` names for `key`, or the message that says what it could be.
pub fn parse<T: Choice>(key: &str, raw: &str) -> Result<T, String> {
    T::ALL
        .iter()
        .copied()
        .find(|c| c.name() == raw)
        .ok_or_else(|| format!("{key} = '{raw}' (expected {})", expected::<T>()))
}

/// Reads a name for `key` (any scalar the configuration layers give, as text).
pub fn deserialize<'de, T: Choice, D: Deserializer<'de>>(d: D, key: &str) -> Result<T, D::Error> {
    let raw = String::deserialize(d)?;
    parse(key, &raw).map_err(D::Error::custom)
}

/// Reads an optional name for `key`.
pub fn deserialize_opt<'de, T: Choice, D: Deserializer<'de>>(
    d: D,
    key: &str,
) -> Result<Option<T>, D::Error> {
    Option::<String>::deserialize(d)?
        .map(|raw| parse(key, &raw).map_err(D::Error::custom))
        .transpose()
}

/// Writes the name.
pub fn serialize<T: Choice, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(value.name())
}

/// Writes the optional name.
pub fn serialize_opt<T: Choice, S: Serializer>(value: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
    match value {
        Some(v) => s.serialize_some(v.name()),
        None => s.serialize_none(),
    }
}

/// A serde `with` module for a key: `key!(module, Type, "section.key")`, and `key!(module,
/// opt Type, "section.key")` for an optional one.
macro_rules! key {
    ($module:ident, opt $ty:ty, $key:literal) => {
        pub(crate) mod $module {
            #[allow(unused_imports)]
            use super::*;
            use $crate::config::choice;
            /// Writes the name.
            pub(in crate::config) fn serialize<S: serde::Serializer>(
                v: &Option<$ty>,
                s: S,
            ) -> Result<S::Ok, S::Error> {
                choice::serialize_opt(v, s)
            }
            /// Reads the name, refusing one the key cannot take.
            pub(in crate::config) fn deserialize<'de, D: serde::Deserializer<'de>>(
                d: D,
            ) -> Result<Option<$ty>, D::Error> {
                choice::deserialize_opt(d, $key)
            }
        }
    };
    ($module:ident, $ty:ty, $key:literal) => {
        pub(crate) mod $module {
            #[allow(unused_imports)]
            use super::*;
            use $crate::config::choice;
            /// Writes the name.
            pub(in crate::config) fn serialize<S: serde::Serializer>(
                v: &$ty,
                s: S,
            ) -> Result<S::Ok, S::Error> {
                choice::serialize(v, s)
            }
            /// Reads the name, refusing one the key cannot take.
            pub(in crate::config) fn deserialize<'de, D: serde::Deserializer<'de>>(
                d: D,
            ) -> Result<$ty, D::Error> {
                choice::deserialize(d, $key)
            }
        }
    };
}
pub(crate) use key;

impl Choice for host::Runtime {
    const ALL: &'static [Self] = &host::Runtime::ALL;
    fn name(self) -> &'static str {
        host::Runtime::name(self)
    }
}

impl Choice for TestFailurePolicy {
    const ALL: &'static [Self] = &[TestFailurePolicy::NoGo, TestFailurePolicy::Conditional];
    fn name(self) -> &'static str {
        self.as_str()
    }
}

impl Choice for RuleProfile {
    const ALL: &'static [Self] = &[RuleProfile::Default, RuleProfile::Pedantic];
    fn name(self) -> &'static str {
        self.as_str()
    }
}

impl Choice for Backend {
    const ALL: &'static [Self] = &[Backend::Builtin, Backend::Agent, Backend::Both];
    fn name(self) -> &'static str {
        match self {
            Backend::Builtin => "builtin",
            Backend::Agent => "agent",
            Backend::Both => "both",
        }
    }
}

impl Choice for ExecutorMode {
    const ALL: &'static [Self] = &[
        ExecutorMode::Agent,
        ExecutorMode::Script,
        ExecutorMode::Builtin,
        ExecutorMode::Chat,
    ];
    fn name(self) -> &'static str {
        match self {
            ExecutorMode::Agent => "agent",
            ExecutorMode::Script => "script",
            ExecutorMode::Builtin => "builtin",
            ExecutorMode::Chat => "chat",
        }
    }
}

impl Choice for GateKind {
    const ALL: &'static [Self] = &[GateKind::Sdd, GateKind::Breezing];
    fn name(self) -> &'static str {
        GateKind::name(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_name_is_refused_with_the_key_and_every_name_it_could_be() {
        assert_eq!(
            parse::<host::Runtime>("review.runtime", "docker").unwrap_err(),
            "review.runtime = 'docker' (expected local, inproc or remote)"
        );
        assert_eq!(
            parse::<GateKind>("loop.gate", "strict").unwrap_err(),
            "loop.gate = 'strict' (expected sdd or breezing)"
        );
        assert_eq!(parse::<Backend>("k", "both"), Ok(Backend::Both));
    }

    #[test]
    fn every_name_reads_back_as_its_value() {
        fn round_trip<T: Choice + PartialEq + std::fmt::Debug>() {
            for v in T::ALL {
                assert_eq!(parse::<T>("k", v.name()), Ok(*v));
            }
        }
        round_trip::<host::Runtime>();
        round_trip::<TestFailurePolicy>();
        round_trip::<RuleProfile>();
        round_trip::<Backend>();
        round_trip::<ExecutorMode>();
        round_trip::<GateKind>();
    }
}
