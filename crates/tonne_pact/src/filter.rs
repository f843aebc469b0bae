//! ListFootprints' `$filter`: the subset of OData v4 the PACT Technical
//! Specifications (v2, 6.6.2) name — comparisons of `created` and `updated`
//! with a timestamp (`eq`, `lt`, `le`, `gt`, `ge`), `productIds/any(…)` and
//! `companyIds/any(…)` with `eq`, joined by `and`. Anything else is refused
//! (400), never ignored.

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// A comparison's operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
}

/// One condition of the filter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Condition {
    /// `created` (or `updated`: a footprint is never updated) against a time.
    Created(Op, OffsetDateTime),
    ProductId(String),
    CompanyId(String),
}

/// Every condition must hold.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Filter(pub Vec<Condition>);

/// The longest `$filter` read.
const MAX_LEN: usize = 2_000;
/// The most conditions read.
const MAX_CONDITIONS: usize = 16;

impl Filter {
    /// Parses a `$filter`; the message says what is wrong.
    pub fn parse(text: &str) -> Result<Self, String> {
        if text.len() > MAX_LEN {
            return Err(format!("$filter is longer than {MAX_LEN} characters"));
        }
        let text = text.trim();
        if text.is_empty() {
            return Ok(Self::default());
        }
        let parts = split_and(text);
        if parts.len() > MAX_CONDITIONS {
            return Err(format!("$filter has more than {MAX_CONDITIONS} conditions"));
        }
        parts
            .into_iter()
            .map(condition)
            .collect::<Result<Vec<_>, _>>()
            .map(Self)
    }

    /// Whether a footprint created at `created` with these ids passes.
    pub fn accepts(&self, created: OffsetDateTime, product_id: &str, company_id: &str) -> bool {
        self.0.iter().all(|c| match c {
            Condition::Created(op, at) => match op {
                Op::Eq => created == *at,
                Op::Lt => created < *at,
                Op::Le => created <= *at,
                Op::Gt => created > *at,
                Op::Ge => created >= *at,
            },
            Condition::ProductId(id) => id == product_id,
            Condition::CompanyId(id) => id == company_id,
        })
    }

    /// The earliest creation time a footprint may have to pass, if the
    /// filter bounds it (the walk, newest first, stops below it).
    pub fn created_floor(&self) -> Option<OffsetDateTime> {
        self.0
            .iter()
            .filter_map(|c| match c {
                Condition::Created(Op::Eq | Op::Gt | Op::Ge, at) => Some(*at),
                _ => None,
            })
            .max()
    }
}

/// Splits on ` and ` outside quotes.
fn split_and(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut quoted = false;
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes.get(i).copied().unwrap_or_default();
        if b == b'\'' {
            quoted = !quoted;
        } else if !quoted
            && text
                .get(i..i + 5)
                .is_some_and(|w| w.eq_ignore_ascii_case(" and "))
        {
            parts.push(text.get(start..i).unwrap_or_default().trim());
            start = i + 5;
            i += 5;
            continue;
        }
        i += 1;
    }
    parts.push(text.get(start..).unwrap_or_default().trim());
    parts
}

/// A quoted OData string (`'…'`, `''` for a quote).
fn quoted(text: &str) -> Option<String> {
    let inner = text.trim().strip_prefix('\'')?.strip_suffix('\'')?;
    if inner.replace("''", "").contains('\'') {
        return None;
    }
    Some(inner.replace("''", "'"))
}

fn op(word: &str) -> Option<Op> {
    Some(match word {
        "eq" => Op::Eq,
        "lt" => Op::Lt,
        "le" => Op::Le,
        "gt" => Op::Gt,
        "ge" => Op::Ge,
        _ => return None,
    })
}

/// `field/any(v:(v eq 'x'))` or `field/any(v:v eq 'x')`: the `x`.
fn any_eq(text: &str, field: &str) -> Option<String> {
    let rest = text
        .strip_prefix(field)?
        .trim_start()
        .strip_prefix("/any(")?;
    let rest = rest.strip_suffix(')')?;
    let (var, body) = rest.split_once(':')?;
    let var = var.trim();
    if var.is_empty() || !var.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let body = body.trim();
    let body = body
        .strip_prefix('(')
        .and_then(|b| b.strip_suffix(')'))
        .unwrap_or(body)
        .trim();
    let after_var = body.strip_prefix(var)?.trim_start();
    let value = after_var.strip_prefix("eq ")?;
    quoted(value)
}

fn condition(text: &str) -> Result<Condition, String> {
    let unsupported = || format!("$filter condition not supported: {text}");
    let text = text.trim();
    if let Some(id) = any_eq(text, "productIds") {
        return Ok(Condition::ProductId(id));
    }
    if let Some(id) = any_eq(text, "companyIds") {
        return Ok(Condition::CompanyId(id));
    }
    let mut words = text.splitn(3, ' ');
    let (Some(field), Some(word), Some(value)) = (words.next(), words.next(), words.next()) else {
        return Err(unsupported());
    };
    if field != "created" && field != "updated" {
        return Err(unsupported());
    }
    let op = op(word).ok_or_else(unsupported)?;
    let value = quoted(value).ok_or_else(unsupported)?;
    let at = OffsetDateTime::parse(&value, &Rfc3339)
        .map_err(|_| format!("$filter: `{value}` is not an RFC 3339 date-time"))?;
    Ok(Condition::Created(op, at))
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn the_specifications_examples_parse() {
        let f = Filter::parse(
            "created ge '2023-01-15T10:15:30Z' and productIds/any(productId:(productId eq 'urn:gtin:4712345060507'))",
        )
        .unwrap();
        assert_eq!(
            f.0,
            vec![
                Condition::Created(Op::Ge, datetime!(2023-01-15 10:15:30 UTC)),
                Condition::ProductId("urn:gtin:4712345060507".into()),
            ]
        );
        assert_eq!(f.created_floor(), Some(datetime!(2023-01-15 10:15:30 UTC)));
        assert!(f.accepts(
            datetime!(2024-01-01 0:00 UTC),
            "urn:gtin:4712345060507",
            "urn:x"
        ));
        assert!(!f.accepts(
            datetime!(2022-01-01 0:00 UTC),
            "urn:gtin:4712345060507",
            "urn:x"
        ));
        assert!(!f.accepts(datetime!(2024-01-01 0:00 UTC), "urn:other", "urn:x"));
        let f = Filter::parse(
            "companyIds/any(c:c eq 'urn:uuid:abc') and updated lt '2030-01-01T00:00:00+01:00'",
        )
        .unwrap();
        assert_eq!(f.0.len(), 2);
        assert_eq!(f.created_floor(), None);
        assert!(Filter::parse("").unwrap().0.is_empty());
    }

    #[test]
    fn anything_else_is_refused_not_ignored() {
        for bad in [
            "created ge 2023-01-15",
            "created ge '15 Jan 2023'",
            "pcf/declaredUnit eq 'liter'",
            "created xx '2023-01-15T10:15:30Z'",
            "productIds/any(p:(q eq 'x'))",
            "created ge '2023-01-15T10:15:30Z' or created lt '2024-01-01T00:00:00Z'",
        ] {
            assert!(Filter::parse(bad).is_err(), "{bad}");
        }
        assert!(Filter::parse(&"created ge 'x' and ".repeat(20)).is_err());
        assert!(Filter::parse(&"x".repeat(MAX_LEN + 1)).is_err());
    }

    #[test]
    fn a_quoted_and_is_part_of_the_value() {
        let f = Filter::parse("productIds/any(p:(p eq 'urn:a and b'))").unwrap();
        assert_eq!(f.0, vec![Condition::ProductId("urn:a and b".into())]);
    }
}
