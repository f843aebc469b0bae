//! A member's shipments: the list with its filters, one shipment with its
//! legs and their well-to-wheel emissions, the batches (API uploads and data
//! sheets) with the data-sheet upload form, and one batch's row results.

use maud::{Markup, html};
use rust_decimal::Decimal;
use serde_json::Value;
use tonne_accounts::Account;
use tonne_accounts::users::Principal;
use tonne_kernel::{AccountId, AccountMode, Mass};
use tonne_shipments::{
    Batch, BatchDetail, Carriage, LegEmissions, RowOutcome, Shipment, ShipmentCounts, Totals,
    TransportMode,
};

use super::{account_chooser, mode_switch, page_in, url_query, when};

const SECTION: &str = "Shipments";

/// The query every shipments page keeps: the mode and the account.
fn scope_query(mode: AccountMode, account: AccountId) -> String {
    format!("mode={}&account={account}", mode.as_str())
}

/// The three pages of the section, the current one marked.
fn subnav(mode: AccountMode, account: Option<AccountId>, current: &str) -> Markup {
    let q = account
        .map(|a| format!("?{}", scope_query(mode, a)))
        .unwrap_or_else(|| format!("?mode={}", mode.as_str()));
    let links = [
        ("Shipments", "/console/shipments"),
        ("Batches and data sheets", "/console/shipments/batches"),
    ];
    html! {
        nav aria-label="Shipments" {
            ul class="subnav" {
                @for (name, href) in links {
                    li {
                        @if name == current {
                            a href=(format!("{href}{q}")) aria-current="page" { (name) }
                        } @else {
                            a href=(format!("{href}{q}")) { (name) }
                        }
                    }
                }
            }
        }
    }
}

/// A mass as kg CO2e, to the gram.
pub(super) fn kg(m: Mass) -> String {
    format!("{} kg", Decimal::new(m.grams(), 3).normalize())
}

/// Grams CO2e per tonne-km of some totals, when any activity.
fn intensity(t: &Totals) -> String {
    t.intensity_g_per_tkm(Totals::total).map_or_else(
        || "—".to_owned(),
        |g| format!("{} g/t·km", g.round_dp(3).normalize()),
    )
}

fn mode_name(m: TransportMode) -> &'static str {
    match m {
        TransportMode::Road => "road",
        TransportMode::Sea => "sea",
        TransportMode::Air => "air",
        TransportMode::Rail => "rail",
        TransportMode::InlandWaterway => "inland waterway",
    }
}

fn phase_name(c: Carriage) -> &'static str {
    match c {
        Carriage::Pre => "Pre-carriage",
        Carriage::Main => "Main carriage",
        Carriage::On => "On-carriage",
    }
}

/// What the list's filter form held (as typed), to draw it again.
#[derive(Debug, Default, Clone)]
pub struct ShipmentFilterForm {
    pub search: String,
    pub date_from: String,
    pub date_to: String,
    /// The modes chosen per phase (pre, main, on), by wire name.
    pub modes: [Vec<String>; 3],
    pub batch: String,
    /// `""`, `"true"` or `"false"`.
    pub flagged: String,
    /// `""`/`"all"`, `"with_co2e"` or `"without_co2e"`.
    pub emissions: String,
    /// Why the filter could not be used.
    pub problem: Option<String>,
}

impl ShipmentFilterForm {
    /// The filter as query pairs (for the next page's link).
    pub fn query(&self) -> Vec<(String, String)> {
        let mut q = vec![
            ("search".to_owned(), self.search.clone()),
            ("date_from".to_owned(), self.date_from.clone()),
            ("date_to".to_owned(), self.date_to.clone()),
            ("batch".to_owned(), self.batch.clone()),
            ("flagged".to_owned(), self.flagged.clone()),
            ("emissions".to_owned(), self.emissions.clone()),
        ];
        for (c, chosen) in Carriage::ALL.iter().zip(&self.modes) {
            for m in chosen {
                q.push((c.as_str().to_owned(), m.clone()));
            }
        }
        q.retain(|(_, v)| !v.is_empty());
        q
    }
}

/// A shipment's total well-to-wheel CO2e, or why there is none.
fn total(s: &Shipment) -> String {
    s.emissions
        .as_ref()
        .map_or_else(|| "not calculated".to_owned(), |e| kg(e.total.total()))
}

fn modes_of(s: &Shipment, c: Carriage) -> String {
    let modes: Vec<_> = s
        .facets
        .modes
        .get(c.index())
        .map(|set| set.modes())
        .unwrap_or_default()
        .into_iter()
        .map(mode_name)
        .collect();
    if modes.is_empty() {
        "—".to_owned()
    } else {
        modes.join(", ")
    }
}

/// The account's shipments the filter selects, newest first.
#[allow(clippy::too_many_arguments)]
pub fn shipments(
    who: &Principal,
    mode: AccountMode,
    accounts: &[Account],
    account: Option<AccountId>,
    form: &ShipmentFilterForm,
    found: &[Shipment],
    counts: Option<ShipmentCounts>,
    next: Option<&str>,
) -> Markup {
    let chosen = account.map(|a| a.to_string()).unwrap_or_default();
    let next_href = next.zip(account).map(|(after, account)| {
        let mut q = form.query();
        q.push(("after".to_owned(), after.to_owned()));
        let pairs: Vec<(&str, &str)> = q.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        format!(
            "/console/shipments?{}&{}",
            scope_query(mode, account),
            url_query(&pairs)
        )
    });
    page_in(
        who,
        SECTION,
        &format!("Shipments ({})", mode.as_str()),
        form.problem.as_deref(),
        html! {
            (mode_switch("/console/shipments", mode))
            (subnav(mode, account, "Shipments"))
            @if accounts.is_empty() {
                p { "This organisation has no account in this mode." }
            } @else {
                (account_chooser("/console/shipments", mode, accounts, &chosen))
                (filter_form(mode, &chosen, form))
                @if let Some(c) = counts {
                    p role="status" {
                        (c.all) " shipments match: " (c.with_co2e) " with emissions, "
                        (c.without_co2e) " without."
                    }
                }
                @if found.is_empty() {
                    p { "No shipment matches." }
                } @else if let Some(account) = account {
                    div class="table-wrap" {
                        table {
                            caption class="hint" { "Shipments, newest first" }
                            thead { tr {
                                th scope="col" { "Shipment" } th scope="col" { "Supplier" }
                                th scope="col" { "Date" } th scope="col" { "Main carriage" }
                                th scope="col" class="num" { "CO2e (well-to-wheel)" }
                                th scope="col" { "Flagged" } th scope="col" { "Created" }
                            } }
                            tbody {
                                @for s in found {
                                    tr {
                                        td {
                                            a href=(format!("/console/shipments/{}?{}", s.id, scope_query(mode, account))) {
                                                @if s.facets.reference.is_empty() { (s.id) } @else { (s.facets.reference) }
                                            }
                                        }
                                        td { (s.supplier.name) }
                                        td { @match s.facets.shipment_date { Some(d) => { (d) } None => { "—" } } }
                                        td { (modes_of(s, Carriage::Main)) }
                                        td class="num" { (total(s)) }
                                        td { @if s.emissions.as_ref().is_some_and(|e| e.flagged) { "flagged" } @else { "no" } }
                                        td { (when(s.created_at)) }
                                    }
                                }
                            }
                        }
                    }
                    @if let Some(href) = &next_href {
                        p { a href=(href) rel="next" { "Older shipments" } }
                    }
                }
            }
        },
    )
}

fn filter_form(mode: AccountMode, account: &str, form: &ShipmentFilterForm) -> Markup {
    let described = form.problem.as_ref().map(|_| "filter-problem");
    html! {
        h2 { "Filter" }
        form method="get" action="/console/shipments" aria-describedby=[described] {
            input type="hidden" name="mode" value=(mode.as_str());
            input type="hidden" name="account" value=(account);
            @if let Some(p) = &form.problem { p class="error" id="filter-problem" { (p) } }
            div class="filters" {
                div class="field" {
                    label for="search" { "Shipment id" }
                    input type="text" id="search" name="search" value=(form.search) maxlength="255";
                }
                div class="field" {
                    label for="date_from" { "Shipment date from" }
                    input type="date" id="date_from" name="date_from" value=(form.date_from);
                }
                div class="field" {
                    label for="date_to" { "Shipment date to" }
                    input type="date" id="date_to" name="date_to" value=(form.date_to);
                }
                div class="field" {
                    label for="batch" { "Batch id" }
                    input type="text" id="batch" name="batch" value=(form.batch) maxlength="64" spellcheck="false";
                }
                div class="field" {
                    label for="flagged" { "Flagged legs" }
                    select id="flagged" name="flagged" {
                        option value="" selected[form.flagged.is_empty()] { "Any" }
                        option value="true" selected[form.flagged == "true"] { "With a flagged leg" }
                        option value="false" selected[form.flagged == "false"] { "Without" }
                    }
                }
                div class="field" {
                    label for="emissions" { "Emissions" }
                    select id="emissions" name="emissions" {
                        option value="all" selected[form.emissions.is_empty() || form.emissions == "all"] { "All" }
                        option value="with_co2e" selected[form.emissions == "with_co2e"] { "Calculated" }
                        option value="without_co2e" selected[form.emissions == "without_co2e"] { "Not calculated" }
                    }
                }
            }
            div class="filters" {
                @for (c, chosen) in Carriage::ALL.iter().zip(&form.modes) {
                    fieldset class="field modes" {
                        legend { (phase_name(*c)) " by" }
                        @for m in TransportMode::ALL {
                            @let id = format!("{}-{}", c.as_str(), m.as_str());
                            div class="check" {
                                input type="checkbox" id=(id) name=(c.as_str()) value=(m.as_str())
                                    checked[chosen.iter().any(|x| x == m.as_str())];
                                label for=(id) { (mode_name(m)) }
                            }
                        }
                    }
                }
            }
            button type="submit" { "Filter" }
        }
    }
}

/// A row's problem in a data sheet, as the form lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetProblem {
    pub line: Option<u64>,
    pub column: Option<String>,
    pub message: String,
}

/// What the upload form held and what became of it.
#[derive(Debug, Default, Clone)]
pub struct UploadForm {
    pub once: String,
    /// Whether emissions are calculated as rows are stored.
    pub calculate: bool,
    /// The file's problems (nothing was uploaded).
    pub problems: Vec<SheetProblem>,
}

fn status_of(b: &Batch) -> String {
    match &b.batch_error {
        Some(_) => "failed".to_owned(),
        None => b.status.as_str().to_owned(),
    }
}

fn count(n: Option<u32>) -> String {
    n.map_or_else(|| "—".to_owned(), |n| n.to_string())
}

fn source_name(b: &Batch) -> &'static str {
    match b.source {
        tonne_shipments::BatchSource::Api => "API",
        tonne_shipments::BatchSource::DataSheet => "data sheet",
    }
}

/// The account's batches, newest first, and the data-sheet upload form.
#[allow(clippy::too_many_arguments)]
pub fn batches(
    who: &Principal,
    mode: AccountMode,
    accounts: &[Account],
    account: Option<AccountId>,
    found: &[Batch],
    next: Option<&str>,
    form: &UploadForm,
) -> Markup {
    let chosen = account.map(|a| a.to_string()).unwrap_or_default();
    let summary = (!form.problems.is_empty()).then(|| {
        format!(
            "The data sheet was not uploaded: {} problems (listed under Upload a data sheet).",
            form.problems.len()
        )
    });
    page_in(
        who,
        SECTION,
        &format!("Shipment batches ({})", mode.as_str()),
        summary.as_deref(),
        html! {
            (mode_switch("/console/shipments/batches", mode))
            (subnav(mode, account, "Batches and data sheets"))
            @if accounts.is_empty() {
                p { "This organisation has no account in this mode." }
            } @else {
                (account_chooser("/console/shipments/batches", mode, accounts, &chosen))
                @if let Some(account) = account {
                    @if found.is_empty() {
                        p { "No batch on this account yet." }
                    } @else {
                        div class="table-wrap" {
                            table {
                                caption class="hint" { "Batches, newest first" }
                                thead { tr {
                                    th scope="col" { "Batch" } th scope="col" { "Source" }
                                    th scope="col" { "File" } th scope="col" { "Uploaded by" }
                                    th scope="col" { "Status" } th scope="col" class="num" { "Stored" }
                                    th scope="col" class="num" { "Failed" } th scope="col" { "Created" }
                                } }
                                tbody {
                                    @for b in found {
                                        tr {
                                            td { a href=(format!("/console/shipments/batches/{}?{}", b.id, scope_query(mode, account))) { code { (b.id) } } }
                                            td { (source_name(b)) }
                                            td { @match &b.data_sheet { Some(d) => { (d.filename) } None => { "—" } } }
                                            td { @match b.data_sheet.as_ref().and_then(|d| d.uploader.as_deref()) { Some(u) => { (u) } None => { "—" } } }
                                            td class="status" { (status_of(b)) }
                                            td class="num" { (count(b.success_count)) }
                                            td class="num" { (count(b.failed_count)) }
                                            td { (when(b.created_at)) }
                                        }
                                    }
                                }
                            }
                        }
                        @if let Some(after) = next {
                            p { a href=(format!("/console/shipments/batches?{}&after={after}", scope_query(mode, account))) rel="next" { "Older batches" } }
                        }
                    }
                    (upload_form(who, mode, account, form))
                }
            }
        },
    )
}

fn where_of(p: &SheetProblem) -> String {
    match (p.line, &p.column) {
        (Some(l), Some(c)) => format!("Line {l}, column {c}"),
        (Some(l), None) => format!("Line {l}"),
        (None, _) => "The file".to_owned(),
    }
}

fn upload_form(
    who: &Principal,
    mode: AccountMode,
    account: AccountId,
    form: &UploadForm,
) -> Markup {
    let described = if form.problems.is_empty() {
        "file-hint"
    } else {
        "file-hint sheet-problems"
    };
    html! {
        h2 id="upload" { "Upload a data sheet" }
        p {
            "A CSV file, one line per leg; consecutive lines with the same "
            code { "shipment_id" } " are one shipment. "
            a href="/console/shipments/template.csv" download="tonne-shipments-template.csv" { "Download the template (CSV)" }
            ", which describes every column and has example lines."
        }
        @if !form.problems.is_empty() {
            div class="error" role="alert" id="sheet-problems" tabindex="-1" {
                h3 { "Nothing was uploaded. Fix these and send the file again:" }
                ul {
                    @for p in &form.problems {
                        li { strong { (where_of(p)) } ": " (p.message) }
                    }
                }
            }
        }
        form method="post" action="/console/shipments/batches" enctype="multipart/form-data" {
            input type="hidden" name="csrf" value=(who.session.csrf_token);
            input type="hidden" name="once" value=(form.once);
            input type="hidden" name="mode" value=(mode.as_str());
            input type="hidden" name="account" value=(account);
            div class="field" {
                label for="file" { "Data sheet (CSV, UTF-8)" }
                p class="hint" id="file-hint" {
                    "The whole file is checked first: any problem, and nothing is uploaded. "
                    "At most 8 MB and 10,000 shipments. Rows are then processed in the background; the batch's page shows each row's outcome."
                }
                input type="file" id="file" name="file" accept="text/csv,.csv" required
                    aria-describedby=(described)
                    aria-invalid=[(!form.problems.is_empty()).then_some("true")];
            }
            div class="check" {
                input type="checkbox" id="calculate" name="calculate" value="true" checked[form.calculate];
                label for="calculate" { "Calculate emissions as the rows are stored" }
            }
            button type="submit" { "Upload data sheet" }
        }
    }
}

/// A batch and its rows' outcomes.
pub fn batch(who: &Principal, mode: AccountMode, detail: &BatchDetail) -> Markup {
    let b = &detail.batch;
    let q = scope_query(mode, b.account_id);
    page_in(
        who,
        SECTION,
        "Shipment batch",
        None,
        html! {
            (subnav(mode, Some(b.account_id), ""))
            dl class="summary" {
                dt { "Id" } dd { code { (b.id) } }
                dt { "Source" } dd { (source_name(b)) }
                @if let Some(d) = &b.data_sheet {
                    dt { "File" } dd { (d.filename) }
                    dt { "Uploaded by" } dd { (d.uploader.as_deref().unwrap_or("—")) }
                }
                dt { "Account" } dd { (b.account_name) }
                dt { "Status" } dd { (status_of(b)) }
                dt { "Rows stored" } dd { (count(b.success_count)) }
                dt { "Rows failed" } dd { (count(b.failed_count)) }
                dt { "Created" } dd { (when(b.created_at)) }
                @if let Some(e) = &b.batch_error { dt { "Error" } dd { (e) } }
            }
            @if b.success_count.is_some_and(|n| n > 0) {
                p { a href=(format!("/console/shipments?{q}&batch={}", b.id)) { "This batch's shipments" } }
            }
            h2 { "Rows" }
            @if detail.results.is_empty() {
                p { "No row has been processed yet: reload the page in a moment." }
            } @else {
                div class="table-wrap" {
                    table {
                        caption class="hint" { "Each row's outcome, in upload order (row 0 is the first shipment)" }
                        thead { tr {
                            th scope="col" class="num" { "Row" } th scope="col" { "Status" } th scope="col" { "Shipment or error" }
                        } }
                        tbody {
                            @for r in &detail.results {
                                tr {
                                    th scope="row" class="num" { (r.row_index) }
                                    @match &r.outcome {
                                        RowOutcome::Success(id) => {
                                            td class="status" { "stored" }
                                            td { a href=(format!("/console/shipments/{id}?{q}")) { code { (id) } } }
                                        }
                                        RowOutcome::Failed(e) => {
                                            td class="status" { "failed" }
                                            td { (e) }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            p { a href=(format!("/console/shipments/batches?{q}")) { "Back to the batches" } }
        },
    )
}

/// A label from a wire field name: `reference_id_po` → `Reference id po`.
fn label(key: &str) -> String {
    let mut s = key.replace('_', " ");
    if let Some(first) = s.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    s
}

/// A JSON value as text: strings bare, an amount with its unit or currency,
/// other objects as `key: value` pairs.
fn text(v: &Value) -> String {
    let s = |k: &str| v.get(k).and_then(Value::as_str);
    if let (Some(amount), Some(unit)) = (s("amount").or(s("value")), s("unit").or(s("currency"))) {
        return format!("{amount} {unit}");
    }
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "—".to_owned(),
        Value::Object(o) => o
            .iter()
            .map(|(k, v)| format!("{}: {}", k.replace('_', " "), text(v)))
            .collect::<Vec<_>>()
            .join(", "),
        Value::Array(a) => a.iter().map(text).collect::<Vec<_>>().join("; "),
        other => other.to_string(),
    }
}

/// A leg's origin or destination as sent.
fn place(v: Option<&Value>) -> String {
    let Some(v) = v else {
        return "—".to_owned();
    };
    let s = |k: &str| v.get(k).and_then(Value::as_str);
    if let Some(l) = s("locode") {
        return format!("{l} (UN/LOCODE)");
    }
    if let Some(c) = s("code") {
        return format!("{c} (airport)");
    }
    if let Some(u) = s("unknown_code") {
        return format!("{u} (unknown code)");
    }
    if let (Some(lat), Some(lon)) = (v.get("lat"), v.get("lon")) {
        return format!("{lat}, {lon}");
    }
    let parts: Vec<&str> = [
        "street_line1",
        "street_line2",
        "postcode",
        "city",
        "country_code",
    ]
    .into_iter()
    .filter_map(s)
    .collect();
    if parts.is_empty() {
        text(v)
    } else {
        parts.join(", ")
    }
}

/// The row's legs in the shipment's order: by `order` when every leg gives one.
fn legs_in_order(row: &Value) -> Vec<&Value> {
    let mut legs: Vec<&Value> = row
        .get("legs")
        .and_then(Value::as_array)
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    if legs
        .iter()
        .all(|l| l.get("order").and_then(Value::as_u64).is_some())
    {
        legs.sort_by_key(|l| l.get("order").and_then(Value::as_u64));
    }
    legs
}

fn leg_emissions(e: Option<&LegEmissions>) -> Markup {
    html! {
        @match e {
            None => {
                dt { "Emissions" } dd { "none: no factor Tonne can cite, or not calculated" }
            }
            Some(e) => {
                dt { "Distance" } dd { (e.distance_km.normalize()) " km" }
                dt { "Well-to-tank (WTT)" } dd { (kg(e.wtt)) " CO2e" }
                dt { "Tank-to-wheel (TTW)" } dd { (kg(e.ttw)) " CO2e" }
                dt { "Well-to-wheel (total)" } dd { (kg(e.total())) " CO2e" }
                dt { "Intensity" } dd {
                    @match &e.factor {
                        Some(f) => { (f.intensity.normalize()) " " (f.numerator) " per " (f.denominator) }
                        None => { (intensity(&Totals { wtt: e.wtt, ttw: e.ttw, activity: e.activity })) }
                    }
                }
                @if let Some(f) = &e.factor {
                    dt { "Factor" } dd {
                        (f.description) " — " (f.source)
                        @if let Some(y) = f.year { " (" (y) ")" }
                    }
                }
                @if let Some(g) = &e.grade { dt { "Data quality" } dd { (g.replace('_', " ")) } }
                dt { "Flagged" } dd {
                    @if e.flagged {
                        "yes"
                        @if !e.notes.is_empty() { ": " (e.notes.join("; ").replace('_', " ")) }
                    } @else { "no" }
                }
            }
        }
    }
}

/// One shipment: its fields as sent, Tonne's facts, and each leg with its emissions.
pub fn shipment(who: &Principal, mode: AccountMode, s: &Shipment) -> Markup {
    let row: Value = serde_json::from_str(&s.row).unwrap_or(Value::Null);
    let q = scope_query(mode, s.account_id);
    let title = if s.facets.reference.is_empty() {
        "Shipment".to_owned()
    } else {
        format!("Shipment {}", s.facets.reference)
    };
    let fields: Vec<(&String, &Value)> = row
        .as_object()
        .map(|o| {
            o.iter()
                .filter(|(k, _)| !matches!(k.as_str(), "legs" | "emissions"))
                .collect()
        })
        .unwrap_or_default();
    let legs = legs_in_order(&row);
    let emissions = s.emissions.as_ref();
    page_in(
        who,
        SECTION,
        &title,
        None,
        html! {
            (subnav(mode, Some(s.account_id), ""))
            dl class="summary" {
                dt { "Id" } dd { code { (s.id) } }
                dt { "Shipper" } dd { (s.shipper.name) }
                dt { "Supplier" } dd { (s.supplier.name) }
                dt { "Shipment date" } dd { @match s.facets.shipment_date { Some(d) => { (d) } None => { "—" } } }
                dt { "Batch" } dd { a href=(format!("/console/shipments/batches/{}?{q}", s.batch_id)) { code { (s.batch_id) } } }
                dt { "Created" } dd { (when(s.created_at)) }
                @match emissions {
                    Some(e) => {
                        dt { "CO2e, well-to-wheel" } dd {
                            (kg(e.total.total())) " (WTT " (kg(e.total.wtt)) ", TTW " (kg(e.total.ttw)) ")"
                            @if e.source == tonne_shipments::EmissionsSource::Manual { ", as you sent it" }
                        }
                        dt { "Intensity" } dd { (intensity(&e.total)) }
                        dt { "Distance" } dd { (e.distance_km.normalize()) " km" }
                        dt { "Flagged" } dd { @if e.flagged { "yes: a leg's intensity stands in for one Tonne could not know" } @else { "no" } }
                    }
                    None => { dt { "CO2e" } dd { "not calculated" } }
                }
            }
            h2 { "As sent" }
            @if fields.is_empty() {
                p { "Only the legs." }
            } @else {
                dl class="summary" {
                    @for (k, v) in &fields {
                        dt { (label(k)) } dd { (text(v)) }
                    }
                }
            }
            @if let Some(phases) = emissions.and_then(|e| e.phases.as_ref()) {
                div class="table-wrap" {
                    table {
                        caption { "Emissions by carriage phase (kg CO2e)" }
                        thead { tr {
                            th scope="col" { "Phase" } th scope="col" class="num" { "WTT" }
                            th scope="col" class="num" { "TTW" } th scope="col" class="num" { "Total" }
                            th scope="col" class="num" { "Intensity" }
                        } }
                        tbody {
                            @for (c, t) in Carriage::ALL.iter().zip(phases.iter()) {
                                tr {
                                    th scope="row" { (phase_name(*c)) }
                                    td class="num" { (kg(t.wtt)) }
                                    td class="num" { (kg(t.ttw)) }
                                    td class="num" { (kg(t.total())) }
                                    td class="num" { (intensity(t)) }
                                }
                            }
                        }
                    }
                }
            }
            h2 { "Legs" }
            @for (i, leg) in legs.iter().enumerate() {
                @let carriage = leg.get("carriage").and_then(Value::as_str).and_then(Carriage::parse);
                h3 {
                    "Leg " (i.saturating_add(1)) ": "
                    (carriage.map_or("unknown carriage", phase_name))
                }
                dl class="summary" {
                    @if let Some(id) = leg.get("leg_id") { dt { "Leg id" } dd { (text(id)) } }
                    dt { "Method" } dd { (leg.get("method").map_or_else(|| "—".to_owned(), text)) }
                    dt { "Origin" } dd { (place(leg.get("origin"))) }
                    dt { "Destination" } dd { (place(leg.get("destination"))) }
                    @if let Some(d) = leg.get("distance") { dt { "Distance sent" } dd { (text(d)) } }
                    @if let Some(l) = leg.get("load") { dt { "Load" } dd { (text(l)) } }
                    @if let Some(d) = leg.get("dates") { dt { "Dates" } dd { (text(d)) } }
                    @if emissions.is_some() {
                        (leg_emissions(emissions.and_then(|e| e.legs.get(i)).and_then(Option::as_ref)))
                    }
                }
            }
            p { a href=(format!("/console/shipments?{q}")) { "Back to the shipments" } }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn places_read_as_sent_and_legs_go_in_their_order() {
        assert_eq!(
            place(Some(&json!({"locode": "NLRTM"}))),
            "NLRTM (UN/LOCODE)"
        );
        assert_eq!(place(Some(&json!({"code": "FRA"}))), "FRA (airport)");
        assert_eq!(place(Some(&json!({"lat": 50.5, "lon": 8}))), "50.5, 8");
        assert_eq!(
            place(Some(&json!({"city": "Hamburg", "country_code": "DEU"}))),
            "Hamburg, DEU"
        );
        assert_eq!(place(None), "—");
        let row = json!({"legs": [{"order": 2, "leg_id": "b"}, {"order": 1, "leg_id": "a"}]});
        let ids: Vec<_> = legs_in_order(&row)
            .iter()
            .map(|l| l["leg_id"].clone())
            .collect();
        assert_eq!(ids, [json!("a"), json!("b")]);
        // without an order on every leg: as sent
        let row = json!({"legs": [{"order": 2, "leg_id": "b"}, {"leg_id": "a"}]});
        assert_eq!(legs_in_order(&row)[0]["leg_id"], "b");
        assert_eq!(kg(Mass::from_grams(1_234_500)), "1234.5 kg");
        assert_eq!(
            text(&json!({"vehicle_type": "truck", "fuel": "diesel"})),
            "fuel: diesel, vehicle type: truck"
        );
    }

    #[test]
    fn the_filter_keeps_every_chosen_value_for_the_next_page() {
        let form = ShipmentFilterForm {
            search: "PO".into(),
            modes: [vec![], vec!["sea".into(), "rail".into()], vec![]],
            flagged: "true".into(),
            ..ShipmentFilterForm::default()
        };
        assert_eq!(
            form.query(),
            [
                ("search".to_owned(), "PO".to_owned()),
                ("flagged".to_owned(), "true".to_owned()),
                ("main".to_owned(), "sea".to_owned()),
                ("main".to_owned(), "rail".to_owned()),
            ]
        );
    }
}
