//! The query strings of the estimate routes (`estimate_mass_unit`, the
//! shipping list's filters), the `EstimateMassUnit` they carry and the
//! [`RenderOptions`] an answer is rendered with.

use rust_decimal::Decimal;
use serde::Deserialize;
use tonne_kernel::Mass;
use utoipa::{IntoParams, ToSchema};

/// The 2024 contract's `EstimateMassUnit`: the unit estimate masses are
/// answered in (`estimate_mass_unit`; tonnes by default).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum EstimateMassUnit {
    Mg,
    G,
    Kg,
    #[default]
    T,
}

impl EstimateMassUnit {
    pub(super) fn as_str(self) -> &'static str {
        match self {
            EstimateMassUnit::Mg => "mg",
            EstimateMassUnit::G => "g",
            EstimateMassUnit::Kg => "kg",
            EstimateMassUnit::T => "t",
        }
    }

    /// A mass in this unit, exactly (masses are whole grams).
    pub(super) fn amount(self, m: Mass) -> String {
        let g = Decimal::from(m.grams());
        let v = match self {
            EstimateMassUnit::Mg => g * Decimal::from(1000),
            EstimateMassUnit::G => g,
            EstimateMassUnit::Kg => Decimal::new(m.grams(), 3),
            EstimateMassUnit::T => Decimal::new(m.grams(), 6),
        };
        v.normalize().to_string()
    }

    /// kg per tonne·km in this unit per tonne·km.
    pub(super) fn per_tkm(self, kg: Decimal) -> Decimal {
        let v = match self {
            EstimateMassUnit::Mg => kg * Decimal::from(1_000_000),
            EstimateMassUnit::G => kg * Decimal::from(1000),
            EstimateMassUnit::Kg => kg,
            EstimateMassUnit::T => kg / Decimal::from(1000),
        };
        v.round_dp(12).normalize()
    }

    pub(super) fn intensity_unit(self) -> &'static str {
        match self {
            EstimateMassUnit::Mg => "mg_per_tkm",
            EstimateMassUnit::G => "g_per_tkm",
            EstimateMassUnit::Kg => "kg_per_tkm",
            EstimateMassUnit::T => "t_per_tkm",
        }
    }

    /// A logistics site's intensity unit: per tonne handled.
    pub(super) fn intensity_unit_per_t(self) -> &'static str {
        match self {
            EstimateMassUnit::Mg => "mg_per_t",
            EstimateMassUnit::G => "g_per_t",
            EstimateMassUnit::Kg => "kg_per_t",
            EstimateMassUnit::T => "t_per_t",
        }
    }
}

/// The query of the shipping estimate routes.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EstimateMassUnitQuery {
    /// The unit of the answer's masses (default `t`).
    pub estimate_mass_unit: Option<EstimateMassUnit>,
}

/// The filters of `GET /v1/estimates/shipping/all` (its page is `limit` and
/// `after`, as every list's).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ShippingEstimatesQuery {
    /// `true` or `false`: only estimates of actual shipments, or only the
    /// others (an estimate that never said counts as `false`).
    #[param(value_type = Option<bool>)]
    pub is_shipment: Option<String>,
    /// RFC 3339: estimates created at or after (with `through`).
    pub from: Option<String>,
    /// RFC 3339: estimates created at or before (with `from`).
    pub through: Option<String>,
}

/// How an answer is rendered: the unit of its masses, and the account's
/// public logistics page (when its pages are public) for a shipment's
/// `external_estimate_url`.
#[derive(Debug, Clone, Default)]
pub struct RenderOptions {
    pub mass_unit: EstimateMassUnit,
    pub logistics_page: Option<String>,
}
