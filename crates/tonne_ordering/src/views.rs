//! What the ordering use cases answer besides orders: projects with their
//! bundles, bundles with their projects, and retirement certificates.

use crate::catalogue::{Bundle, Project};
use crate::orders::{Order, ProjectAllocation, ProjectStatus};

/// A project with the bundles it belongs to (the contract's `Project`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectView {
    /// The project.
    pub project: Project,
    /// Its bundles, in id order.
    pub bundles: Vec<Bundle>,
}

/// A bundle with its projects (the contract's `Bundle`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleView {
    /// The bundle.
    pub bundle: Bundle,
    /// Its projects, in membership order.
    pub projects: Vec<Project>,
}

/// The account an order was placed on, as its certificate presents it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountHolder {
    /// The organisation the account belongs to.
    pub organisation_id: tonne_kernel::OrganisationId,
    /// The account's name.
    pub name: String,
    /// Who retirements are made for: the account's beneficiary, else its name.
    pub beneficiary: String,
    /// The account's logo (an absolute URL), if it has one.
    pub logo: Option<String>,
}

/// One project of a certificate: the order's allocation with the catalogue's
/// facts about the project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CertifiedProject {
    /// What was retired.
    pub allocation: ProjectAllocation,
    /// Allocated or retired.
    pub status: ProjectStatus,
    /// The project's country, from the catalogue (`None` if the project has
    /// left the catalogue).
    pub country_name: Option<String>,
    /// The project's record on its registry, where the catalogue has one.
    pub registry_link: Option<String>,
}

/// What a retirement certificate shows: a complete order, its account and its
/// projects, in the order's project order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Certificate {
    /// The order (complete).
    pub order: Order,
    /// Its account.
    pub holder: AccountHolder,
    /// Its projects.
    pub projects: Vec<CertifiedProject>,
}
