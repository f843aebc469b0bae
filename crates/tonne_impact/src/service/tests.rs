//! The use cases over mocked ports.

use std::sync::Arc;

use mockall::predicate::eq;
use rust_decimal::Decimal;
use time::macros::{date, datetime};
use tonne_kernel::{AccountId, AccountMode, Currency, Mass, MockClock, OrganisationId, StoreError};
use tonne_ordering::{
    Bundle, BundleId, CarbonPermanence, MockCatalogueRepository, OffsetType, Project, ProjectFacts,
    ProjectId, Registry,
};
use uuid::Uuid;

use super::*;
use crate::analytics::Location;
use crate::errors::PageWriteError;
use crate::pages::{Description, DescriptionFormat, PageStatus, Section, Slug, Title, TitleFormat};
use crate::ports::Basis;
use crate::ports::{
    BundleDay, BundleTotal, EstimateDay, MockImpactRepository, MockPageHolders, MonthTotal,
    ProjectSum,
};

const TODAY: time::OffsetDateTime = datetime!(2026-11-26 12:00 UTC);

fn account() -> AccountId {
    AccountId::from_uuid(Uuid::from_u128(1))
}

fn organisation() -> OrganisationId {
    OrganisationId::from_uuid(Uuid::from_u128(2))
}

fn viewer() -> Viewer {
    Viewer {
        account_id: account(),
        organisation_id: organisation(),
        mode: AccountMode::Live,
        client_account: false,
    }
}

fn holder(public: bool) -> PageHolder {
    PageHolder {
        account_id: account(),
        organisation_id: organisation(),
        mode: AccountMode::Live,
        name: "Acme".into(),
        logo: None,
        currency: Currency::Eur,
        public,
    }
}

fn bundle_id(n: u128) -> BundleId {
    BundleId::from_uuid(Uuid::from_u128(n))
}

fn project(n: u128, country: &str, registry: Registry, sdgs: &[u8]) -> Project {
    Project {
        id: ProjectId::from_uuid(Uuid::from_u128(n)),
        slug: format!("p{n}"),
        name: format!("Project {n}"),
        short_name: format!("P{n}"),
        description: String::new(),
        project_type: "Reforestation".into(),
        registry,
        registry_link: None,
        latitude: Decimal::ZERO,
        longitude: Decimal::ZERO,
        country_name: country.into(),
        country_code: country.into(),
        region: None,
        logo: None,
        primary_image: None,
        thumbnail_image: None,
        results: vec![],
        un_sdg: sdgs.to_vec(),
        media: vec![],
        disabled: false,
        disabled_at: None,
        facts: ProjectFacts::default(),
        bundle_ids: vec![],
    }
}

fn day(d: time::Date, bundle: u128, grams: i64, minor: i64) -> BundleDay {
    BundleDay {
        day: d,
        bundle_id: bundle_id(bundle),
        bundle_name: format!("Bundle {bundle}"),
        quantity: Mass::from_grams(grams),
        value_minor: minor,
    }
}

fn total(last: time::Date, bundle: u128, grams: i64, minor: i64) -> BundleTotal {
    BundleTotal {
        bundle_id: bundle_id(bundle),
        bundle_name: format!("Bundle {bundle}"),
        last_day: last,
        quantity: Mass::from_grams(grams),
        value_minor: minor,
    }
}

fn clock() -> Arc<MockClock> {
    let mut clock = MockClock::new();
    clock.expect_now().return_const(TODAY);
    Arc::new(clock)
}

fn impact(
    repository: MockImpactRepository,
    holders: MockPageHolders,
    catalogue: MockCatalogueRepository,
) -> Impact {
    Impact::new(
        Arc::new(repository),
        Arc::new(holders),
        Arc::new(catalogue),
        clock(),
        Mass::from_grams(500_000),
    )
}

fn holders_with(h: PageHolder) -> MockPageHolders {
    let mut holders = MockPageHolders::new();
    holders
        .expect_holder()
        .returning(move |_| Ok(Some(h.clone())));
    holders
}

fn settings(status: PageStatus, sections: Vec<Section>) -> PageSettings {
    PageSettings::new(
        status,
        Slug::parse("acme").unwrap(),
        TitleFormat::ByVolume,
        Some(DescriptionFormat::ByEquivalent),
        None,
        sections,
    )
    .unwrap()
}

fn stored(status: PageStatus, sections: Vec<Section>) -> SustainabilityPage {
    SustainabilityPage {
        account_id: account(),
        organisation_id: organisation(),
        mode: AccountMode::Live,
        settings: settings(status, sections),
        created_at: TODAY,
        updated_at: TODAY,
    }
}

mod analytics;
mod pages;
