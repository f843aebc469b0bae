//! The catalogue file's shapes as written (`tonne-catalogue/1`): the document,
//! its projects, bundles, portfolios and exchange rates, strings unchecked;
//! the crate's root turns them into the ordering domain's values.

use std::collections::BTreeMap;

use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FileDoc {
    pub(crate) format: String,
    #[serde(default)]
    pub(crate) notice: Option<String>,
    #[serde(default)]
    pub(crate) exchange_rates: Option<Rates>,
    pub(crate) projects: Vec<FileProject>,
    pub(crate) bundles: Vec<FileBundle>,
    #[serde(default)]
    pub(crate) portfolios: Vec<FilePortfolio>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FilePortfolio {
    pub(crate) key: String,
    pub(crate) label: String,
    pub(crate) bundles: Vec<FilePortfolioShare>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FilePortfolioShare {
    pub(crate) bundle: String,
    pub(crate) percentage: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Rates {
    pub(crate) base: String,
    #[serde(default)]
    pub(crate) note: Option<String>,
    pub(crate) rates: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FileMedia {
    #[serde(rename = "type")]
    pub(crate) kind: String,
    pub(crate) url: String,
    #[serde(default)]
    pub(crate) attribution_text: Option<String>,
    #[serde(default)]
    pub(crate) attribution_url: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FileProject {
    pub(crate) key: String,
    pub(crate) name: String,
    pub(crate) short_name: Option<String>,
    pub(crate) description: String,
    pub(crate) project_type: String,
    pub(crate) registry_name: String,
    #[serde(default)]
    pub(crate) registry_link: Option<String>,
    pub(crate) latitude: String,
    pub(crate) longitude: String,
    pub(crate) country_name: String,
    pub(crate) country_code: String,
    #[serde(default)]
    pub(crate) region: Option<String>,
    #[serde(default)]
    pub(crate) logo: Option<String>,
    #[serde(default)]
    pub(crate) primary_image: Option<String>,
    #[serde(default)]
    pub(crate) thumbnail_image: Option<String>,
    #[serde(default)]
    pub(crate) results: Vec<String>,
    #[serde(default)]
    pub(crate) un_sdg: Vec<u8>,
    #[serde(default)]
    pub(crate) media: Vec<FileMedia>,
    #[serde(default)]
    pub(crate) disabled: bool,
    #[serde(default)]
    pub(crate) crediting_start_date: Option<String>,
    #[serde(default)]
    pub(crate) crediting_end_date: Option<String>,
    #[serde(default)]
    pub(crate) registration_date: Option<String>,
    #[serde(default)]
    pub(crate) protocol: Vec<String>,
    #[serde(default)]
    pub(crate) methodology: Option<String>,
    #[serde(default)]
    pub(crate) durability: Option<String>,
    #[serde(default)]
    pub(crate) additional_standards_met: Vec<String>,
    #[serde(default)]
    pub(crate) verifying_body: Option<String>,
    #[serde(default)]
    pub(crate) risk_of_reversal: Option<String>,
    #[serde(default)]
    pub(crate) risk_of_predicted_emissions: Option<String>,
    /// Tonnes CO2e per year, a decimal string.
    #[serde(default)]
    pub(crate) avg_annual_emission_reductions: Option<String>,
    /// Where the facts come from (provenance for people; not served).
    #[serde(default)]
    pub(crate) sources: Vec<String>,
    /// The project's boundary, a GeoJSON Polygon or MultiPolygon (`perimeter.rs`).
    #[serde(default)]
    pub(crate) perimeter: Option<serde_json::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FileBundle {
    pub(crate) key: String,
    pub(crate) name: String,
    #[serde(default)]
    pub(crate) description: Option<String>,
    /// Price per tonne in the exchange-rate base currency.
    #[serde(default)]
    pub(crate) unit_price: Option<String>,
    /// Or explicit prices per currency.
    #[serde(default)]
    pub(crate) unit_prices: Option<BTreeMap<String, String>>,
    /// Tonnes available; absent or null is unlimited.
    #[serde(default)]
    pub(crate) available_quantity: Option<String>,
    #[serde(default)]
    pub(crate) offset_type: Option<String>,
    /// `long_term`, `short_term` or `no_storage`; null or absent is `no_storage`.
    #[serde(default)]
    pub(crate) carbon_permanence: Option<String>,
    /// `traditional` or `innovative`, or null.
    #[serde(default)]
    pub(crate) approach: Option<String>,
    /// Share of the default selection, e.g. "30" or "12.5".
    #[serde(default)]
    pub(crate) default_percentage: Option<String>,
    #[serde(default)]
    pub(crate) background_colour: Option<String>,
    #[serde(default)]
    pub(crate) primary_image: Option<String>,
    #[serde(default)]
    pub(crate) large_image: Option<String>,
    #[serde(default)]
    pub(crate) primary_image_hires: Option<String>,
    #[serde(default)]
    pub(crate) small_thumbnail: Option<String>,
    pub(crate) projects: Vec<String>,
    #[serde(default)]
    pub(crate) disabled: bool,
}
