//! Search terms matched to merchant categories: Tonne's keyword list and the
//! MCC descriptions, by trigram similarity.

use std::sync::OnceLock;

use rust_decimal::Decimal;

use super::table::{Category, Group, categories, category};

/// Search words for common purchases (Tonne's own list) → MCC.
const KEYWORDS: &[(&str, &str)] = &[
    ("groceries", "5411"),
    ("supermarket", "5411"),
    ("bananas", "5411"),
    ("fruit", "5411"),
    ("vegetables", "5411"),
    ("food", "5411"),
    ("meat", "5422"),
    ("butcher", "5422"),
    ("candy", "5441"),
    ("sweets", "5441"),
    ("milk", "5451"),
    ("dairy", "5451"),
    ("cheese", "5451"),
    ("bread", "5462"),
    ("bakery", "5462"),
    ("restaurant", "5812"),
    ("dinner", "5812"),
    ("lunch", "5812"),
    ("coffee", "5814"),
    ("fast food", "5814"),
    ("burger", "5814"),
    ("bar", "5813"),
    ("pub", "5813"),
    ("beer", "5813"),
    ("flight", "4511"),
    ("airline", "4511"),
    ("plane ticket", "4511"),
    ("hotel", "7011"),
    ("motel", "7011"),
    ("taxi", "4121"),
    ("ride share", "4121"),
    ("train", "4112"),
    ("rail", "4112"),
    ("bus", "4131"),
    ("metro", "4111"),
    ("petrol", "5541"),
    ("gasoline", "5541"),
    ("fuel", "5541"),
    ("diesel", "5541"),
    ("car rental", "7512"),
    ("parking", "7523"),
    ("car repair", "7538"),
    ("clothes", "5651"),
    ("clothing", "5651"),
    ("shoes", "5661"),
    ("fashion", "5651"),
    ("electronics", "5732"),
    ("laptop", "5732"),
    ("phone", "5732"),
    ("television", "5732"),
    ("computer", "5045"),
    ("software", "5734"),
    ("furniture", "5712"),
    ("sofa", "5712"),
    ("appliance", "5722"),
    ("books", "5942"),
    ("stationery", "5943"),
    ("jewellery", "5944"),
    ("jewelry", "5944"),
    ("toys", "5945"),
    ("flowers", "5992"),
    ("tobacco", "5993"),
    ("pet food", "5995"),
    ("cosmetics", "5977"),
    ("pharmacy", "5912"),
    ("medicine", "5912"),
    ("doctor", "8011"),
    ("dentist", "8021"),
    ("hospital", "8062"),
    ("cinema", "7832"),
    ("movie", "7832"),
    ("theatre", "7922"),
    ("gym", "7997"),
    ("fitness", "7997"),
    ("streaming", "5815"),
    ("music", "5735"),
    ("internet", "4816"),
    ("mobile plan", "4814"),
    ("telephone", "4814"),
    ("insurance", "6300"),
    ("hardware store", "5200"),
    ("diy", "5200"),
    ("laundry", "7210"),
    ("hairdresser", "7230"),
    ("school", "8211"),
    ("university", "8220"),
    ("lawyer", "8111"),
    ("accountant", "8931"),
    ("utilities", "4900"),
    ("postage", "9402"),
    ("cruise", "4411"),
    ("travel agency", "4722"),
    ("charity", "8398"),
];

pub(crate) fn trigrams(s: &str) -> Vec<[char; 3]> {
    let padded: Vec<char> = format!("  {} ", s.to_lowercase()).chars().collect();
    let mut out: Vec<[char; 3]> = padded
        .windows(3)
        .filter_map(|w| Some([*w.first()?, *w.get(1)?, *w.get(2)?]))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

pub(crate) fn similarity(a: &[[char; 3]], b: &[[char; 3]]) -> Decimal {
    let common = a.iter().filter(|t| b.binary_search(t).is_ok()).count();
    let union = a.len() + b.len() - common;
    if union == 0 {
        return Decimal::ZERO;
    }
    Decimal::from(common) / Decimal::from(union)
}

/// A searchable text, its MCC and its trigrams.
pub(crate) type Searchable = (String, String, Vec<[char; 3]>);

/// Every searchable text (keywords, then MCC descriptions), computed once.
pub(crate) fn search_index() -> &'static [Searchable] {
    static INDEX: OnceLock<Vec<Searchable>> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut index: Vec<Searchable> = KEYWORDS
            .iter()
            .map(|(word, code)| ((*word).to_owned(), (*code).to_owned(), trigrams(word)))
            .collect();
        let mut listed: Vec<&Category> = categories()
            .values()
            .filter(|c| c.group != Group::MoneyMovement)
            .collect();
        listed.sort_by(|a, b| a.code.cmp(&b.code));
        index.extend(listed.into_iter().map(|c| {
            (
                c.description.clone(),
                c.code.clone(),
                trigrams(&c.description),
            )
        }));
        index
    })
}

/// Matches a free-text term to a category: the keyword or MCC description with
/// the highest trigram similarity (at least 0.3; the first best wins, keywords
/// before descriptions). Returns the matched text.
pub fn search(term: &str) -> Option<(&'static Category, String)> {
    if term.trim().is_empty() {
        return None;
    }
    let t = trigrams(term.trim());
    let mut best: Option<(Decimal, &'static str, &'static str)> = None;
    for (text, code, grams) in search_index() {
        let score = similarity(&t, grams);
        if best.as_ref().is_none_or(|(s, _, _)| score > *s) {
            best = Some((score, text.as_str(), code.as_str()));
        }
    }
    let (score, text, code) = best?;
    if score < Decimal::new(3, 1) {
        return None;
    }
    category(code).map(|c| (c, text.to_owned()))
}
