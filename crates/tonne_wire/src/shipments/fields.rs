//! Reading a row's JSON value field by field, each error naming the field's
//! path (`legs[1].method.vehicle_type`): the object walker the decoder is
//! written with. `null` is refused wherever the contract's field is not
//! nullable, and every object refuses fields its model does not have.

use rust_decimal::Decimal;
use serde_json::{Map, Value};
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, OffsetDateTime};
use tonne_shipments::RowError;

/// Most characters of a free-text field (references, names, ids).
pub const MAX_TEXT: usize = 1_000;

/// The path of `name` under `parent` (`parent.name`, or `name` at the root).
pub fn join(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_owned()
    } else {
        format!("{parent}.{name}")
    }
}

/// The path of item `i` of the array at `parent` (`parent[i]`).
pub fn item(parent: &str, i: usize) -> String {
    format!("{parent}[{i}]")
}

/// "must be one of: a, b" for short lists, else a count and the model's name.
fn one_of(value: &str, list: &[&str], model: &str) -> String {
    if list.len() <= 16 {
        format!("'{value}' is not one of: {}", list.join(", "))
    } else {
        format!(
            "'{value}' is not one of the {} values of {model}",
            list.len()
        )
    }
}

/// A value of a closed vocabulary, or the error naming `field`.
pub fn vocab(field: &str, value: &str, list: &[&str], model: &str) -> Result<(), RowError> {
    if list.contains(&value) {
        Ok(())
    } else {
        Err(RowError::new(field, one_of(value, list, model)))
    }
}

/// A contract decimal string (`^[0-9]+(\.[0-9]+)?$`, non-negative).
pub fn decimal(field: &str, raw: &str) -> Result<Decimal, RowError> {
    tonne_estimation::parse_amount(field, raw).map_err(|_| {
        RowError::new(
            field,
            "must be a non-negative decimal string such as \"12.5\" (at most 12 digits either side of the point)",
        )
    })
}

/// A `YYYY-MM-DD` date.
pub fn date(field: &str, raw: &str) -> Result<Date, RowError> {
    Date::parse(raw, format_description!("[year]-[month]-[day]"))
        .map_err(|_| RowError::new(field, "must be a date (YYYY-MM-DD)"))
}

/// A date (`YYYY-MM-DD`) or an RFC 3339 date-time: its calendar date as written.
pub fn date_or_datetime(field: &str, raw: &str) -> Result<Date, RowError> {
    if raw.len() == 10 {
        return date(field, raw);
    }
    OffsetDateTime::parse(raw, &Rfc3339)
        .map(OffsetDateTime::date)
        .map_err(|_| {
            RowError::new(
                field,
                "must be a date (YYYY-MM-DD) or an RFC 3339 date-time",
            )
        })
}

/// An object of the row at `path`.
#[derive(Debug, Clone, Copy)]
pub struct Obj<'a> {
    path: &'a str,
    map: &'a Map<String, Value>,
}

impl<'a> Obj<'a> {
    /// `value` as an object whose fields are all in `allowed` (`model` names
    /// it in errors).
    pub fn new(
        path: &'a str,
        value: &'a Value,
        model: &str,
        allowed: &[&str],
    ) -> Result<Self, RowError> {
        let map = value.as_object().ok_or_else(|| {
            RowError::new(
                if path.is_empty() { "row" } else { path },
                format!("must be an object ({model})"),
            )
        })?;
        if let Some(unknown) = map.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(RowError::new(
                join(path, unknown),
                format!("is not a field of {model}"),
            ));
        }
        Ok(Self { path, map })
    }

    /// Whether the object has the field (even `null`).
    pub fn has(&self, name: &str) -> bool {
        self.map.contains_key(name)
    }

    /// The path of a field.
    pub fn field(&self, name: &str) -> String {
        join(self.path, name)
    }

    /// A field that may be absent but not `null`.
    pub fn get(&self, name: &str) -> Result<Option<&'a Value>, RowError> {
        match self.map.get(name) {
            None => Ok(None),
            Some(Value::Null) => Err(RowError::new(self.field(name), "must not be null")),
            Some(v) => Ok(Some(v)),
        }
    }

    /// A field that may be absent or `null` (both `None`).
    pub fn get_nullable(&self, name: &str) -> Option<&'a Value> {
        self.map.get(name).filter(|v| !v.is_null())
    }

    /// A required field.
    pub fn required(&self, name: &str) -> Result<&'a Value, RowError> {
        self.get(name)?
            .ok_or_else(|| RowError::new(self.field(name), "is required"))
    }

    fn as_str(&self, name: &str, v: &'a Value) -> Result<&'a str, RowError> {
        let s = v
            .as_str()
            .ok_or_else(|| RowError::new(self.field(name), "must be a string"))?;
        if s.chars().count() > MAX_TEXT {
            return Err(RowError::new(
                self.field(name),
                format!("must have at most {MAX_TEXT} characters"),
            ));
        }
        Ok(s)
    }

    /// An optional string.
    pub fn string(&self, name: &str) -> Result<Option<&'a str>, RowError> {
        self.get(name)?.map(|v| self.as_str(name, v)).transpose()
    }

    /// An optional, non-empty string.
    pub fn text(&self, name: &str) -> Result<Option<&'a str>, RowError> {
        match self.string(name)? {
            Some(s) if s.trim().is_empty() => {
                Err(RowError::new(self.field(name), "must not be empty"))
            }
            other => Ok(other),
        }
    }

    /// A required, non-empty string.
    pub fn required_text(&self, name: &str) -> Result<&'a str, RowError> {
        self.text(name)?
            .ok_or_else(|| RowError::new(self.field(name), "is required"))
    }

    /// An optional string of a closed vocabulary.
    pub fn choice(
        &self,
        name: &str,
        list: &[&str],
        model: &str,
    ) -> Result<Option<&'a str>, RowError> {
        let Some(s) = self.string(name)? else {
            return Ok(None);
        };
        vocab(&self.field(name), s, list, model)?;
        Ok(Some(s))
    }

    /// A required string of a closed vocabulary.
    pub fn required_choice(
        &self,
        name: &str,
        list: &[&str],
        model: &str,
    ) -> Result<&'a str, RowError> {
        self.choice(name, list, model)?
            .ok_or_else(|| RowError::new(self.field(name), "is required"))
    }

    /// An optional boolean.
    pub fn boolean(&self, name: &str) -> Result<Option<bool>, RowError> {
        self.get(name)?
            .map(|v| {
                v.as_bool()
                    .ok_or_else(|| RowError::new(self.field(name), "must be true or false"))
            })
            .transpose()
    }

    /// An optional whole number at least `min`.
    pub fn integer(&self, name: &str, min: u64) -> Result<Option<u64>, RowError> {
        self.get(name)?
            .map(|v| {
                v.as_u64().filter(|n| *n >= min).ok_or_else(|| {
                    RowError::new(
                        self.field(name),
                        format!("must be a whole number of at least {min}"),
                    )
                })
            })
            .transpose()
    }

    /// An optional decimal string (not nullable).
    pub fn decimal(&self, name: &str) -> Result<Option<Decimal>, RowError> {
        self.string(name)?
            .map(|s| decimal(&self.field(name), s))
            .transpose()
    }

    /// A required decimal string.
    pub fn required_decimal(&self, name: &str) -> Result<Decimal, RowError> {
        self.decimal(name)?
            .ok_or_else(|| RowError::new(self.field(name), "is required"))
    }

    /// An optional decimal string that may be `null`.
    pub fn nullable_decimal(&self, name: &str) -> Result<Option<Decimal>, RowError> {
        self.get_nullable(name)
            .map(|v| decimal(&self.field(name), self.as_str(name, v)?))
            .transpose()
    }

    /// An optional, nullable share between 0 and 1.
    pub fn share(&self, name: &str) -> Result<Option<Decimal>, RowError> {
        let share = self.nullable_decimal(name)?;
        if share.is_some_and(|s| s > Decimal::ONE) {
            return Err(RowError::new(self.field(name), "must be between 0 and 1"));
        }
        Ok(share)
    }

    /// An optional `YYYY-MM-DD` date.
    pub fn date(&self, name: &str) -> Result<Option<Date>, RowError> {
        self.string(name)?
            .map(|s| date(&self.field(name), s))
            .transpose()
    }

    /// A required `YYYY-MM-DD` date.
    pub fn required_date(&self, name: &str) -> Result<Date, RowError> {
        self.date(name)?
            .ok_or_else(|| RowError::new(self.field(name), "is required"))
    }

    /// An optional date or date-time.
    pub fn date_or_datetime(&self, name: &str) -> Result<Option<Date>, RowError> {
        self.string(name)?
            .map(|s| date_or_datetime(&self.field(name), s))
            .transpose()
    }

    /// An optional array.
    pub fn array(&self, name: &str) -> Result<Option<&'a Vec<Value>>, RowError> {
        self.get(name)?
            .map(|v| {
                v.as_array()
                    .ok_or_else(|| RowError::new(self.field(name), "must be an array"))
            })
            .transpose()
    }

    /// An optional object of string values (the contract's `Metadata`).
    pub fn string_map(&self, name: &str) -> Result<(), RowError> {
        let Some(v) = self.get(name)? else {
            return Ok(());
        };
        let map = v
            .as_object()
            .ok_or_else(|| RowError::new(self.field(name), "must be an object of string values"))?;
        for (k, v) in map {
            if !v.is_string() {
                return Err(RowError::new(
                    join(&self.field(name), k),
                    "must be a string",
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn paths_join_at_the_root_and_below() {
        assert_eq!(join("", "legs"), "legs");
        assert_eq!(join(&item("legs", 1), "method"), "legs[1].method");
    }

    #[test]
    fn unknown_fields_and_nulls_are_named() {
        let v = serde_json::json!({"a": null, "b": 1});
        let e = Obj::new("x", &v, "M", &["a"]).unwrap_err();
        assert_eq!(e.field, "x.b");
        let o = Obj::new("x", &v, "M", &["a", "b"]).unwrap();
        assert_eq!(o.string("a").unwrap_err().field, "x.a");
        assert_eq!(o.string("b").unwrap_err().message, "must be a string");
        assert!(o.get_nullable("a").is_none());
    }

    #[test]
    fn dates_and_date_times_give_their_calendar_date() {
        assert_eq!(
            date_or_datetime("d", "2026-03-01T23:30:00-02:00")
                .unwrap()
                .to_string(),
            "2026-03-01"
        );
        assert!(date_or_datetime("d", "2026-13-01").is_err());
        assert!(date("d", "01/03/2026").is_err());
    }

    #[test]
    fn decimals_are_non_negative_strings() {
        assert_eq!(decimal("m", "12.5").unwrap(), Decimal::new(125, 1));
        assert!(decimal("m", "-1").is_err());
        assert!(decimal("m", "1e3").is_err());
    }

    #[test]
    fn long_vocabularies_name_their_model() {
        let list: Vec<String> = (0..20).map(|i| format!("v{i}")).collect();
        let refs: Vec<&str> = list.iter().map(String::as_str).collect();
        let e = vocab("f", "zz", &refs, "Model").unwrap_err();
        assert!(e.message.contains("20 values of Model"), "{e}");
        let e = vocab("f", "zz", &["a", "b"], "Model").unwrap_err();
        assert_eq!(e.message, "'zz' is not one of: a, b");
    }
}
