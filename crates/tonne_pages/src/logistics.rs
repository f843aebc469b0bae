//! The public logistics page of an account (`/logistics/{account_id}`):
//! its actual shipments — the shipping estimates marked `is_shipment`, as
//! `GET /v1/analytics/shipping/public/{account_id}` counts them — month by
//! month over a year (or `from`/`through`): tonnes CO2e by mode and hub,
//! the mean carbon intensity, each chart drawn on the server (SVG) with its
//! figures in a table and as CSV (`emissions.csv`, `intensity.csv`). Only
//! while the account's external pages are public; otherwise 404, as for an
//! unknown id. No script.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, PreEscaped, html};
use serde::Deserialize;
use time::{Date, Month, OffsetDateTime};
use tonne_http::routes::shipping_analytics::public_series;
use tonne_http::{ApiError, AppState, chart};
use tonne_impact::shipping::ShippingSeries;
use tonne_impact::{AskedRange, Interval, PageHolder};

use crate::answers::{limited, message, respond};
use crate::views::layout;

/// The page's query: the range, as the API's.
#[derive(Debug, Default, Deserialize)]
pub struct RangeParams {
    from: Option<String>,
    through: Option<String>,
}

/// The query as sent (a query that does not parse is no range at all).
fn params_of(req: &HttpRequest) -> RangeParams {
    serde_urlencoded::from_str(req.query_string()).unwrap_or_default()
}

/// The problem of a date that is not `YYYY-MM-DD`.
const NOT_A_DATE: &str = "The period's dates are written YYYY-MM-DD.";

fn date(raw: Option<&str>) -> Result<Option<Date>, &'static str> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    raw.filter(|r| !r.is_empty())
        .map(|r| Date::parse(r, format).map_err(|_| NOT_A_DATE))
        .transpose()
}

/// The asked range: by default the twelve months up to today.
fn range(params: &RangeParams) -> Result<AskedRange, &'static str> {
    let through = date(params.through.as_deref())?;
    let from = match date(params.from.as_deref())? {
        Some(d) => Some(d),
        None => {
            let end = through.unwrap_or_else(|| OffsetDateTime::now_utc().date());
            let (mut year, mut month) = (end.year(), end.month());
            for _ in 0..11 {
                month = month.previous();
                if month == Month::December {
                    year -= 1;
                }
            }
            Date::from_calendar_date(year, month, 1).ok()
        }
    };
    Ok(AskedRange { from, through })
}

fn refused(e: &ApiError) -> HttpResponse {
    match e.status() {
        StatusCode::NOT_FOUND => message(
            StatusCode::NOT_FOUND,
            "Page not found",
            "There is no public logistics page at this address.",
        ),
        StatusCode::BAD_REQUEST => message(
            StatusCode::BAD_REQUEST,
            "Choose another period",
            e.message(),
        ),
        _ => {
            tracing::warn!(error = %e, "logistics page");
            let mut r = message(
                StatusCode::SERVICE_UNAVAILABLE,
                "Something went wrong",
                "We could not show this page. Please try again in a moment.",
            );
            r.headers_mut().insert(
                actix_web::http::header::RETRY_AFTER,
                actix_web::http::header::HeaderValue::from_static("1"),
            );
            r
        }
    }
}

/// What a logistics address answers: the account's figures over the period
/// asked for, past the rate limit, as `draw` makes them into the page or a
/// CSV file; or the page refusing them.
async fn answer(
    state: &AppState,
    req: &HttpRequest,
    account: &str,
    draw: fn(&RangeParams, &PageHolder, &ShippingSeries) -> HttpResponse,
) -> HttpResponse {
    if let Some(r) = limited(state, req).await {
        return r;
    }
    let params = params_of(req);
    let asked = match range(&params) {
        Ok(asked) => asked,
        Err(problem) => return message(StatusCode::BAD_REQUEST, "Not a date", problem),
    };
    match public_series(state, account, asked, Interval::Month).await {
        Ok((holder, s)) => draw(&params, &holder, &s),
        Err(e) => refused(&e),
    }
}

fn month(d: Date) -> String {
    format!("{}-{:02}", d.year(), u8::from(d.month()))
}

fn tonnes(t: f64) -> String {
    format!("{t:.3}")
}

fn query(params: &RangeParams) -> String {
    let pairs: Vec<(&str, &str)> = [("from", &params.from), ("through", &params.through)]
        .into_iter()
        .filter_map(|(k, v)| v.as_deref().filter(|v| !v.is_empty()).map(|v| (k, v)))
        .collect();
    if pairs.is_empty() {
        String::new()
    } else {
        format!(
            "?{}",
            serde_urlencoded::to_string(pairs).unwrap_or_default()
        )
    }
}

fn page(
    holder: &PageHolder,
    s: &ShippingSeries,
    modes_svg: &str,
    intensity_svg: &str,
    params: &RangeParams,
) -> Markup {
    let csv_query = query(params);
    let name = &holder.name;
    let rows: Vec<(String, [f64; 6])> = s
        .points
        .iter()
        .map(|p| (month(p.date), chart::tonnes_by_mode(p)))
        .collect();
    let mut totals = [0.0_f64; 6];
    for (_, r) in &rows {
        for (t, v) in totals.iter_mut().zip(r) {
            *t += v;
        }
    }
    let total: f64 = totals.iter().sum();
    let (first, last) = (
        s.points.first().map(|p| month(p.date)).unwrap_or_default(),
        s.points.last().map(|p| month(p.date)).unwrap_or_default(),
    );
    let base = format!("/logistics/{}", holder.account_id);
    layout(
        &format!("{name} — logistics emissions"),
        html! {
            p class="account" {
                @if let Some(logo) = &holder.logo {
                    img src=(logo) alt=(format!("{name} logo"));
                }
                (name)
            }
            h1 { (name) "'s shipments: " (tonnes(total)) " tonnes CO₂e" }
            p class="lead" {
                "Well-to-wheel emissions of the shipments " (name) " recorded from " (first) " to " (last)
                ", by mode of transport and hub, with their mean carbon intensity: "
                strong { (s.intensity.round_dp(1)) " g CO₂e per tonne-kilometre" } "."
            }
            @if holder.mode == tonne_kernel::AccountMode::Test {
                p class="notice" { "Test mode: these figures come from test data." }
            }
            form method="get" action=(base) class="filters" {
                div class="field" {
                    label for="from" { "From" }
                    input type="date" id="from" name="from" value=(params.from.clone().unwrap_or_default());
                }
                div class="field" {
                    label for="through" { "Through" }
                    input type="date" id="through" name="through" value=(params.through.clone().unwrap_or_default());
                }
                button type="submit" { "Show this period" }
            }
            h2 { "By mode and hub" }
            div class="scroll" role="region" tabindex="0" aria-label="Tonnes CO₂e over the period" {
                table {
                    caption class="hint" { "Tonnes CO₂e over the period" }
                    thead { tr { th scope="col" { "Mode" } th scope="col" class="num" { "Tonnes CO₂e" } th scope="col" class="num" { "Share" } } }
                    tbody {
                        @for ((mode, _), t) in chart::MODES.iter().zip(totals) {
                            tr {
                                th scope="row" { (mode) }
                                td class="num" { (tonnes(t)) }
                                td class="num" { @if total > 0.0 { (format!("{:.1} %", t / total * 100.0)) } @else { "—" } }
                            }
                        }
                    }
                }
            }
            h2 { "Month by month" }
            figure class="chart" {
                (PreEscaped(chart::titled(modes_svg, "modes-title", "Tonnes CO2e per month, stacked by mode; the table below gives every figure")))
                figcaption { a href=(format!("{base}/emissions.csv{csv_query}")) download { "Download these figures (CSV)" } }
            }
            div class="scroll" role="region" tabindex="0" aria-label="Tonnes CO₂e per month and mode" {
                table {
                    caption class="hint" { "Tonnes CO₂e per month and mode" }
                    thead { tr {
                        th scope="col" { "Month" }
                        @for (mode, _) in chart::MODES { th scope="col" class="num" { (mode) } }
                    } }
                    tbody {
                        @for (m, r) in &rows {
                            tr {
                                th scope="row" { (m) }
                                @for v in r { td class="num" { (tonnes(*v)) } }
                            }
                        }
                    }
                }
            }
            h2 { "Carbon intensity" }
            figure class="chart" {
                (PreEscaped(chart::titled(intensity_svg, "intensity-title", "Mean grams CO2e per tonne-kilometre per month; the table below gives every figure")))
                figcaption { a href=(format!("{base}/intensity.csv{csv_query}")) download { "Download these figures (CSV)" } }
            }
            div class="scroll" role="region" tabindex="0" aria-label="Mean g CO₂e per tonne-kilometre" {
                table {
                    caption class="hint" { "Mean g CO₂e per tonne-kilometre" }
                    thead { tr { th scope="col" { "Month" } th scope="col" class="num" { "g CO₂e/t·km" } } }
                    tbody {
                        @for p in &s.points {
                            tr { th scope="row" { (month(p.date)) } td class="num" { (p.intensity.round_dp(3)) } }
                        }
                    }
                }
            }
            p class="hint" {
                "Counted: the shipping estimates " (name) " marked as actual shipments, on the day each was made; "
                "emissions are well-to-wheel (GLEC Framework v3, ISO 14083). Calculated by Tonne."
            }
        },
    )
}

/// `GET /logistics/{account_id}`.
pub async fn show(
    state: web::Data<AppState>,
    req: HttpRequest,
    account: web::Path<String>,
) -> HttpResponse {
    answer(&state, &req, &account, page_answer).await
}

/// The page with its charts.
fn page_answer(params: &RangeParams, holder: &PageHolder, s: &ShippingSeries) -> HttpResponse {
    let draw = |r: anyhow::Result<String>| {
        r.unwrap_or_else(|e| {
            tracing::warn!(error = %e, "logistics chart");
            String::new()
        })
    };
    let modes = draw(chart::logistics_modes(&s.points));
    let intensity = draw(chart::logistics_intensity(&s.points));
    respond(StatusCode::OK, page(holder, s, &modes, &intensity, params))
}

fn csv(file: &str, head: &[&str], rows: Vec<Vec<String>>) -> HttpResponse {
    let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
    let _ = w.write_record(head);
    for r in rows {
        let _ = w.write_record(&r);
    }
    HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header((
            "Content-Disposition",
            format!("attachment; filename=\"{file}\""),
        ))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        .body(w.into_inner().unwrap_or_default())
}

/// `GET /logistics/{account_id}/emissions.csv`: tonnes per month and mode.
pub async fn emissions_csv(
    state: web::Data<AppState>,
    req: HttpRequest,
    account: web::Path<String>,
) -> HttpResponse {
    answer(&state, &req, &account, |_, _, s| {
        let mut head = vec!["month"];
        head.extend(chart::MODES.iter().map(|(m, _)| *m));
        head.push("total");
        let rows = s
            .points
            .iter()
            .map(|p| {
                let t = chart::tonnes_by_mode(p);
                let mut row = vec![month(p.date)];
                row.extend(t.iter().map(|v| tonnes(*v)));
                row.push(tonnes(t.iter().sum()));
                row
            })
            .collect();
        csv("logistics-emissions.csv", &head, rows)
    })
    .await
}

/// `GET /logistics/{account_id}/intensity.csv`: the mean intensity per month.
pub async fn intensity_csv(
    state: web::Data<AppState>,
    req: HttpRequest,
    account: web::Path<String>,
) -> HttpResponse {
    answer(&state, &req, &account, |_, _, s| {
        let rows = s
            .points
            .iter()
            .map(|p| vec![month(p.date), p.intensity.round_dp(3).to_string()])
            .collect();
        csv(
            "logistics-intensity.csv",
            &["month", "g_co2e_per_tkm"],
            rows,
        )
    })
    .await
}
