//! Multi-match transaction estimates: up to five merchant categories for one
//! ambiguous transaction, best first, each with why and how sure.
//!
//! | rank | candidate | score |
//! |---|---|---|
//! | first | the category code sent | `None` (nothing searched) |
//! | next | a keyword of [`crate::transaction_document::matching::KEYWORDS`] in the search term, name or category | 0 |
//! | then | merchant-category texts by trigram similarity `s` (≥ 0.3), highest first | `2 × (1 − s)`, two decimals |
//!
//! Each category appears once (its best rank); money-movement categories are
//! left out (nothing to estimate).

use rust_decimal::Decimal;

use crate::transaction::{self, Group, Merchant};
use crate::transaction_document::matching;

/// The most candidates.
pub const MAX_CANDIDATES: usize = 5;

/// One candidate category.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// ISO 18245.
    pub mcc: &'static str,
    /// The text it rests on: the keyword, the category text, or the code.
    pub matched: String,
    /// 0 (most confident) .. 2; `None` for the code sent.
    pub score: Option<Decimal>,
    pub reason: String,
}

/// The candidates for a transaction's merchant (`name` and `category` are
/// the merchant's other words), at most `limit` (1 to [`MAX_CANDIDATES`]).
pub fn candidates(
    merchant: &Merchant,
    name: Option<&str>,
    category: Option<&str>,
    limit: usize,
) -> Vec<Candidate> {
    let limit = limit.clamp(1, MAX_CANDIDATES);
    let mut out: Vec<Candidate> = Vec::new();
    let mut push = |c: Candidate| {
        let estimable =
            transaction::category(c.mcc).is_some_and(|k| k.group != Group::MoneyMovement);
        if estimable && !out.iter().any(|o| o.mcc == c.mcc) {
            out.push(c);
        }
    };
    let term = match merchant {
        Merchant::CategoryCode(code) => {
            if let Some(mcc) = matching::listed_mcc(code) {
                push(Candidate {
                    mcc,
                    matched: mcc.to_owned(),
                    score: None,
                    reason: format!("the category code sent, {mcc}"),
                });
            }
            None
        }
        Merchant::SearchTerm(t) => Some(t.as_str()),
    };
    let words: Vec<&str> = [term, name, category].into_iter().flatten().collect();
    let joined = words.join(" ");
    if let Some((kw, target)) = matching::keyword(&joined)
        && let Some(mcc) = target.spend_mcc()
    {
        push(Candidate {
            mcc,
            matched: kw.to_owned(),
            score: Some(Decimal::ZERO),
            reason: format!("keyword \"{kw}\" in \"{joined}\""),
        });
    }
    if !joined.trim().is_empty() {
        let grams = transaction::trigrams(joined.trim());
        let mut ranked: Vec<(Decimal, usize)> = transaction::search_index()
            .iter()
            .enumerate()
            .map(|(i, (_, _, g))| (transaction::similarity(&grams, g), i))
            .filter(|(s, _)| *s >= Decimal::new(3, 1))
            .collect();
        // highest similarity first; ties in the index's order (keywords first)
        ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        for (s, i) in ranked {
            let Some((text, code, _)) = transaction::search_index().get(i) else {
                continue;
            };
            let Some(mcc) = matching::listed_mcc(code) else {
                continue;
            };
            push(Candidate {
                mcc,
                matched: text.clone(),
                score: Some((Decimal::TWO * (Decimal::ONE - s)).round_dp(2)),
                reason: format!(
                    "category text \"{text}\" (MCC {mcc}), trigram similarity {}",
                    s.round_dp(2)
                ),
            });
        }
    }
    out.truncate(limit);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_code_sent_comes_first_then_keywords_then_similar_texts() {
        let c = candidates(
            &Merchant::CategoryCode("5812".into()),
            Some("Airport coffee bar"),
            None,
            5,
        );
        assert_eq!(c[0].mcc, "5812");
        assert_eq!(c[0].score, None);
        // "coffee" is a keyword: MCC 5814, score 0
        assert_eq!((c[1].mcc, c[1].score), ("5814", Some(Decimal::ZERO)));
        assert!(c.len() <= 5);
        // each category once
        let mut codes: Vec<_> = c.iter().map(|x| x.mcc).collect();
        codes.dedup();
        assert_eq!(codes.len(), c.len());
        // scores rise (less sure) down the list
        let scores: Vec<Decimal> = c.iter().filter_map(|x| x.score).collect();
        assert!(scores.windows(2).all(|w| w[0] <= w[1]), "{scores:?}");
    }

    #[test]
    fn a_search_term_ranks_by_similarity_and_limit_is_kept() {
        let c = candidates(
            &Merchant::SearchTerm("grocery stores".into()),
            None,
            None,
            2,
        );
        assert!(!c.is_empty() && c.len() <= 2, "{c:?}");
        // no keyword: the closest category text first
        assert_eq!(c[0].mcc, "5411", "{c:?}");
        assert!(c[0].score.is_some_and(|s| s > Decimal::ZERO));
        assert!(candidates(&Merchant::SearchTerm("zq".into()), None, None, 5).is_empty());
        // money movement is never a candidate
        assert!(candidates(&Merchant::CategoryCode("6011".into()), None, None, 5).is_empty());
    }
}
