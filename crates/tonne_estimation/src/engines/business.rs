//! Business emissions analytics: an account's actual transactions, documents
//! and journeys by the card networks' business categories — ranges of the
//! merchant category code (ISO 18245), checked against the public MCC list
//! (`greggles/mcc-codes`, Unlicense): every code 3000–3299 is an airline,
//! 3300–3499 a car rental, 3500–3999 a hotel.
//!
//! | category | MCC |
//! |---|---|
//! | agriculture | 0001–1499 |
//! | contractors | 1500–2999 |
//! | airlines | 3000–3299, and 4511 (airlines, air carriers) |
//! | car rentals | 3300–3499, and 7512 (car rental agencies) |
//! | hotels | 3500–3999, and 7011 (hotels, motels, resorts) |
//! | transportation | 4000–4799 (but 4511) |
//! | utilities | 4800–4999 |
//! | retail | 5000–5599 |
//! | clothing | 5600–5699 |
//! | other shops | 5700–7299 (but 7011) |
//! | business services | 7300–7999 (but 7512) |
//! | professional services | 8000–8999 |
//! | government | 9000–9999 |
//! | uncategorized | no merchant category |
//!
//! A line without a code goes where its merchant category would: a flight
//! to airlines, a train to transportation, electricity and gas to utilities
//! (MCC 4900), diesel and petrol to retail (5541, service stations).

use tonne_kernel::Mass;

use crate::estimate::{Estimate, EstimateDetail};
use crate::transaction_document::{LineKind, TravelMode};

/// The business categories, in the contract's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BusinessCategory {
    Agriculture,
    Contractors,
    Airlines,
    CarRentals,
    Hotels,
    Transportation,
    Utilities,
    Retail,
    Clothing,
    OtherShops,
    BusinessServices,
    ProfessionalServices,
    Government,
    Uncategorized,
}

impl BusinessCategory {
    /// Every category, in the contract's order.
    pub const ALL: [BusinessCategory; 14] = [
        BusinessCategory::Agriculture,
        BusinessCategory::Contractors,
        BusinessCategory::Airlines,
        BusinessCategory::CarRentals,
        BusinessCategory::Hotels,
        BusinessCategory::Transportation,
        BusinessCategory::Utilities,
        BusinessCategory::Retail,
        BusinessCategory::Clothing,
        BusinessCategory::OtherShops,
        BusinessCategory::BusinessServices,
        BusinessCategory::ProfessionalServices,
        BusinessCategory::Government,
        BusinessCategory::Uncategorized,
    ];

    /// The contract's field name.
    pub fn as_str(self) -> &'static str {
        match self {
            BusinessCategory::Agriculture => "agriculture",
            BusinessCategory::Contractors => "contractors",
            BusinessCategory::Airlines => "airlines",
            BusinessCategory::CarRentals => "car_rentals",
            BusinessCategory::Hotels => "hotels",
            BusinessCategory::Transportation => "transportation",
            BusinessCategory::Utilities => "utilities",
            BusinessCategory::Retail => "retail",
            BusinessCategory::Clothing => "clothing",
            BusinessCategory::OtherShops => "other_shops",
            BusinessCategory::BusinessServices => "business_services",
            BusinessCategory::ProfessionalServices => "professional_services",
            BusinessCategory::Government => "government",
            BusinessCategory::Uncategorized => "uncategorized",
        }
    }

    /// The category of a merchant category code (`Uncategorized` for
    /// anything but four digits).
    pub fn of_mcc(code: &str) -> Self {
        if code.len() != 4 {
            return BusinessCategory::Uncategorized;
        }
        let Ok(n) = code.parse::<u16>() else {
            return BusinessCategory::Uncategorized;
        };
        match n {
            4511 => BusinessCategory::Airlines,
            7011 => BusinessCategory::Hotels,
            7512 => BusinessCategory::CarRentals,
            0..=1499 => BusinessCategory::Agriculture,
            1500..=2999 => BusinessCategory::Contractors,
            3000..=3299 => BusinessCategory::Airlines,
            3300..=3499 => BusinessCategory::CarRentals,
            3500..=3999 => BusinessCategory::Hotels,
            4000..=4799 => BusinessCategory::Transportation,
            4800..=4999 => BusinessCategory::Utilities,
            5000..=5599 => BusinessCategory::Retail,
            5600..=5699 => BusinessCategory::Clothing,
            5700..=7299 => BusinessCategory::OtherShops,
            7300..=7999 => BusinessCategory::BusinessServices,
            8000..=8999 => BusinessCategory::ProfessionalServices,
            _ => BusinessCategory::Government,
        }
    }
}

/// The sums: the mass, how many estimates, and the mass by category (in
/// [`BusinessCategory::ALL`]'s order). The categories add up to the mass.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Business {
    pub mass: Mass,
    pub estimates: u64,
    pub by_category: [Mass; 14],
}

fn line_category(kind: &LineKind) -> BusinessCategory {
    match kind {
        LineKind::Transaction { mcc } => BusinessCategory::of_mcc(mcc),
        LineKind::PassengerTransportation(t) => match t.mode {
            TravelMode::Flight => BusinessCategory::Airlines,
            TravelMode::Rail => BusinessCategory::Transportation,
        },
        LineKind::Activity { unit, .. } => {
            if unit == "l" {
                BusinessCategory::Retail
            } else {
                BusinessCategory::Utilities
            }
        }
    }
}

impl Business {
    fn put(&mut self, category: BusinessCategory, m: Mass) {
        if let Some(i) = BusinessCategory::ALL.iter().position(|c| *c == category)
            && let Some(slot) = self.by_category.get_mut(i)
        {
            *slot = Mass::from_grams(slot.grams().saturating_add(m.grams()));
        }
        self.mass = Mass::from_grams(self.mass.grams().saturating_add(m.grams()));
    }

    /// The mass of a category.
    pub fn of(&self, category: BusinessCategory) -> Mass {
        BusinessCategory::ALL
            .iter()
            .position(|c| *c == category)
            .and_then(|i| self.by_category.get(i).copied())
            .unwrap_or_default()
    }

    /// Adds one estimate (money movement, without a mass, adds nothing).
    pub fn add(&mut self, e: &Estimate) {
        let Some(mass) = e.mass else { return };
        self.estimates += 1;
        match &e.detail {
            EstimateDetail::Transaction { .. } => {
                let category = e
                    .explanation
                    .transaction_facts()
                    .and_then(|f| f.merchant_category())
                    .map_or(BusinessCategory::Uncategorized, |c| {
                        BusinessCategory::of_mcc(&c.code)
                    });
                self.put(category, mass);
            }
            EstimateDetail::TransactionDocument(d) => {
                let mut rest = mass.grams();
                for l in d.line_items.iter().chain(&d.fallback) {
                    rest -= l.mass.grams();
                    self.put(line_category(&l.kind), l.mass);
                }
                // lines are rounded as their parts: nothing should remain
                if rest > 0 {
                    self.put(BusinessCategory::Uncategorized, Mass::from_grams(rest));
                }
            }
            EstimateDetail::PassengerLegs(_) => {
                for p in &e.explanation.parts {
                    let flight = p
                        .factors
                        .iter()
                        .any(|f| f.id.starts_with("FLIGHT_") || f.id.starts_with("TIM_"));
                    let category = if flight {
                        BusinessCategory::Airlines
                    } else {
                        BusinessCategory::Transportation
                    };
                    self.put(category, p.mass);
                }
                // estimates stored before their explanation was kept
                if e.explanation.parts.is_empty() {
                    self.put(BusinessCategory::Transportation, mass);
                }
            }
            _ => self.put(BusinessCategory::Uncategorized, mass),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::BusinessCategory as C;

    #[test]
    fn the_ranges_and_their_named_exceptions() {
        for (code, c) in [
            ("0742", C::Agriculture),
            ("1520", C::Contractors),
            ("3000", C::Airlines),
            ("3299", C::Airlines),
            ("4511", C::Airlines),
            ("3300", C::CarRentals),
            ("7512", C::CarRentals),
            ("3500", C::Hotels),
            ("7011", C::Hotels),
            ("4112", C::Transportation),
            ("4900", C::Utilities),
            ("5411", C::Retail),
            ("5651", C::Clothing),
            ("5812", C::OtherShops),
            ("7311", C::BusinessServices),
            ("8111", C::ProfessionalServices),
            ("9402", C::Government),
            ("", C::Uncategorized),
            ("12a4", C::Uncategorized),
        ] {
            assert_eq!(C::of_mcc(code), c, "{code}");
        }
    }
}

#[cfg(test)]
mod service_tests {
    use std::sync::Arc;

    use time::macros::datetime;
    use tonne_kernel::{AccountId, EstimateId, Mass, Page, SystemClock, UuidV7Generator};

    use super::BusinessCategory as C;
    use crate::estimate::{
        Annotations, Estimate, EstimateFilter, EstimateKind, EstimateRequest, QuoteTerms, Submitted,
    };
    use crate::ports::{EstimationService as _, MockEngine, MockEstimateRepository};
    use crate::service::Estimations;
    use crate::transaction::{Merchant, TransactionRequest};

    fn transaction(mcc: &str, value: &str) -> Estimate {
        let request = EstimateRequest::Transaction(TransactionRequest {
            value: crate::Spend::parse("v", value, tonne_kernel::Currency::Usd).unwrap(),
            country_code: "USA".into(),
            merchant: Merchant::CategoryCode(mcc.into()),
            diet: None,
            processed_year: Some(2019),
        });
        let c = request.compute().unwrap();
        let at = datetime!(2026-01-01 00:00 UTC);
        Estimate {
            id: EstimateId::generate(&UuidV7Generator),
            account_id: AccountId::from_uuid(uuid::Uuid::from_u128(1)),
            kind: EstimateKind::Transaction,
            mass: c.mass,
            detail: c.detail,
            explanation: c.explanation,
            quote: QuoteTerms::default(),
            submitted: Submitted::new("{}"),
            annotations: Annotations::default(),
            order_id: None,
            created_at: at,
            updated_at: at,
        }
    }

    #[tokio::test]
    async fn business_pages_through_the_actual_estimates_and_sums_by_category() {
        // two pages: a restaurant and a hotel, then a hotel
        let first = vec![transaction("5812", "100"), transaction("7011", "200")];
        let second = vec![transaction("3501", "50")];
        let expected: i64 = first
            .iter()
            .chain(&second)
            .map(|e| e.mass.unwrap().grams())
            .sum();
        let restaurant = first[0].mass.unwrap();
        let mut repo = MockEstimateRepository::new();
        let mut seq = mockall::Sequence::new();
        repo.expect_list()
            .withf(|_, kinds, filter, page| {
                kinds.contains(&EstimateKind::TransactionDocument)
                    && filter.actual == Some(true)
                    && page.after.is_none()
            })
            .times(1)
            .in_sequence(&mut seq)
            .return_once(move |_, _, _, _| {
                Ok(Page {
                    items: first,
                    has_more: true,
                })
            });
        repo.expect_list()
            .withf(|_, _, _, page| page.after.is_some())
            .times(1)
            .in_sequence(&mut seq)
            .return_once(move |_, _, _, _| {
                Ok(Page {
                    items: second,
                    has_more: false,
                })
            });
        let service = Estimations::new(
            Arc::new(repo),
            Arc::new(MockEngine::new()),
            Arc::new(SystemClock),
            Arc::new(UuidV7Generator),
        );
        let account = AccountId::from_uuid(uuid::Uuid::from_u128(1));
        let sums = service
            .business(account, EstimateFilter::default())
            .await
            .unwrap();
        assert_eq!(sums.estimates, 3);
        assert_eq!(sums.mass, Mass::from_grams(expected));
        assert_eq!(sums.of(C::OtherShops), restaurant);
        assert_eq!(sums.of(C::Hotels).grams(), expected - restaurant.grams());
    }
}
