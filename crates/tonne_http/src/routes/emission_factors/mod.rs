//! `/v1/emission-factors`: the factor catalogue the estimation engines use,
//! listed with the 2024 contract's fields and filters, answered from memory.
//!
//! Beyond the contract: every factor carries its value (`gas_emissions`,
//! per unit of its denominator, in the numerator unit) and its whole
//! citation (`publication`) — the hosted reference gates values, Tonne shows
//! what its numbers are made of. `next_cursor` is a factor id.

mod wire;
pub use wire::*;

use actix_web::{HttpRequest, HttpResponse, web};
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive as _;
use time::format_description::well_known::Rfc3339;
use tonne_estimation::catalogue::{CatalogueFactor, FactorQuery, FactorSource, LogicalUnit};
use tonne_kernel::Limit;

use crate::error::ApiError;
use crate::extract::{Authenticated, parse_limit};
use crate::state::AppState;
use crate::wire::{InvalidParameter, KeyErrors};

/// A decimal as the contract's `^[0-9]+(\.[0-9]+)?$` (no exponent, no trailing zeros).
fn plain(d: Decimal) -> String {
    d.normalize().to_string()
}

/// The wire form of a catalogue factor.
pub(crate) fn factor_body(f: &CatalogueFactor) -> EmissionFactorResponse {
    let gases = f.gases.as_ref();
    EmissionFactorResponse {
        id: f.id.clone(),
        name: f.name.clone(),
        source: f.source.as_str(),
        source_version: f.source_version.clone(),
        publication_year: f.publication_year,
        numerator_unit: "kg",
        denominator_unit: f.denominator,
        created_at: f
            .published
            .midnight()
            .assume_utc()
            .format(&Rfc3339)
            .unwrap_or_default(),
        region: f.region.clone(),
        category: f.category.clone(),
        gas_emissions: GasEmissionsResponse {
            co2e: plain(f.kg_co2e),
            co2: gases.map(|g| plain(g.co2)),
            methane: gases.map(|g| plain(g.methane_kg())),
            nitrous_oxide: gases.map(|g| plain(g.nitrous_oxide_kg())),
        },
        publication: f.publication.clone(),
    }
}

crate::wire::paginated! {
    /// The contract's `PaginatedEmissionFactors`; `next_cursor` is a factor id.
    PaginatedEmissionFactors of EmissionFactorResponse
}

/// A listing as asked.
struct Listing {
    query: FactorQuery,
    after: Option<String>,
    limit: usize,
    /// Only sources of the contract Tonne holds no factor of were asked for.
    nothing: bool,
}

/// The listing's query: the contract's parameters, arrays as repeated keys
/// (`source=beis&source=epa`, commas accepted too), read from the raw query string.
fn query(req: &HttpRequest) -> Result<Listing, ApiError> {
    let mut q = FactorQuery::default();
    let mut asked_sources = false;
    let mut after = None;
    let mut limit = Limit::default();
    for (key, value) in url::form_urlencoded::parse(req.query_string().as_bytes()) {
        let value = value.trim();
        match key.as_ref() {
            "name" if !value.is_empty() => q.name = Some(value.to_owned()),
            "source" | "source[]" => {
                for v in value.split(',').filter(|v| !v.is_empty()) {
                    asked_sources = true;
                    match FactorSource::parse(v) {
                        Some(s) => q.sources.push(s),
                        // a source of the contract Tonne holds no factor of
                        None if CONTRACT_SOURCES.contains(&v) => {}
                        None => {
                            return Err(ApiError::validation(
                                "source",
                                format!("`{v}` is not one of {}", CONTRACT_SOURCES.join(", ")),
                            ));
                        }
                    }
                }
            }
            "publication_year" | "publication_year[]" => {
                for v in value.split(',').filter(|v| !v.is_empty()) {
                    // the contract types it `number`: `2021` and `2021.0` are the year
                    let year = v
                        .parse::<Decimal>()
                        .ok()
                        .filter(|d| d.fract().is_zero())
                        .and_then(|d| d.to_u16())
                        .ok_or_else(|| {
                            ApiError::validation("publication_year", format!("`{v}` is not a year"))
                        })?;
                    q.years.push(year);
                }
            }
            "region" | "region[]" if !value.is_empty() => q.regions.push(value.to_owned()),
            "region_fallback" => {
                q.region_fallback = match value {
                    "" | "never" => false,
                    "always" => true,
                    other => {
                        return Err(ApiError::validation(
                            "region_fallback",
                            format!("`{other}` is not `never` or `always`"),
                        ));
                    }
                };
            }
            "unit" if !value.is_empty() => {
                q.unit = Some(LogicalUnit::parse(value).ok_or_else(|| {
                    ApiError::validation("unit", format!("`{value}` is not a logical unit"))
                })?);
            }
            "limit" => limit = parse_limit(value)?,
            "after" if !value.is_empty() => after = Some(value.to_owned()),
            _ => {}
        }
    }
    Ok(Listing {
        nothing: asked_sources && q.sources.is_empty(),
        query: q,
        after,
        limit: usize::from(limit.get()),
    })
}

/// The contract's `EmissionFactorSource` values.
const CONTRACT_SOURCES: [&str; 11] = [
    "epa",
    "exiobase",
    "ecoinvent",
    "beis",
    "lune",
    "glec",
    "emsa",
    "cbam",
    "ademe",
    "idemat",
    "iata",
];

/// Lists emission factors, best match first.
#[utoipa::path(get, path = "/v1/emission-factors", tag = "Emission factors", operation_id = "listEmissionFactors",
    security(("BearerAuth" = [])),
    responses((status = 200, description = "OK", body = PaginatedEmissionFactors), InvalidParameter, KeyErrors))]
pub async fn list(
    state: web::Data<AppState>,
    _who: Authenticated,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let asked = query(&req)?;
    let page = if asked.nothing {
        tonne_kernel::Page {
            items: Vec::new(),
            has_more: false,
        }
    } else {
        state
            .estimates
            .emission_factors(&asked.query, asked.after, asked.limit)?
    };
    Ok(PaginatedEmissionFactors::answer(
        &page,
        |f| f.id.clone(),
        factor_body,
    ))
}

/// Every region some factor covers.
#[utoipa::path(get, path = "/v1/emission-factors/regions", tag = "Emission factors", operation_id = "listAllEmissionFactorRegions",
    security(("BearerAuth" = [])),
    responses((status = 200, description = "OK", body = Vec<String>), KeyErrors))]
pub async fn regions(state: web::Data<AppState>, _who: Authenticated) -> HttpResponse {
    HttpResponse::Ok().json(state.estimates.emission_factor_regions())
}

/// Registers the routes.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/emission-factors").route(web::get().to(list)))
        .service(web::resource("/emission-factors/regions").route(web::get().to(regions)));
}
