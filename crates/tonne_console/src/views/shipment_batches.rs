//! A member's shipment batches (API uploads and data sheets), newest first,
//! with the data-sheet upload form, and one batch with its rows' outcomes.

use maud::{Markup, html};
use tonne_accounts::Account;
use tonne_accounts::users::Principal;
use tonne_kernel::{AccountId, AccountMode};
use tonne_shipments::{Batch, BatchDetail, RowOutcome};

use super::controls::{account_chooser, mode_switch};
use super::dates::when;
use super::frame::page_in;
use super::shipment_figures::{SECTION, scope_query, subnav};
use super::table::{Col, table};

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
                        (table(Some("Batches, newest first"), &[
                            Col::Text("Batch"), Col::Text("Source"),
                            Col::Text("File"), Col::Text("Uploaded by"),
                            Col::Text("Status"), Col::Num("Stored"),
                            Col::Num("Failed"), Col::Text("Created"),
                        ], html! {
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
                        }))
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
                (table(Some("Each row's outcome, in upload order (row 0 is the first shipment)"), &[
                    Col::Num("Row"), Col::Text("Status"), Col::Text("Shipment or error"),
                ], html! {
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
                }))
            }
            p { a href=(format!("/console/shipments/batches?{q}")) { "Back to the batches" } }
        },
    )
}
