//! Strings holding U+0000 (NUL), refused wherever they are in a file.

/// Why a string holding U+0000 is refused: PostgreSQL's `TEXT` refuses it
/// where SQLite keeps it, so a file is refused alike on both stores, as the
/// HTTP door refuses it (`tonne_http::unstorable`).
pub const NUL_REFUSED: &str = "contains U+0000 (NUL), which cannot be stored";

/// The path (`projects[1].name`, `bundles[0].unit_prices.GBP`) of the first
/// string of a catalogue file (a value or an object's key) holding U+0000;
/// `None` when there is none. JSON writes a NUL only as the `\u0000` escape,
/// so a file without one costs one scan; a file that does not parse is the
/// parser's to refuse.
pub(crate) fn nul_in(text: &str) -> Option<String> {
    if !text.contains("\\u0000") {
        return None;
    }
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    let mut path = String::new();
    nul_at(&value, &mut path).then(|| {
        if path.is_empty() {
            "file".to_owned()
        } else {
            path
        }
    })
}

/// Whether `value` holds a NUL (in a string or an object's key); if so
/// `path`, extended from where `value` stands, names where
/// (`rows[3].shipment_id`, a key escaped). Shared with the HTTP door's check
/// of JSON bodies (`tonne_http::unstorable`), so both name a field alike.
pub fn nul_at(value: &serde_json::Value, path: &mut String) -> bool {
    use serde_json::Value;
    use std::fmt::Write as _;
    match value {
        Value::String(s) => s.contains('\0'),
        Value::Array(items) => items.iter().enumerate().any(|(i, item)| {
            let len = path.len();
            let _ = write!(path, "[{i}]");
            let found = nul_at(item, path);
            if !found {
                path.truncate(len);
            }
            found
        }),
        Value::Object(fields) => fields.iter().any(|(key, item)| {
            let len = path.len();
            if !path.is_empty() {
                path.push('.');
            }
            if key.contains('\0') {
                path.push_str(&key.escape_debug().to_string());
                return true;
            }
            path.push_str(key);
            let found = nul_at(item, path);
            if !found {
                path.truncate(len);
            }
            found
        }),
        Value::Null | Value::Bool(_) | Value::Number(_) => false,
    }
}
