//! The emission-factor catalogue: its entries, units and look-ups.

#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
use super::*;
use crate::grid;
use rust_decimal::Decimal;

#[test]
fn every_factor_the_engines_name_is_listed_once_with_a_known_unit() {
    let c = catalogue();
    // 95 DESNZ factors, 18 authored, a grid factor per country, USEEIO by
    // NAICS, EXIOBASE by category and region
    assert_eq!(
        c.all()
            .iter()
            .filter(|f| f.source == FactorSource::Beis)
            .count(),
        95
    );
    assert!(
        c.all().len() > 95 + 18 + 200 + 100 + 3082,
        "{}",
        c.all().len()
    );
    let mut ids: Vec<&str> = c.all().iter().map(|f| f.id.as_str()).collect();
    ids.dedup();
    assert_eq!(ids.len(), c.all().len(), "ids are unique");
    for f in c.all() {
        assert!(f.kg_co2e >= Decimal::ZERO, "{}", f.id);
        assert!(!f.region.is_empty() && !f.name.is_empty(), "{}", f.id);
        assert_eq!(c.by_engine_id(&f.engine_id).map(|g| &g.id), Some(&f.id));
    }
}

#[test]
fn values_are_the_sources_in_kg_per_unit() {
    let c = catalogue();
    // DESNZ 2025 21_316_3170_11_1: 0.11704 kg CO2e per passenger.km
    let f = c.get("desnz-2025.FLIGHT_LONG_HAUL_ECONOMY").unwrap();
    assert_eq!(f.kg_co2e, Decimal::new(11704, 5));
    assert!(f.gases.as_ref().unwrap().co2 > Decimal::ZERO);
    // Ember 2024, Germany: grams to kilograms
    let de = c.by_engine_id("grid:DEU").unwrap();
    assert_eq!(de.region, "Germany");
    assert_eq!(
        de.kg_co2e * Decimal::from(1000),
        grid::country("DEU").unwrap().g_co2e_per_kwh
    );
    // Scarborough 2014: 2.89 kg a day × 30.4375 days a month = 87.964375
    let vegan = c.get("scarborough-2014.DIET_VEGAN").unwrap();
    assert_eq!(vegan.kg_co2e, Decimal::new(87_964_375, 6));
    assert_eq!(vegan.denominator, "person*month");
    // USEEIO, full-service restaurants: 0.194 kg per 2022 USD
    let meal = c.get("useeio-1.3.0.naics.722511").unwrap();
    assert_eq!(meal.kg_co2e, Decimal::new(194, 3));
    assert_eq!(meal.region, "United States");
}

#[test]
fn filters_combine_and_regions_fall_back_to_the_world() {
    let c = catalogue();
    let germany = FactorQuery {
        regions: vec!["germany".into()],
        ..FactorQuery::default()
    };
    let found = c.search(&germany);
    // the grid and the 63 EXIOBASE categories
    assert_eq!(found.len(), 64);
    assert!(found.iter().any(|f| f.engine_id == "grid:DEU"));
    assert!(found.iter().all(|f| f.region == "Germany"));
    let with_world = FactorQuery {
        region_fallback: true,
        ..germany.clone()
    };
    let found = c.search(&with_world);
    assert!(found.iter().any(|f| f.engine_id == "grid:WORLD"));
    // Kenya is no EXIOBASE country: with fallback, its rest-of-world region
    let kenya = FactorQuery {
        regions: vec!["kenya".into()],
        region_fallback: true,
        ..FactorQuery::default()
    };
    let found = c.search(&kenya);
    assert!(found.iter().any(|f| f.engine_id == "exiobase:01:WF"));
    assert!(found.iter().any(|f| f.engine_id == "grid:KEN"));
    assert!(!found.iter().any(|f| f.engine_id == "exiobase:01:DE"));
    assert!(found.iter().any(|f| f.engine_id == "IWW_TANKER"));
    let sea = FactorQuery {
        name: Some("container ship".into()),
        sources: vec![FactorSource::Beis],
        unit: Some(LogicalUnit::MassDistance),
        ..FactorQuery::default()
    };
    let found = c.search(&sea);
    assert!(!found.is_empty());
    assert!(
        found
            .iter()
            .all(|f| f.source == FactorSource::Beis && f.denominator == "t*km")
    );
    let none = FactorQuery {
        years: vec![1999],
        ..FactorQuery::default()
    };
    assert!(c.search(&none).is_empty());
    assert!(c.regions().contains(&"United Kingdom".to_owned()));
    assert!(c.regions().windows(2).all(|w| w[0] < w[1]));
}
