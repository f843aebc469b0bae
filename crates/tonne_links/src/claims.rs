//! A hosted-page order's claim on its link's daily limits: what it takes
//! (one order and its mass of the link's day, one order of the visitor's day)
//! and what the store decided. Above both the limits and the link's model.

use time::Date;
use tonne_kernel::Mass;

use crate::limits::{LimitReached, LinkLimits};
use crate::models::{OffsetLinkId, VisitorHash};

impl LinkLimits {
    /// The claim an order of `mass` by `visitor` makes on the link's `day`.
    pub fn claim(&self, link: OffsetLinkId, day: Date, visitor: VisitorHash, mass: Mass) -> Claim {
        Claim {
            link,
            day,
            visitor,
            mass,
            daily_orders: self.daily_orders,
            daily_mass: self.daily_mass,
            visitor_daily_orders: self.visitor_daily_orders,
        }
    }
}

/// What a hosted-page order takes from its link's day before it is placed:
/// one order and its mass of the link's day, one order of the visitor's day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    /// The link.
    pub link: OffsetLinkId,
    /// The UTC day.
    pub day: Date,
    /// The visitor's address, hashed with the day's salt.
    pub visitor: VisitorHash,
    /// The order's mass.
    pub mass: Mass,
    /// The link's limit of orders per day.
    pub daily_orders: u32,
    /// The link's limit of mass per day.
    pub daily_mass: Mass,
    /// The link's limit of orders per visitor address per day.
    pub visitor_daily_orders: u32,
}

/// What the store decided about a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimOutcome {
    /// Counted: the order may be placed.
    Granted,
    /// Not counted: this daily limit is reached.
    Refused(LimitReached),
}
