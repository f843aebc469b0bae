//! A member's shipments, one account of the organisation at a time (as the
//! estimates): the list with the API's filters and cursor pages, and one
//! shipment with each leg's well-to-wheel emissions. The batches and the
//! data-sheet upload are [`crate::shipment_batches`].

use crate::ConsoleState;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use tonne_kernel::{Limit, PageRequest};
use tonne_shipments::{
    EmissionsFilter, ReadError, ShipmentBatchId, ShipmentFilter, ShipmentId, TransportMode,
};

use crate::answers::{PAGE_SIZE, not_found, respond, see_other, unavailable};
use crate::error::ConsoleError;
use crate::scope::{AccountPageQuery, AccountTarget, MemberAccount, MemberScope, member_scope};
use crate::session::SignedIn;
use crate::views::{self, ShipmentFilterForm};

pub(super) fn page<C>(after: Option<C>) -> PageRequest<C> {
    PageRequest {
        limit: Limit::new(PAGE_SIZE).unwrap_or_default(),
        after,
    }
}

/// The list's filters as typed, and the filter they make (or why not).
pub(super) fn filter_of(
    pairs: &[(String, String)],
) -> (ShipmentFilterForm, Result<ShipmentFilter, String>) {
    let get = |k: &str| {
        pairs
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.trim().to_owned())
            .unwrap_or_default()
    };
    let mut form = ShipmentFilterForm {
        search: get("search"),
        date_from: get("date_from"),
        date_to: get("date_to"),
        batch: get("batch"),
        flagged: get("flagged"),
        emissions: get("emissions"),
        ..ShipmentFilterForm::default()
    };
    let mut filter = ShipmentFilter {
        search: Some(form.search.clone()).filter(|s| !s.is_empty()),
        ..ShipmentFilter::default()
    };
    let mut problems = Vec::new();
    for (c, (chosen, set)) in tonne_shipments::Carriage::ALL
        .iter()
        .zip(form.modes.iter_mut().zip(filter.modes.iter_mut()))
    {
        for (_, v) in pairs.iter().filter(|(n, _)| n == c.as_str()) {
            match TransportMode::parse(v) {
                Some(m) => {
                    *set = set.with(m);
                    chosen.push(v.clone());
                }
                None => problems.push(format!("{v} is not a mode of transport")),
            }
        }
    }
    let date = |label: &str, raw: &str, problems: &mut Vec<String>| {
        if raw.is_empty() {
            return None;
        }
        let format = time::macros::format_description!("[year]-[month]-[day]");
        match time::Date::parse(raw, format) {
            Ok(d) => Some(d),
            Err(_) => {
                problems.push(format!("{label}: {raw} is not a date (YYYY-MM-DD)"));
                None
            }
        }
    };
    filter.date_from = date("Shipment date from", &form.date_from, &mut problems);
    filter.date_to = date("Shipment date to", &form.date_to, &mut problems);
    if let (Some(from), Some(to)) = (filter.date_from, filter.date_to)
        && from > to
    {
        problems.push("Shipment date from: it is after the date to".to_owned());
    }
    if !form.batch.is_empty() {
        match form.batch.parse::<ShipmentBatchId>() {
            Ok(id) => filter.batch_ids = vec![id],
            Err(_) => problems.push(format!("Batch id: {} is not a batch id", form.batch)),
        }
    }
    filter.flagged = match form.flagged.as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    };
    filter.emissions = match form.emissions.as_str() {
        "with_co2e" => EmissionsFilter::WithCo2e,
        "without_co2e" => EmissionsFilter::WithoutCo2e,
        _ => EmissionsFilter::All,
    };
    if problems.is_empty() {
        (form, Ok(filter))
    } else {
        let problem = format!("The filter was not applied: {}.", problems.join("; "));
        form.problem = Some(problem.clone());
        (form, Err(problem))
    }
}

pub(super) fn scope_query(pairs: &[(String, String)]) -> AccountPageQuery {
    let get = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    AccountPageQuery {
        target: AccountTarget {
            mode: get("mode"),
            account: get("account"),
        },
        after: get("after"),
    }
}

/// `GET /console/shipments`: the chosen account's shipments the filter
/// selects, newest first, with the filter's counts.
pub(super) async fn list(
    state: web::Data<ConsoleState>,
    query: web::Query<Vec<(String, String)>>,
    SignedIn(who): SignedIn,
) -> Result<HttpResponse, ConsoleError> {
    let scope_q = scope_query(&query);
    let MemberScope {
        who,
        mode,
        accounts,
        chosen,
    } = member_scope(&state, who, &scope_q.target).await?;
    let (form, filter) = filter_of(&query);
    let Some(account) = chosen else {
        let page = views::shipments(&who, mode, &accounts, None, &form, &[], None, None);
        return Ok(respond(StatusCode::OK, page));
    };
    let filter = match filter {
        Ok(f) => f,
        Err(_) => {
            let page =
                views::shipments(&who, mode, &accounts, Some(account), &form, &[], None, None);
            return Ok(respond(StatusCode::BAD_REQUEST, page));
        }
    };
    let after = scope_q
        .after
        .as_deref()
        .and_then(|a| a.parse::<ShipmentId>().ok());
    Ok(
        match state
            .shipments
            .shipments(account, filter, page(after), true)
            .await
        {
            Ok(list) => {
                let next = list.page.last_if_more().map(|s| s.id.to_string());
                respond(
                    StatusCode::OK,
                    views::shipments(
                        &who,
                        mode,
                        &accounts,
                        Some(account),
                        &form,
                        &list.page.items,
                        list.counts,
                        next.as_deref(),
                    ),
                )
            }
            // a cursor of another list or account: the first page
            Err(ReadError::NotFound) => see_other(&format!(
                "/console/shipments?mode={}&account={account}",
                mode.as_str()
            )),
            Err(ReadError::Store(e)) => unavailable(e),
        },
    )
}

/// `GET /console/shipments/{id}?mode=…&account=…`.
pub(super) async fn show(
    state: web::Data<ConsoleState>,
    id: web::Path<String>,
    MemberAccount(MemberScope { who, mode, .. }, account): MemberAccount,
) -> Result<HttpResponse, ConsoleError> {
    let Ok(id) = id.parse::<ShipmentId>() else {
        return Err(ConsoleError::not_found(&who));
    };
    Ok(match state.shipments.shipment(account, id).await {
        Ok(s) => respond(StatusCode::OK, views::shipment(&who, mode, &s)),
        Err(ReadError::NotFound) => not_found(&who),
        Err(ReadError::Store(e)) => unavailable(e),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(q: &[(&str, &str)]) -> Vec<(String, String)> {
        q.iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn the_query_becomes_the_apis_filter_or_says_what_is_wrong() {
        let (form, filter) = filter_of(&pairs(&[
            ("search", " PO-1 "),
            ("main", "sea"),
            ("main", "rail"),
            ("pre", "road"),
            ("date_from", "2026-03-01"),
            ("flagged", "false"),
            ("emissions", "with_co2e"),
        ]));
        let filter = filter.unwrap();
        assert_eq!(filter.search.as_deref(), Some("PO-1"));
        assert_eq!(
            filter.modes[1],
            tonne_shipments::ModeSet::of(&[TransportMode::Sea, TransportMode::Rail])
        );
        assert_eq!(
            filter.modes[0],
            tonne_shipments::ModeSet::of(&[TransportMode::Road])
        );
        assert_eq!(filter.date_from, Some(time::macros::date!(2026 - 03 - 01)));
        assert_eq!(filter.flagged, Some(false));
        assert_eq!(filter.emissions, EmissionsFilter::WithCo2e);
        assert_eq!(form.modes[1], ["sea", "rail"]);
        let (form, filter) = filter_of(&pairs(&[
            ("date_from", "March"),
            ("date_to", "2026-01-01"),
            ("main", "boat"),
            ("batch", "x"),
        ]));
        assert!(filter.is_err());
        let problem = form.problem.unwrap();
        for part in [
            "boat is not a mode",
            "March is not a date",
            "x is not a batch id",
        ] {
            assert!(problem.contains(part), "{problem}");
        }
        let (_, filter) = filter_of(&pairs(&[
            ("date_from", "2026-02-01"),
            ("date_to", "2026-01-01"),
        ]));
        assert!(filter.is_err());
    }
}
