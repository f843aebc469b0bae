//! Values read back from the row as the client sent it: a text or any value
//! of an object, and a leg's place (address, codes, coordinates).

use serde_json::{Map, Value};

pub(super) fn text(o: &Map<String, Value>, k: &str) -> Option<String> {
    o.get(k).and_then(Value::as_str).map(str::to_owned)
}

pub(super) fn value(o: &Map<String, Value>, k: &str) -> Option<Value> {
    o.get(k).filter(|v| !v.is_null()).cloned()
}

/// The `origin_*` or `destination_*` fields of a location as sent.
pub(super) struct Place {
    pub(super) street_line1: Option<String>,
    pub(super) street_line2: Option<String>,
    pub(super) postcode: Option<String>,
    pub(super) city: Option<String>,
    pub(super) country_code: Option<String>,
    pub(super) locode: Option<String>,
    pub(super) code: Option<String>,
    pub(super) latitude: Option<String>,
    pub(super) longitude: Option<String>,
}

pub(super) fn place(location: Option<&Value>) -> Place {
    let o = location.and_then(Value::as_object);
    let t = |k: &str| o.and_then(|o| text(o, k));
    let n = |k: &str| {
        o.and_then(|o| o.get(k))
            .filter(|v| v.is_number())
            .map(ToString::to_string)
    };
    Place {
        street_line1: t("street_line1"),
        street_line2: t("street_line2"),
        postcode: t("postcode"),
        city: t("city"),
        country_code: t("country_code"),
        locode: t("locode"),
        code: t("code"),
        latitude: n("lat"),
        longitude: n("lon"),
    }
}
