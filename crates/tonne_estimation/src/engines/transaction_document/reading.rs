//! Reading a receipt or invoice: the document's total, currency, merchant and
//! country, and its lines, from the keys people and exporters commonly use.
//! Keys compare without case, `_`, `-` or spaces ([`super::node::key`]).
//!
//! | what | keys (first found wins) |
//! |---|---|
//! | lines | `line_items`, `items`, `lines`, `products`, `articles`, `entries`, `positions` (an array) |
//! | total | `total`, `total_amount`, `amount_total`, `grand_total`, `amount`, `total_value` |
//! | currency | `currency`, `currency_code` (or the total's own `currency`) |
//! | merchant | `merchant` (text, or an object with `name`, `category_code`/`mcc`, `country_code`), `merchant_name`, `vendor`, `supplier`, `seller`, `store` |
//! | merchant category | `mcc`, `merchant_category_code`, `category_code` |
//! | country | `country_code`, `country` (ISO alpha-3) |
//! | a line's text | `description`, `name`, `item`, `title`, `product`, `label`, `text` |
//! | a line's amount | `amount`, `total`, `line_total`, `total_price`, `net_amount`, `value`; else `unit_price`/`price` × `quantity` |
//! | a line's activity | `quantity`/`qty`, `unit`/`uom` |
//! | a line's category | `category_code`/`mcc`, `category` |
//! | a journey | `origin`/`from`/`departure`, `destination`/`to`/`arrival`, `passengers`, `distance_km` |

use rust_decimal::Decimal;
use tonne_kernel::Currency;

use super::node::{MAX_LINES, Node, field};
use crate::errors::EstimateError;
use crate::units::parse_amount;

/// What Tonne read from a document.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Document {
    pub lines: Vec<RawLine>,
    /// The document's total, in its currency.
    pub total: Option<Decimal>,
    pub currency: Option<Currency>,
    pub merchant_name: Option<String>,
    /// A 4-digit merchant category code, as written.
    pub merchant_mcc: Option<String>,
    /// ISO alpha-3, upper case.
    pub country_code: Option<String>,
}

/// One line as read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RawLine {
    /// Position in the document's array.
    pub index: usize,
    pub text: Option<String>,
    /// Non-negative; `None` if absent or unreadable.
    pub amount: Option<Decimal>,
    /// An amount below zero (a discount, a refund).
    pub negative: bool,
    pub currency: Option<Currency>,
    pub quantity: Option<Decimal>,
    /// As written (`kWh`, `l`, `km`…).
    pub unit: Option<String>,
    pub mcc: Option<String>,
    pub category: Option<String>,
    pub origin: Option<String>,
    pub destination: Option<String>,
    pub passengers: Option<Decimal>,
    pub distance_km: Option<Decimal>,
}

const LINES: &[&str] = &[
    "lineitems",
    "items",
    "lines",
    "products",
    "articles",
    "entries",
    "positions",
];
const TOTAL: &[&str] = &[
    "total",
    "totalamount",
    "amounttotal",
    "grandtotal",
    "amount",
    "totalvalue",
];
const CURRENCY: &[&str] = &["currency", "currencycode"];
const MERCHANT: &[&str] = &[
    "merchant",
    "merchantname",
    "vendor",
    "supplier",
    "seller",
    "store",
];
const MCC: &[&str] = &["mcc", "merchantcategorycode", "categorycode"];
const COUNTRY: &[&str] = &["countrycode", "country"];
const TEXT: &[&str] = &[
    "description",
    "name",
    "item",
    "title",
    "product",
    "label",
    "text",
];
const LINE_AMOUNT: &[&str] = &[
    "amount",
    "total",
    "linetotal",
    "totalprice",
    "netamount",
    "value",
];
const UNIT_PRICE: &[&str] = &["unitprice", "price"];
const QUANTITY: &[&str] = &["quantity", "qty"];
const UNIT: &[&str] = &["unit", "uom"];
const ORIGIN: &[&str] = &["origin", "from", "departure"];
const DESTINATION: &[&str] = &["destination", "to", "arrival"];

/// A money figure: `12.5`, `"12.50"`, `"€12,50"`, `"12.50 EUR"`, or an object
/// `{value|amount, currency}`. Returns the amount (signed) and its currency if said.
pub(crate) fn money(node: &Node) -> Option<(Decimal, Option<Currency>)> {
    if let Some(entries) = node.entries() {
        let inner = field(entries, &["value", "amount"])?;
        let (amount, own) = money(inner)?;
        let currency = field(entries, CURRENCY)
            .and_then(Node::text)
            .and_then(|c| c.trim().to_ascii_uppercase().parse().ok());
        return Some((amount, currency.or(own)));
    }
    let raw = node.text()?.trim();
    if raw.chars().count() > 40 {
        return None;
    }
    let mut currency = None;
    let mut s: String = raw.to_owned();
    for symbol in [('€', "EUR"), ('$', "USD"), ('£', "GBP")] {
        if s.contains(symbol.0) {
            s = s.replace(symbol.0, "");
            currency = symbol.1.parse().ok();
        }
    }
    let mut words: Vec<&str> = s.split_whitespace().collect();
    if words.len() == 2 {
        let code = if words.first()?.chars().all(|c| c.is_ascii_alphabetic()) {
            words.remove(0)
        } else {
            words.pop()?
        };
        currency = Some(code.to_ascii_uppercase().parse().ok()?);
    }
    let number = words.concat();
    let (negative, digits) = match number.strip_prefix('-') {
        Some(rest) => (true, rest.to_owned()),
        None => (false, number),
    };
    // "1,234.50" and "12,50"
    let digits = if digits.contains('.') {
        digits.replace(',', "")
    } else {
        digits.replace(',', ".")
    };
    let amount = parse_amount("amount", &digits).ok()?;
    Some((if negative { -amount } else { amount }, currency))
}

fn number(node: &Node) -> Option<Decimal> {
    money(node).map(|(a, _)| a).filter(|a| *a >= Decimal::ZERO)
}

fn text(node: &Node) -> Option<String> {
    let t = node.text()?.trim();
    (!t.is_empty()).then(|| t.chars().take(200).collect())
}

fn mcc(node: &Node) -> Option<String> {
    let t = node.text()?.trim();
    (t.len() == 4 && t.bytes().all(|b| b.is_ascii_digit())).then(|| t.to_owned())
}

fn country(node: &Node) -> Option<String> {
    let t = node.text()?.trim();
    (t.len() == 3 && t.bytes().all(|b| b.is_ascii_alphabetic())).then(|| t.to_ascii_uppercase())
}

fn line(index: usize, node: &Node) -> RawLine {
    let Some(e) = node.entries() else {
        return RawLine {
            index,
            text: text(node),
            ..RawLine::default()
        };
    };
    let quantity = field(e, QUANTITY).and_then(number);
    let amount = field(e, LINE_AMOUNT).and_then(money).or_else(|| {
        let (price, currency) = field(e, UNIT_PRICE).and_then(money)?;
        Some((price * quantity.unwrap_or(Decimal::ONE), currency))
    });
    RawLine {
        index,
        text: field(e, TEXT).and_then(text),
        amount: amount.map(|(a, _)| a.abs()),
        negative: amount.is_some_and(|(a, _)| a < Decimal::ZERO),
        currency: amount.and_then(|(_, c)| c),
        quantity,
        unit: field(e, UNIT).and_then(text),
        mcc: field(e, &["categorycode", "mcc"]).and_then(mcc),
        category: field(e, &["category"]).and_then(text),
        origin: field(e, ORIGIN).and_then(text),
        destination: field(e, DESTINATION).and_then(text),
        passengers: field(e, &["passengers"]).and_then(number),
        distance_km: field(e, &["distancekm", "distance"]).and_then(number),
    }
}

/// Reads a document (already [`Node::check`]ed). More than
/// [`MAX_LINES`] lines is `validation_error`.
pub fn read(root: &Node) -> Result<Document, EstimateError> {
    let Some(e) = root.entries() else {
        return Ok(Document::default());
    };
    let lines = match field(e, LINES) {
        Some(Node::List(items)) => {
            if items.len() > MAX_LINES {
                return Err(EstimateError::invalid(
                    "unstructured_data.key_value",
                    &format!("lists more than {MAX_LINES} line items"),
                ));
            }
            items.iter().enumerate().map(|(i, n)| line(i, n)).collect()
        }
        _ => Vec::new(),
    };
    let total = field(e, TOTAL).and_then(money);
    let merchant = field(e, MERCHANT);
    let merchant_entries = merchant.and_then(Node::entries);
    Ok(Document {
        lines,
        total: total.map(|(a, _)| a).filter(|a| *a >= Decimal::ZERO),
        currency: field(e, CURRENCY)
            .and_then(Node::text)
            .and_then(|c| c.trim().to_ascii_uppercase().parse().ok())
            .or(total.and_then(|(_, c)| c)),
        merchant_name: match merchant_entries {
            Some(m) => field(m, &["name"]).and_then(text),
            None => merchant.and_then(text),
        },
        merchant_mcc: merchant_entries
            .and_then(|m| field(m, MCC))
            .or_else(|| field(e, MCC))
            .and_then(mcc),
        country_code: merchant_entries
            .and_then(|m| field(m, COUNTRY))
            .or_else(|| field(e, COUNTRY))
            .and_then(country),
    })
}
