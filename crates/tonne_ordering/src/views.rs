use crate::catalogue::{Bundle, Project};

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
