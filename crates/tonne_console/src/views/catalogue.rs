//! The operator's catalogue and a bundle's stock ledger.

use maud::{Markup, html};
use tonne_accounts::users::Principal;
use tonne_kernel::Currency;
use tonne_kernel::Mass;
use tonne_ordering::{Bundle, BundleView, DESCRIPTION_MAX, REASON_MAX, StockEntry};

use super::dates::when;
use super::frame::{page, page_in};
use super::table::{Col, table};

/// What the stock form held, to show it again with its error.
#[derive(Debug, Default, Clone)]
pub struct StockForm {
    pub direction: String,
    pub quantity: String,
    pub reason: String,
    pub problem: Option<String>,
    /// The form's one-time key (a fresh one when empty).
    pub once: String,
}

/// What the edit form held, to show it again with its error.
#[derive(Debug, Default, Clone)]
pub struct EditForm {
    pub description: String,
    /// Each currency the bundle is sold in, with the price as typed.
    pub prices: Vec<(Currency, String)>,
    pub problem: Option<String>,
}

impl EditForm {
    /// The form as the bundle stands.
    pub fn of(b: &Bundle) -> Self {
        Self {
            description: b.description.clone().unwrap_or_default(),
            prices: b
                .prices
                .iter()
                .map(|p| (p.unit_price.currency(), p.unit_price.to_decimal_string()))
                .collect(),
            problem: None,
        }
    }
}

fn available(b: &Bundle) -> String {
    match b.available {
        Some(m) => format!("{} t", m.to_tonnes_string()),
        None => "unlimited".to_owned(),
    }
}

fn prices(b: &Bundle) -> String {
    b.prices
        .iter()
        .map(|p| {
            format!(
                "{} {}",
                p.unit_price.currency().code(),
                p.unit_price.to_decimal_string()
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn state(b: &Bundle) -> &'static str {
    if b.disabled { "disabled" } else { "on sale" }
}

/// What an import came to: the problems of a refused file, or the counts.
#[derive(Debug, Default, Clone)]
pub struct ImportOutcome {
    /// Every problem of a refused file, by item (nothing was imported).
    pub problems: Vec<String>,
    /// What an accepted file changed.
    pub summary: Option<tonne_ordering::ports::ImportSummary>,
}

/// Every bundle, in id order, and the import form.
pub fn catalogue(
    who: &Principal,
    bundles: &[Bundle],
    next: Option<&str>,
    import: &ImportOutcome,
) -> Markup {
    let problem = (!import.problems.is_empty()).then(|| {
        format!(
            "The file was not imported: {} problems (listed under Import a catalogue file).",
            import.problems.len()
        )
    });
    page(
        who,
        "Catalogue",
        problem.as_deref(),
        html! {
            @if let Some(s) = &import.summary {
                p class="notice" role="status" {
                    "Imported: " (s.projects_created) " projects created, " (s.projects_updated) " updated; "
                    (s.bundles_created) " bundles created, " (s.bundles_updated) " updated; "
                    (s.portfolios_created) " portfolios created, " (s.portfolios_updated) " updated."
                }
            }
            p { "Every bundle, on sale or not, with what is left to sell. Open one to change its stock (each change is a ledger row with its reason) or to take it off sale." }
            @if bundles.is_empty() {
                p { "The catalogue is empty: import one with " code { "tonne catalogue import FILE" } "." }
            } @else {
                (table(Some("Bundles"), &[
                    Col::Text("Bundle"), Col::Num("Available"),
                    Col::Text("Price per tonne"), Col::Text("State"),
                ], html! {
                    @for b in bundles {
                        tr {
                            td { a href=(format!("/console/catalogue/{}", b.id)) { (b.name) } }
                            td class="num" { (available(b)) }
                            td { (prices(b)) }
                            td class="status" { (state(b)) }
                        }
                    }
                }))
            }
            @if let Some(after) = next {
                p { a href=(format!("/console/catalogue?after={after}")) rel="next" { "More bundles" } }
            }
            h2 { "Import a catalogue file" }
            @if !import.problems.is_empty() {
                div class="error" role="alert" {
                    p { "Nothing was imported. Fix these and send the file again:" }
                    ul { @for p in &import.problems { li { (p) } } }
                }
            }
            form method="post" action="/console/catalogue/import" enctype="multipart/form-data" {
                input type="hidden" name="csrf" value=(who.session.csrf_token);
                div class="field" {
                    label for="file" { "Catalogue file (JSON, " code { "tonne-catalogue/1" } ")" }
                    p class="hint" id="file-hint" { "The whole file is checked first; any problem, and nothing is imported. Items are matched by key: importing a file again updates them. At most 2 MB." }
                    input type="file" id="file" name="file" accept="application/json,.json" required aria-describedby="file-hint";
                }
                button type="submit" { "Import file" }
            }
        },
    )
}

fn signed(grams: i64) -> String {
    let size = Mass::from_grams(grams.unsigned_abs().try_into().unwrap_or(i64::MAX));
    let sign = if grams < 0 { "−" } else { "+" };
    format!("{sign}{} t", size.to_tonnes_string())
}

/// A bundle: its facts, its projects, the stock form, on/off sale, the ledger.
pub fn bundle(
    who: &Principal,
    view: &BundleView,
    ledger: &[StockEntry],
    next: Option<&str>,
    form: &StockForm,
    edit: Option<&EditForm>,
) -> Markup {
    let b = &view.bundle;
    let fresh = EditForm::of(b);
    let edit = edit.unwrap_or(&fresh);
    let here = format!("/console/catalogue/{}", b.id);
    page_in(
        who,
        "Catalogue",
        &b.name,
        form.problem.as_deref().or(edit.problem.as_deref()),
        html! {
            p { a href="/console/catalogue" { "All bundles" } }
            dl {
                dt { "Available" } dd { (available(b)) }
                dt { "Price per tonne" } dd { (prices(b)) }
                dt { "State" } dd { (state(b)) @if let Some(at) = b.disabled_at { " since " (when(at)) } }
                @if let Some(d) = &b.description { dt { "Description" } dd { (d) } }
                dt { "Projects" }
                dd { @for (i, p) in view.projects.iter().enumerate() { @if i > 0 { ", " } (p.name) } }
            }
            @if b.available.is_some() {
                h2 { "Change stock" }
                form method="post" action=(format!("{here}/stock")) {
                    input type="hidden" name="csrf" value=(who.session.csrf_token);
                    input type="hidden" name="once" value=(if form.once.is_empty() { super::controls::once_key() } else { form.once.clone() });
                    div class="filters" {
                        div class="field" {
                            label for="direction" { "Change" }
                            select id="direction" name="direction" {
                                option value="add" selected[form.direction != "remove"] { "Add" }
                                option value="remove" selected[form.direction == "remove"] { "Remove" }
                            }
                        }
                        div class="field" {
                            label for="quantity" { "Quantity (tonnes)" }
                            input type="text" id="quantity" name="quantity" value=(form.quantity)
                                inputmode="decimal" autocomplete="off" required;
                        }
                    }
                    div class="field" {
                        label for="reason" { "Reason" }
                        p class="hint" id="reason-hint" { "Kept in the ledger: a purchase, a withdrawal, a correction. At most " (REASON_MAX) " characters." }
                        input type="text" id="reason" name="reason" value=(form.reason)
                            maxlength=(REASON_MAX) required aria-describedby="reason-hint";
                    }
                    button type="submit" { "Change stock" }
                }
            } @else {
                p { "This bundle is unlimited: it has no stock to change." }
            }
            h2 { "Description and prices" }
            form method="post" action=(format!("{here}/edit")) {
                input type="hidden" name="csrf" value=(who.session.csrf_token);
                div class="field" {
                    label for="description" { "Description" }
                    p class="hint" id="description-hint" { "Shown to clients with the bundle. At most " (DESCRIPTION_MAX) " characters; empty clears it." }
                    textarea id="description" name="description" rows="4" maxlength=(DESCRIPTION_MAX)
                        aria-describedby="description-hint" { (edit.description) }
                }
                div class="filters" {
                    @for (currency, price) in &edit.prices {
                        div class="field" {
                            label for=(format!("price-{}", currency.code())) { "Price per tonne (" (currency.code()) ")" }
                            input type="text" id=(format!("price-{}", currency.code()))
                                name=(format!("price_{}", currency.code())) value=(price)
                                inputmode="decimal" autocomplete="off" required;
                        }
                    }
                }
                button type="submit" { "Save bundle" }
            }
            h2 { "Sale" }
            form method="post" action=(format!("{here}/state")) {
                input type="hidden" name="csrf" value=(who.session.csrf_token);
                @if b.disabled {
                    input type="hidden" name="enabled" value="true";
                    button type="submit" { "Put back on sale" }
                } @else {
                    input type="hidden" name="enabled" value="false";
                    button type="submit" { "Take off sale" }
                }
            }
            h2 { "Stock ledger" }
            @if ledger.is_empty() {
                p { "No stock change recorded yet." }
            } @else {
                (table(Some("Stock changes, newest first"), &[
                    Col::Text("When"), Col::Text("Who"),
                    Col::Num("Change"), Col::Text("Reason"),
                    Col::Num("Available after"),
                ], html! {
                    @for e in ledger {
                        tr {
                            td { (when(e.at)) }
                            td { (e.actor) }
                            td class="num" { (signed(e.delta_grams)) }
                            td { (e.reason) }
                            td class="num" { (e.available_after.to_tonnes_string()) " t" }
                        }
                    }
                }))
            }
            @if let Some(after) = next {
                p { a href=(format!("{here}?after={after}")) rel="next" { "Older changes" } }
            }
        },
    )
}
