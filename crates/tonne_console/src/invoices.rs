//! Invoices in the console: the list (an operator's: every organisation's;
//! a member's: their organisation's), each one's PDF, an operator's "Mark
//! paid" (which pays the invoice's orders) and "Credit note", and a
//! member's billing details. The same use cases as `tonne invoices …`.

use crate::ConsoleState;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use serde::Deserialize;
use tonne_accounts::users::{Principal, Role};
use tonne_kernel::{Limit, PageRequest};
use tonne_ordering::invoices::Party;
use tonne_ordering::ports::InvoiceError;

use crate::answers::{ListQuery, PAGE_SIZE, respond, see_other, unavailable};
use crate::error::ConsoleError;
use crate::once::{self, Claim};
use crate::session::{OperatorForm, SignedForm, SignedIn};
use crate::views::{self, BillingForm};

async fn list_page(
    state: &ConsoleState,
    who: &Principal,
    after: Option<&str>,
    billing: Option<BillingForm>,
    problem: Option<&str>,
    status: StatusCode,
) -> HttpResponse {
    let organisation = who.user.role.organisation();
    let page = PageRequest {
        limit: Limit::new(PAGE_SIZE).unwrap_or_default(),
        after: after.and_then(|a| a.parse().ok()),
    };
    let found = match state.invoices.invoices(organisation, page).await {
        Ok(found) => found,
        // a cursor that names no invoice of the list: start over
        Err(InvoiceError::Invalid(..)) => return see_other("/console/invoices"),
        Err(e) => return unavailable(e),
    };
    let billing = match (organisation, billing) {
        (Some(_), Some(form)) => Some(form),
        (Some(o), None) => match state.invoices.billing(o).await {
            Ok(on_file) => Some(BillingForm::of(&on_file)),
            Err(e) => return unavailable(e),
        },
        (None, _) => None,
    };
    let next = found.last_if_more().map(|i| i.id.to_string());
    respond(
        status,
        views::invoices(
            who,
            &found.items,
            next.as_deref(),
            billing.as_ref(),
            problem,
        ),
    )
}

/// `GET /console/invoices`.
pub(super) async fn list(
    state: web::Data<ConsoleState>,
    query: web::Query<ListQuery>,
    SignedIn(who): SignedIn,
) -> Result<HttpResponse, ConsoleError> {
    Ok(list_page(
        &state,
        &who,
        query.after.as_deref(),
        None,
        None,
        StatusCode::OK,
    )
    .await)
}

/// `GET /console/invoices/{id}/pdf`: an invoice the person may see.
pub(super) async fn pdf(
    state: web::Data<ConsoleState>,
    id: web::Path<String>,
    SignedIn(who): SignedIn,
) -> Result<HttpResponse, ConsoleError> {
    let invoice = match state
        .invoices
        .invoice(&id, who.user.role.organisation())
        .await
    {
        Ok(i) => i,
        Err(InvoiceError::NotFound) => return Err(ConsoleError::not_found(&who)),
        Err(e) => return Ok(unavailable(e)),
    };
    let name = tonne_http::invoice::file_name(&invoice);
    let bytes = web::block(move || tonne_http::invoice::render(&invoice))
        .await
        .map_err(ConsoleError::unavailable)?;
    Ok(HttpResponse::Ok()
        .content_type("application/pdf")
        .insert_header(("Cache-Control", "no-store"))
        .insert_header((
            "Content-Disposition",
            format!("attachment; filename=\"{name}\""),
        ))
        .body(bytes))
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct ActionForm {
    once: Option<String>,
}

/// `POST /console/invoices/{id}/pay` and `…/credit` (operators).
async fn act(
    state: &ConsoleState,
    id: &str,
    OperatorForm(who, form): OperatorForm<ActionForm>,
    credit: bool,
) -> Result<HttpResponse, ConsoleError> {
    let claim = match once::claim(state, form.once.as_deref()).await? {
        Claim::Repeat => return Ok(see_other("/console/invoices")),
        claim => claim,
    };
    let done = if credit {
        state.invoices.credit(id, &who.actor()).await
    } else {
        state.invoices.mark_paid(id, &who.actor()).await
    };
    if done.is_err() {
        once::release(state, &claim).await;
    }
    let problem = match done {
        Ok(_) => return Ok(see_other("/console/invoices")),
        Err(InvoiceError::NotFound) => return Err(ConsoleError::not_found(&who)),
        Err(InvoiceError::Conflict(i)) => format!(
            "{} is {} already: nothing changed.",
            i.printed_number(),
            i.status().as_str()
        ),
        Err(InvoiceError::Order(order, e)) => format!(
            "Order {order} could not be paid ({e}); the invoice stays unpaid. Settle the order, then mark the invoice paid again."
        ),
        Err(e) => return Ok(unavailable(e)),
    };
    Ok(list_page(
        state,
        &who,
        None,
        None,
        Some(&problem),
        StatusCode::CONFLICT,
    )
    .await)
}

/// `POST /console/invoices/{id}/pay`.
pub(super) async fn pay(
    state: web::Data<ConsoleState>,
    id: web::Path<String>,
    form: OperatorForm<ActionForm>,
) -> Result<HttpResponse, ConsoleError> {
    act(&state, &id, form, false).await
}

/// `POST /console/invoices/{id}/credit`.
pub(super) async fn credit(
    state: web::Data<ConsoleState>,
    id: web::Path<String>,
    form: OperatorForm<ActionForm>,
) -> Result<HttpResponse, ConsoleError> {
    act(&state, &id, form, true).await
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct BillingFields {
    once: Option<String>,
    name: Option<String>,
    address: Option<String>,
    tax_id: Option<String>,
    email: Option<String>,
}

/// `POST /console/invoices/billing`: a member's organisation's billing details.
pub(super) async fn billing(
    state: web::Data<ConsoleState>,
    SignedForm(who, form): SignedForm<BillingFields>,
) -> Result<HttpResponse, ConsoleError> {
    let Role::Member(organisation) = who.user.role else {
        return Err(ConsoleError::not_found(&who));
    };
    let text = |v: &Option<String>| v.clone().unwrap_or_default();
    let sent = BillingForm {
        name: text(&form.name),
        address: text(&form.address),
        tax_id: text(&form.tax_id),
        email: text(&form.email),
    };
    let details = match Party::parse(&sent.name, &sent.address, &sent.tax_id, &sent.email) {
        Ok(p) => p,
        Err((field, why)) => {
            let label = match field {
                "name" => "Legal name",
                "address" => "Postal address",
                "tax_id" => "Tax number",
                _ => "Invoices email",
            };
            let problem = format!("{label}: {why}. Nothing was saved.");
            return Ok(list_page(
                &state,
                &who,
                None,
                Some(sent),
                Some(&problem),
                StatusCode::BAD_REQUEST,
            )
            .await);
        }
    };
    let claim = match once::claim(&state, form.once.as_deref()).await? {
        Claim::Repeat => return Ok(see_other("/console/invoices")),
        claim => claim,
    };
    match state
        .invoices
        .set_billing(organisation, details, &who.actor())
        .await
    {
        Ok(()) => Ok(see_other("/console/invoices")),
        Err(e) => {
            once::release(&state, &claim).await;
            Ok(unavailable(e))
        }
    }
}
