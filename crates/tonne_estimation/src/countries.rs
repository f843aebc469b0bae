//! Countries: ISO 3166-1 alpha-3 codes, their alpha-2 codes and English names
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

/// The ISO 3166-1 alpha-2 code of an alpha-3 code, if ISO has assigned it.
///
/// ```
/// use tonne_estimation::countries::alpha2;
/// assert_eq!(alpha2("DEU"), Some("DE"));
/// assert_eq!(alpha2("AAA"), None);
/// ```
pub fn alpha2(alpha3: &str) -> Option<&'static str> {
    static CODES: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
    CODES
        .get_or_init(|| {
            include_str!("../data/countries.csv")
                .lines()
                .filter(|l| !l.starts_with('#') && !l.starts_with("alpha3,"))
                .filter_map(|l| {
                    let mut cols = l.splitn(3, ',');
                    Some((cols.next()?, cols.next()?))
                })
                .filter(|(_, a2)| a2.len() == 2)
                .collect()
        })
        .get(alpha3)
        .copied()
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
