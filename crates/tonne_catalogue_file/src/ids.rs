//! Item keys and the stable ids derived from them (UUIDv5 of the key), so
//! that importing the same file again updates the same rows.

use anyhow::ensure;
use tonne_ordering::{BundleId, BundlePortfolioId, ProjectId};
use uuid::Uuid;

const NAMESPACE: Uuid = Uuid::from_u128(0x7a0e_4c2b_9d3f_4e51_8b6a_2f1c_0d9e_5a37);

/// The stable id of a project key.
pub fn project_id(key: &str) -> ProjectId {
    ProjectId::from_uuid(Uuid::new_v5(
        &NAMESPACE,
        format!("project:{key}").as_bytes(),
    ))
}

/// The stable id of a bundle portfolio key.
pub fn portfolio_id(key: &str) -> BundlePortfolioId {
    BundlePortfolioId::from_uuid(Uuid::new_v5(
        &NAMESPACE,
        format!("portfolio:{key}").as_bytes(),
    ))
}

/// The stable id of a bundle key.
pub fn bundle_id(key: &str) -> BundleId {
    BundleId::from_uuid(Uuid::new_v5(&NAMESPACE, format!("bundle:{key}").as_bytes()))
}

pub(crate) fn check_key(key: &str) -> anyhow::Result<()> {
    ensure!(
        (1..=100).contains(&key.len())
            && key
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
        "key `{key}`: use 1 to 100 of a-z, 0-9 and '-' (it becomes the project's slug)"
    );
    Ok(())
}
