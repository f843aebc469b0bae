//! The rules between a row's fields, checked after decoding: legs in order,
//! phases in journey order, positive loads, client figures that add up.

use rust_decimal::Decimal;

use crate::errors::RowError;
use crate::model::{ClientEmissions, Facets, LegDraft, ShipmentDraft};
use crate::vocabulary::ModeSet;

/// Most legs a shipment may have.
pub const MAX_LEGS: usize = 20;

impl ShipmentDraft {
    /// Checks the row and puts its legs in their order: by `order` when the
    /// legs give one (then every leg must, 1 to n once each), else as sent.
    ///
    /// ```
    /// # use tonne_shipments::*;
    /// # use rust_decimal::Decimal;
    /// let leg = |carriage, order| LegDraft {
    ///     order, carriage, method: LegMethod::Rail("electric_freight_train".into()),
    ///     origin: None, destination: None, distance_km: Some(Decimal::from(10)),
    ///     load: Load { tonnes: Some(Decimal::ONE), teu: None }, load_factor: None, empty_run_factor: None,
    ///     date: None, client_emissions: None,
    /// };
    /// let mut row = ShipmentDraft {
    ///     reference: None, target_internal_id: None, target_internal_name: None, client_emissions: None,
    ///     legs: vec![leg(Carriage::Main, Some(2)), leg(Carriage::Pre, Some(1))],
    /// };
    /// row.check().unwrap();
    /// assert_eq!(row.legs[0].carriage, Carriage::Pre);
    /// // an on-carriage leg before the main carriage is out of order
    /// row.legs = vec![leg(Carriage::On, None), leg(Carriage::Main, None)];
    /// assert_eq!(row.check().unwrap_err().field, "legs[1].carriage");
    /// ```
    pub fn check(&mut self) -> Result<(), RowError> {
        if self.legs.is_empty() || self.legs.len() > MAX_LEGS {
            return Err(RowError::new(
                "legs",
                format!("must have 1 to {MAX_LEGS} legs"),
            ));
        }
        self.sort_legs()?;
        let mut phase = 0;
        for (i, leg) in self.legs.iter().enumerate() {
            if leg.carriage.index() < phase {
                return Err(RowError::new(
                    format!("legs[{i}].carriage"),
                    "legs must go pre, then main, then on carriage",
                ));
            }
            phase = leg.carriage.index();
            check_leg(i, leg)?;
        }
        if let Some(e) = &self.client_emissions {
            check_client("emissions", e)?;
        }
        Ok(())
    }

    fn sort_legs(&mut self) -> Result<(), RowError> {
        let given = self.legs.iter().filter(|l| l.order.is_some()).count();
        if given == 0 {
            return Ok(());
        }
        if given != self.legs.len() {
            let i = self
                .legs
                .iter()
                .position(|l| l.order.is_none())
                .unwrap_or(0);
            return Err(RowError::new(
                format!("legs[{i}].order"),
                "is required when another leg gives its order",
            ));
        }
        let n = self.legs.len();
        let mut seen = std::collections::HashSet::with_capacity(n);
        for (i, leg) in self.legs.iter().enumerate() {
            let o = leg.order.and_then(|o| usize::try_from(o).ok()).unwrap_or(0);
            if o == 0 || o > n || !seen.insert(o) {
                return Err(RowError::new(
                    format!("legs[{i}].order"),
                    format!("must number the legs 1 to {n}, each once"),
                ));
            }
        }
        self.legs.sort_by_key(|l| l.order);
        Ok(())
    }

    /// What the list filters on: the reference, the first leg's date and
    /// each phase's modes.
    pub fn facets(&self) -> Facets {
        let mut modes = [ModeSet::default(); 3];
        for leg in &self.legs {
            if let (Some(m), Some(set)) = (leg.method.mode(), modes.get_mut(leg.carriage.index())) {
                *set = set.with(m);
            }
        }
        Facets {
            reference: self.reference.clone().unwrap_or_default(),
            shipment_date: self.legs.iter().find_map(|l| l.date),
            modes,
        }
    }
}

fn positive(field: String, value: Option<Decimal>) -> Result<(), RowError> {
    match value {
        Some(v) if v <= Decimal::ZERO => Err(RowError::new(field, "must be greater than 0")),
        _ => Ok(()),
    }
}

fn check_leg(i: usize, leg: &LegDraft) -> Result<(), RowError> {
    positive(format!("legs[{i}].load.mass"), leg.load.tonnes)?;
    positive(format!("legs[{i}].load.containers"), leg.load.teu)?;
    positive(format!("legs[{i}].distance"), leg.distance_km)?;
    if let Some(e) = &leg.client_emissions {
        check_client(&format!("legs[{i}].emissions"), e)?;
    }
    Ok(())
}

fn check_client(field: &str, e: &ClientEmissions) -> Result<(), RowError> {
    let negative = [
        ("total_emissions", Some(e.total_kg)),
        ("wtt", e.wtt_kg),
        ("ttw", e.ttw_kg),
        ("distance_km", Some(e.distance_km)),
    ]
    .into_iter()
    .find(|(_, v)| v.is_some_and(|v| v < Decimal::ZERO));
    if let Some((name, _)) = negative {
        return Err(RowError::new(
            format!("{field}.{name}"),
            "must not be negative",
        ));
    }
    if let (Some(wtt), Some(ttw)) = (e.wtt_kg, e.ttw_kg)
        && wtt + ttw != e.total_kg
    {
        return Err(RowError::new(
            format!("{field}.total_emissions"),
            "must equal wtt + ttw",
        ));
    }
    Ok(())
}
