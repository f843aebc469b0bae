//! How a line (or a whole document) is matched to what Tonne estimates it
//! with: a fixed, documented keyword table and merchant category codes (ISO
//! 18245). No learning, no embeddings: the same text always gives the same
//! match, and every match says why and how sure it is.
//!
//! Scores follow the contract's `category_match_score` / `search_term_match_score`
//! (0 most confident .. 2):
//!
//! | score | when |
//! |---|---|
//! | none (`null`) | the line (or request) gave a category code: nothing was searched |
//! | 0 | a keyword of [`KEYWORDS`] appears as whole words in the line's text or category |
//! | 1 | the line says nothing Tonne knows; the merchant's category code (or the document's words) stands for it |
//! | 2 | the closest merchant-category text by trigram similarity (at least 0.3), or Tonne's default category |
//!
//! `semantic_matching_model` names this table's version, [`MATCHING_MODEL`],
//! whenever a score is given.

use crate::cities::fold;
use crate::transaction;

/// The version of the keyword table, answered as `semantic_matching_model`.
pub const MATCHING_MODEL: &str = "tonne-keywords-2026.11";

/// The category of a document nothing else describes: MCC 5999
/// (miscellaneous and specialty retail stores).
pub const DEFAULT_MCC: &str = "5999";

/// What a line is estimated with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// Spend in a merchant category (EXIOBASE via the transaction engine).
    Spend(&'static str),
    /// A flight: passenger transportation when the route is named.
    Flight,
    /// A train journey: passenger transportation when the route is named.
    Rail,
    /// Electricity by its energy (the grid of the document's country).
    Electricity,
    /// Natural gas by its energy or volume (DESNZ 2025).
    NaturalGas,
    /// Diesel by its volume (DESNZ 2025, average biofuel blend).
    Diesel,
    /// Petrol by its volume (DESNZ 2025, 100 % mineral).
    Petrol,
    /// Not a purchase: tax, tips, deposits, discounts, payments.
    NotEstimated,
}

impl Target {
    /// The merchant category a travel or activity line is estimated as when
    /// it lacks the route or the quantity its engine needs.
    pub fn spend_mcc(self) -> Option<&'static str> {
        match self {
            Target::Spend(mcc) => Some(mcc),
            Target::Flight => Some("4511"),
            Target::Rail => Some("4112"),
            Target::Electricity | Target::NaturalGas => Some("4900"),
            Target::Diesel | Target::Petrol => Some("5541"),
            Target::NotEstimated => None,
        }
    }
}

/// Tonne's keyword table: whole words (a trailing `s`/`es` allowed), the
/// longest keyword found wins, ties go to the earlier row.
pub const KEYWORDS: &[(&str, Target)] = &[
    // not purchases
    ("vat", Target::NotEstimated),
    ("tax", Target::NotEstimated),
    ("sales tax", Target::NotEstimated),
    ("tip", Target::NotEstimated),
    ("gratuity", Target::NotEstimated),
    ("deposit", Target::NotEstimated),
    ("discount", Target::NotEstimated),
    ("payment", Target::NotEstimated),
    ("rounding", Target::NotEstimated),
    // travel
    ("flight", Target::Flight),
    ("airfare", Target::Flight),
    ("air ticket", Target::Flight),
    ("plane ticket", Target::Flight),
    ("boarding pass", Target::Flight),
    ("train", Target::Rail),
    ("rail", Target::Rail),
    ("railway", Target::Rail),
    ("eurostar", Target::Rail),
    // activities
    ("electricity", Target::Electricity),
    ("power supply", Target::Electricity),
    ("natural gas", Target::NaturalGas),
    ("gas supply", Target::NaturalGas),
    ("diesel", Target::Diesel),
    ("petrol", Target::Petrol),
    ("gasoline", Target::Petrol),
    ("unleaded", Target::Petrol),
    // spend by merchant category
    ("hotel", Target::Spend("7011")),
    ("accommodation", Target::Spend("7011")),
    ("room night", Target::Spend("7011")),
    ("taxi", Target::Spend("4121")),
    ("ride", Target::Spend("4121")),
    ("bus", Target::Spend("4131")),
    ("car rental", Target::Spend("7512")),
    ("parking", Target::Spend("7523")),
    ("restaurant", Target::Spend("5812")),
    ("meal", Target::Spend("5812")),
    ("breakfast", Target::Spend("5812")),
    ("lunch", Target::Spend("5812")),
    ("dinner", Target::Spend("5812")),
    ("catering", Target::Spend("5811")),
    ("coffee", Target::Spend("5814")),
    ("sandwich", Target::Spend("5814")),
    ("beer", Target::Spend("5813")),
    ("wine", Target::Spend("5921")),
    ("groceries", Target::Spend("5411")),
    ("fruit", Target::Spend("5411")),
    ("vegetable", Target::Spend("5411")),
    ("bread", Target::Spend("5462")),
    ("meat", Target::Spend("5422")),
    ("milk", Target::Spend("5451")),
    ("office supplies", Target::Spend("5943")),
    ("stationery", Target::Spend("5943")),
    ("paper", Target::Spend("5943")),
    ("printer", Target::Spend("5732")),
    ("laptop", Target::Spend("5732")),
    ("computer", Target::Spend("5732")),
    ("monitor", Target::Spend("5732")),
    ("phone", Target::Spend("5732")),
    ("electronics", Target::Spend("5732")),
    ("software", Target::Spend("5734")),
    ("subscription", Target::Spend("5734")),
    ("licence", Target::Spend("5734")),
    ("license", Target::Spend("5734")),
    ("furniture", Target::Spend("5712")),
    ("desk", Target::Spend("5712")),
    ("chair", Target::Spend("5712")),
    ("clothing", Target::Spend("5651")),
    ("shirt", Target::Spend("5651")),
    ("shoe", Target::Spend("5661")),
    ("book", Target::Spend("5942")),
    ("medicine", Target::Spend("5912")),
    ("pharmacy", Target::Spend("5912")),
    ("courier", Target::Spend("4215")),
    ("postage", Target::Spend("9402")),
    ("shipping", Target::Spend("4215")),
    ("internet", Target::Spend("4816")),
    ("mobile plan", Target::Spend("4814")),
    ("telephone", Target::Spend("4814")),
    ("advertising", Target::Spend("7311")),
    ("cleaning", Target::Spend("7349")),
    ("consulting", Target::Spend("7392")),
    ("legal", Target::Spend("8111")),
    ("accounting", Target::Spend("8931")),
    ("insurance", Target::Spend("6300")),
    ("training", Target::Spend("8299")),
    ("hardware", Target::Spend("5251")),
    ("tools", Target::Spend("5251")),
];

/// How a line was matched, and how sure Tonne is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    pub target: Target,
    /// The text the match rests on: the keyword, the merchant category's
    /// description, or the code.
    pub text: String,
    /// 0 (most confident) .. 2; `None` when a category code was given.
    pub score: Option<u8>,
    /// Why, in a sentence.
    pub reason: String,
}

fn tokens(text: &str) -> Vec<String> {
    fold(text).split(' ').map(str::to_owned).collect()
}

fn same_word(word: &str, keyword: &str) -> bool {
    word == keyword
        || word.strip_suffix('s') == Some(keyword)
        || word.strip_suffix("es") == Some(keyword)
}

/// The longest keyword of [`KEYWORDS`] whose words appear in `text` in a row.
pub fn keyword(text: &str) -> Option<(&'static str, Target)> {
    let words = tokens(text);
    let mut best: Option<(usize, &'static str, Target)> = None;
    for (kw, target) in KEYWORDS {
        let kws: Vec<&str> = kw.split(' ').collect();
        let found = words
            .windows(kws.len())
            .any(|w| w.iter().zip(&kws).all(|(a, b)| same_word(a, b)));
        if found && best.as_ref().is_none_or(|(n, _, _)| kws.len() > *n) {
            best = Some((kws.len(), kw, *target));
        }
    }
    best.map(|(_, kw, t)| (kw, t))
}

/// A category code Tonne lists, as `'static`.
pub fn listed_mcc(code: &str) -> Option<&'static str> {
    transaction::category(code).map(|c| c.code.as_str())
}

/// Matches one line: its own category code, else a keyword of its text or
/// category (score 0), else the merchant's code (score 1), else the closest
/// category text (score 2). `None`: nothing to go on.
pub fn match_line(
    text: Option<&str>,
    category: Option<&str>,
    mcc: Option<&str>,
    merchant_mcc: Option<&str>,
) -> Option<Match> {
    if let Some(code) = mcc.and_then(listed_mcc) {
        return Some(Match {
            target: Target::Spend(code),
            text: code.to_owned(),
            score: None,
            reason: format!("the line's category code {code}"),
        });
    }
    let words = [text, category]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
    if let Some((kw, target)) = keyword(&words) {
        return Some(Match {
            target,
            text: kw.to_owned(),
            score: Some(0),
            reason: format!("keyword \"{kw}\" in \"{words}\""),
        });
    }
    if let Some(code) = merchant_mcc.and_then(listed_mcc) {
        return Some(Match {
            target: Target::Spend(code),
            text: code.to_owned(),
            score: Some(1),
            reason: format!("no keyword in the line: the merchant's category code {code}"),
        });
    }
    transaction::search(&words).map(closest_text)
}

/// The match of the closest category text by trigram similarity (score 2).
fn closest_text((c, matched): (&'static transaction::Category, String)) -> Match {
    Match {
        target: Target::Spend(c.code.as_str()),
        text: matched.clone(),
        score: Some(2),
        reason: format!(
            "closest category text \"{matched}\" (MCC {}) by trigram similarity",
            c.code
        ),
    }
}

/// The category of a whole document: the merchant's code (given), else a
/// keyword of the merchant's name, search term or category (0), else the
/// closest category text (2), else [`DEFAULT_MCC`] (2). Travel and activity
/// keywords stand for their spend category.
pub fn match_document(words: &[&str], merchant_mcc: Option<&str>) -> Match {
    if let Some(code) = merchant_mcc.and_then(listed_mcc) {
        return Match {
            target: Target::Spend(code),
            text: code.to_owned(),
            score: None,
            reason: format!("the merchant's category code {code}"),
        };
    }
    let joined = words.join(" ");
    if let Some((kw, target)) = keyword(&joined)
        && let Some(code) = target.spend_mcc()
    {
        return Match {
            target: Target::Spend(code),
            text: kw.to_owned(),
            score: Some(0),
            reason: format!("keyword \"{kw}\" in \"{joined}\""),
        };
    }
    if let Some(found) = transaction::search(&joined) {
        return closest_text(found);
    }
    Match {
        target: Target::Spend(DEFAULT_MCC),
        text: DEFAULT_MCC.to_owned(),
        score: Some(2),
        reason: format!("nothing names a category: Tonne's default, MCC {DEFAULT_MCC}"),
    }
}
