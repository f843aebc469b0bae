//! Country names: ISO 3166-1 alpha-3 codes and their English names
//! (`data/countries.csv`), as the catalogue and the EXIOBASE regions name them.

use std::collections::HashMap;
use std::sync::OnceLock;

/// An ISO alpha-3 code's English name (`World` for `WORLD`).
pub fn country_name(alpha3: &str) -> Option<&'static str> {
    static NAMES: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
    if alpha3 == "WORLD" {
        return Some("World");
    }
    NAMES
        .get_or_init(|| {
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
        .get(alpha3)
        .copied()
}
