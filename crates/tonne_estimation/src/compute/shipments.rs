//! Freight estimates: one leg, a multi-leg shipment, legs given by the fuel
//! they burnt; each leg explained from what the engine computed for it.

use super::freight::{any_shipping_leg, any_shipping_part, fuel_part};
use super::parts::single;
use crate::EstimateError;
use crate::estimate::{Computed, EstimateDetail};
use crate::explain::Explanation;
use crate::shipping::fuel::FuelLeg;
use crate::shipping::{self, Leg, Shipment};

pub(super) fn one_leg(shipment: &Shipment, leg: &Leg) -> Result<Computed, EstimateError> {
    let (e, trace) = shipping::any_leg_traced("", shipment, leg)?;
    let mut notes = Vec::new();
    let p = any_shipping_part("leg", shipment, leg, &e, &trace, &mut notes);
    let detail = EstimateDetail::Shipping(any_shipping_leg(&e, leg, &trace, &p));
    Ok(single(e.mass, detail, p, notes))
}

pub(super) fn multi_leg(shipment: &Shipment, legs: &[Leg]) -> Result<Computed, EstimateError> {
    // the engine checks the count, computes each leg once and sums;
    // each leg is explained from what it computed
    let (total, traces) = shipping::multi_leg_traced(shipment, legs)?;
    let mut parts = Vec::with_capacity(legs.len());
    let mut notes = Vec::new();
    let mut out = Vec::with_capacity(legs.len());
    for (i, ((l, e), trace)) in legs.iter().zip(&total.legs).zip(&traces).enumerate() {
        let p = any_shipping_part(&format!("legs[{i}]"), shipment, l, e, trace, &mut notes);
        out.push(any_shipping_leg(e, l, trace, &p));
        parts.push(p);
    }
    Ok(Computed {
        mass: Some(total.mass),
        detail: EstimateDetail::MultiLegShipping {
            distance: total.distance,
            legs: out,
        },
        explanation: Explanation {
            parts,
            notes,
            factor_set: None,
        },
    })
}

pub(super) fn by_fuel(legs: &[FuelLeg]) -> Result<Computed, EstimateError> {
    let total = shipping::fuel::multi_leg(legs)?;
    let mut parts = Vec::with_capacity(legs.len());
    let mut notes = Vec::new();
    let mut out = Vec::with_capacity(legs.len());
    for (i, (l, e)) in legs.iter().zip(&total.legs).enumerate() {
        let p = fuel_part(&format!("legs[{i}]"), l, e, &mut notes);
        out.push(crate::estimate::FuelLegResult {
            mass: e.mass,
            wtw: p.wtw(),
            energy_density: e.energy_density,
            grade: l.fuel.grade(),
        });
        parts.push(p);
    }
    Ok(Computed {
        mass: Some(total.mass),
        detail: EstimateDetail::FuelLegs(out),
        explanation: Explanation {
            parts,
            notes,
            factor_set: None,
        },
    })
}
