//! Country names: ISO 3166-1 alpha-3 codes and their English names
//! (`data/countries.csv`), as the catalogue and the EXIOBASE regions name them.

use std::collections::HashMap;
use std::sync::OnceLock;

fn names() -> &'static HashMap<&'static str, &'static str> {
    static NAMES: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
    NAMES.get_or_init(|| {
        include_str!("../data/countries.csv")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("alpha3,"))
            .filter_map(|l| {
                let mut cols = l.splitn(3, ',');
                let a3 = cols.next()?;
                let _a2 = cols.next()?;
                Some((a3, cols.next()?.trim_matches('"')))
            })
            .collect()
    })
}

/// An ISO alpha-3 code's English name (`World` for `WORLD`); `None` for a
/// code ISO 3166-1 has not assigned.
///
/// ```
/// use tonne_estimation::country_name;
/// assert_eq!(country_name("GBR"), Some("United Kingdom"));
/// assert_eq!(country_name("AAA"), None);
/// ```
pub fn country_name(alpha3: &str) -> Option<&'static str> {
    if alpha3 == "WORLD" {
        return Some("World");
    }
    names().get(alpha3).copied()
}

/// The ISO alpha-3 code of a country's English name, any case.
pub(crate) fn alpha3_of_name(name: &str) -> Option<&'static str> {
    static BY_NAME: OnceLock<HashMap<String, &'static str>> = OnceLock::new();
    BY_NAME
        .get_or_init(|| {
            names()
                .iter()
                .map(|(a3, n)| (n.to_lowercase(), *a3))
                .collect()
        })
        .get(&name.trim().to_lowercase())
        .copied()
}
