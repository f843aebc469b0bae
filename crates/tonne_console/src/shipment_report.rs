//! `GET /console/shipments/report?mode=…&account=…&format=csv|pdf&…`: the
//! ISO 14083 report of the chosen account's shipments the list's filter
//! selects (its dates the period), as the API's `GET /v1/shipments/report`
//! answers it.

use crate::ConsoleState;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use tonne_http::shipment_report::{ReportHeading, Slot, csv_body, file_name, render, summary};

use crate::answers::{respond, unavailable};
use crate::error::ConsoleError;
use crate::scope::{MemberScope, member_account};
use crate::session::SignedIn;
use crate::shipments::{filter_of, scope_query};
use crate::views;

pub(super) async fn report(
    state: web::Data<ConsoleState>,
    query: web::Query<Vec<(String, String)>>,
    SignedIn(who): SignedIn,
) -> Result<HttpResponse, ConsoleError> {
    let (MemberScope { accounts, .. }, account) =
        member_account(&state, who, &scope_query(&query).target).await?;
    let (_, filter) = filter_of(&query);
    let filter = match filter {
        Ok(f) => f,
        Err(problem) => {
            return Ok(respond(
                StatusCode::BAD_REQUEST,
                views::message("The report was not made", &problem),
            ));
        }
    };
    let Some(slot) = Slot::take(account) else {
        return Ok(respond(
            StatusCode::TOO_MANY_REQUESTS,
            views::message(
                "A report is already being made",
                "Two reports of this account are being made; try again once one is done.",
            ),
        ));
    };
    let pdf = query.iter().any(|(k, v)| k == "format" && v == "pdf");
    let (from, to) = (filter.date_from, filter.date_to);
    let file = file_name(from, to);
    if !pdf {
        return Ok(HttpResponse::Ok()
            .content_type("text/csv; charset=utf-8")
            .insert_header((
                "Content-Disposition",
                format!("attachment; filename=\"{file}.csv\""),
            ))
            .streaming(csv_body(state.shipments.clone(), account, filter, slot)));
    }
    let sums = match summary(state.shipments.clone(), account, &filter).await {
        Ok(s) => s,
        Err(e) => return Ok(unavailable(e)),
    };
    let name = accounts
        .iter()
        .find(|a| a.id == account)
        .map(|a| a.name.as_str().to_owned())
        .unwrap_or_default();
    let heading = ReportHeading::new(name, from, to);
    let rendered = web::block(move || render(&heading, &sums)).await;
    drop(slot);
    let bytes = match rendered {
        Ok(b) => b,
        Err(e) => return Ok(unavailable(e)),
    };
    Ok(HttpResponse::Ok()
        .content_type("application/pdf")
        .insert_header((
            "Content-Disposition",
            format!("inline; filename=\"{file}.pdf\""),
        ))
        .body(bytes))
}
