//! Concrete values shown in a counterexample: the entry's arguments, call arguments, assigned and
//! returned values.
//!
//! Numbers, the null pointer and pointers into an input heap, written as in the heap document of
//! `docs/heap-json.md` (`7`, `null`, `{"ref": "o1"}`), so a witness's arguments read the same as
//! its `heap`. [`Args`] keeps the entry's arguments in parameter order, which is also
//! their key order in JSON, so `symex run --args` can take them back in order. Plain data: nothing
//! here evaluates or renders whole reports.

use std::fmt;

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One concrete value of a counterexample. In JSON a number is a plain number, the null pointer
/// is `null` and a pointer to object `o1` is `{"ref": "o1"}`. Trace steps also show whole
/// records (`{"record": {"val": 1}}`, the heap document's form of a record object), arrays
/// (`{"array": [1, 2]}`) and values never assigned (`"uninit"`); arguments and heap
/// documents hold only the first three forms.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum ArgValue {
    Int(i64),
    Null,
    Ref {
        #[serde(rename = "ref")]
        object: String,
    },
    Record {
        record: Fields,
    },
    Array {
        array: Vec<ArgValue>,
    },
    Uninit(Uninit),
}

/// A record's fields in order, name to value (`Args` in another role: the same ordered map).
pub type Fields = Args;

/// The JSON form of a value never assigned: the string `"uninit"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Uninit;

impl Serialize for Uninit {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str("uninit")
    }
}

impl<'de> Deserialize<'de> for Uninit {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Uninit, D::Error> {
        let text = String::deserialize(deserializer)?;
        match text.as_str() {
            "uninit" => Ok(Uninit),
            other => Err(serde::de::Error::custom(format!(
                "expected \"uninit\", found {other:?}"
            ))),
        }
    }
}

impl ArgValue {
    /// Whether the value is one an argument or a heap document can hold (a number, null or a
    /// reference).
    pub fn is_scalar(&self) -> bool {
        matches!(
            self,
            ArgValue::Int(_) | ArgValue::Null | ArgValue::Ref { .. }
        )
    }
}

impl fmt::Display for ArgValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgValue::Int(n) => write!(f, "{n}"),
            ArgValue::Null => f.write_str("null"),
            ArgValue::Ref { object } => write!(f, "&{object}"),
            ArgValue::Record { record } => {
                f.write_str("{")?;
                for (i, (name, value)) in record.iter().enumerate() {
                    let sep = if i == 0 { "" } else { ", " };
                    write!(f, "{sep}{name}: {value}")?;
                }
                f.write_str("}")
            }
            ArgValue::Array { array } => {
                f.write_str("[")?;
                for (i, value) in array.iter().enumerate() {
                    let sep = if i == 0 { "" } else { ", " };
                    write!(f, "{sep}{value}")?;
                }
                f.write_str("]")
            }
            ArgValue::Uninit(_) => f.write_str("?"),
        }
    }
}

/// The entry function's arguments: name → value, in parameter order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Args(Vec<(String, ArgValue)>);

impl Args {
    pub fn new() -> Args {
        Args::default()
    }

    /// Appends the next parameter's value.
    pub fn push(&mut self, name: impl Into<String>, value: ArgValue) {
        self.0.push((name.into(), value));
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &ArgValue)> {
        self.0.iter().map(|(name, value)| (name.as_str(), value))
    }

    /// The value of the parameter called `name`.
    pub fn get(&self, name: &str) -> Option<&ArgValue> {
        self.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<N: Into<String>> FromIterator<(N, ArgValue)> for Args {
    fn from_iter<I: IntoIterator<Item = (N, ArgValue)>>(iter: I) -> Args {
        Args(
            iter.into_iter()
                .map(|(name, value)| (name.into(), value))
                .collect(),
        )
    }
}

impl Serialize for Args {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Args {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Args, D::Error> {
        struct ArgsVisitor;

        impl<'de> Visitor<'de> for ArgsVisitor {
            type Value = Args;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object mapping parameter names to values")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Args, A::Error> {
                let mut args = Args::new();
                while let Some((name, value)) = map.next_entry::<String, ArgValue>()? {
                    if args.get(&name).is_some() {
                        return Err(serde::de::Error::custom(format!(
                            "argument `{name}` appears twice"
                        )));
                    }
                    args.push(name, value);
                }
                Ok(args)
            }
        }

        deserializer.deserialize_map(ArgsVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn args_keep_parameter_order_in_json() {
        let args: Args = [("y", ArgValue::Int(2)), ("x", ArgValue::Int(-1))]
            .into_iter()
            .collect();
        let json = serde_json::to_string(&args).unwrap();
        assert_eq!(json, r#"{"y":2,"x":-1}"#);
        let back: Args = serde_json::from_str(&json).unwrap();
        assert_eq!(back, args);
        assert_eq!(back.get("x"), Some(&ArgValue::Int(-1)));
        assert_eq!(back.len(), 2);
    }

    #[test]
    fn duplicate_and_non_numeric_arguments_are_rejected() {
        assert!(serde_json::from_str::<Args>(r#"{"x":1,"x":2}"#).is_err());
        assert!(serde_json::from_str::<Args>(r#"{"x":"one"}"#).is_err());
        // Numbers are 64-bit (a trace shows C's `long long`); an entry's arguments are 32-bit,
        // which the replay checks.
        assert!(serde_json::from_str::<Args>(r#"{"x":18446744073709551616}"#).is_err());
    }

    #[test]
    fn values_display_as_numbers() {
        assert_eq!(ArgValue::Int(-7).to_string(), "-7");
        assert!(Args::new().is_empty());
    }

    #[test]
    fn pointers_are_written_as_in_the_heap_document() {
        let args: Args = [
            (
                "p",
                ArgValue::Ref {
                    object: "o1".into(),
                },
            ),
            ("q", ArgValue::Null),
            ("n", ArgValue::Int(3)),
        ]
        .into_iter()
        .collect();
        let json = serde_json::to_string(&args).unwrap();
        assert_eq!(json, r#"{"p":{"ref":"o1"},"q":null,"n":3}"#);
        assert_eq!(serde_json::from_str::<Args>(&json).unwrap(), args);
        assert_eq!(ArgValue::Null.to_string(), "null");
        assert_eq!(
            ArgValue::Ref {
                object: "o1".into()
            }
            .to_string(),
            "&o1"
        );
    }
}
