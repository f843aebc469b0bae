//! The API's calendar versions, and which one a request runs under.
//!
//! The hosted API's policy (`Lune-Version`): the header picks the version; without
//! it, the organisation's pinned version (pinned on its first API request); else
//! the latest. Every version Tonne speaks is a row of [`ApiVersion::ALL`]; a later
//! breaking change adds a row and one transformation of the requests or responses
//! it changes, never a second set of handlers.
//!
//! ```
//! use tonne_accounts::versions::{ApiVersion, InvalidVersion};
//!
//! let v: ApiVersion = "2024-08-08".parse().unwrap();
//! assert_eq!(v, ApiVersion::LATEST);
//! assert_eq!(v.to_string(), "2024-08-08");
//! assert!(matches!("2023-01-01".parse::<ApiVersion>(), Err(InvalidVersion::Unknown(_))));
//! assert!(matches!("yesterday".parse::<ApiVersion>(), Err(InvalidVersion::Malformed(_))));
//! ```

use std::sync::Arc;

use async_trait::async_trait;
use tonne_kernel::{OrganisationId, StoreError};

/// A calendar version of the API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ApiVersion {
    /// `2024-08-08`: the `Lune-Version` header itself (and, for Tonne, the 2024
    /// shapes of every resource it serves).
    V2024_08_08,
}

impl ApiVersion {
    /// Every version, oldest first.
    pub const ALL: &'static [ApiVersion] = &[ApiVersion::V2024_08_08];
    /// The newest version: what a request runs under when nothing else decides.
    pub const LATEST: ApiVersion = ApiVersion::V2024_08_08;

    /// The version as the header spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::V2024_08_08 => "2024-08-08",
        }
    }
}

impl std::fmt::Display for ApiVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a `Lune-Version` value names no version.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidVersion {
    /// Not a calendar date `YYYY-MM-DD`.
    #[error("Lune-Version must be a calendar version such as {latest}; got {0:?}", latest = ApiVersion::LATEST)]
    Malformed(String),
    /// A date, but not one of the versions.
    #[error("Lune-Version {0:?} is not a version of this API; versions: {versions}", versions = versions_list())]
    Unknown(String),
}

fn versions_list() -> String {
    ApiVersion::ALL
        .iter()
        .map(|v| v.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn is_calendar_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 10
        && bytes.iter().enumerate().all(|(i, b)| match i {
            4 | 7 => *b == b'-',
            _ => b.is_ascii_digit(),
        })
}

impl std::str::FromStr for ApiVersion {
    type Err = InvalidVersion;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        if !is_calendar_date(text) {
            return Err(InvalidVersion::Malformed(text.chars().take(40).collect()));
        }
        ApiVersion::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == text)
            .ok_or_else(|| InvalidVersion::Unknown(text.to_owned()))
    }
}

/// Where organisations' pinned versions are kept.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait VersionPinRepository: Send + Sync {
    /// The organisation's pinned version, if any.
    async fn pinned(&self, organisation: OrganisationId) -> Result<Option<ApiVersion>, StoreError>;

    /// Pins `version` unless the organisation has a pinned version already, and
    /// answers the pinned one. MUST be one atomic insert-if-absent: two first
    /// requests at once pin one version.
    async fn pin_first(
        &self,
        organisation: OrganisationId,
        version: ApiVersion,
    ) -> Result<ApiVersion, StoreError>;

    /// Sets (or changes) the organisation's pinned version. MUST return
    /// `NotFound` for an unknown organisation.
    async fn set(
        &self,
        organisation: OrganisationId,
        version: ApiVersion,
    ) -> Result<(), StoreError>;
}

/// Why no version could be chosen.
#[derive(Debug, thiserror::Error)]
pub enum ChooseVersionError {
    /// The header names no version (400 `api_version_invalid`).
    #[error(transparent)]
    Invalid(#[from] InvalidVersion),
    /// The store failed.
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

/// The version policy over the organisations' pins.
#[derive(Clone)]
pub struct VersionPolicy {
    pins: Arc<dyn VersionPinRepository>,
}

impl VersionPolicy {
    /// A policy over a pin store.
    pub fn new(pins: Arc<dyn VersionPinRepository>) -> Self {
        Self { pins }
    }

    /// The version a request runs under: the header's when given (an invalid one
    /// is refused whoever asks); else, for an authenticated caller, its
    /// organisation's pinned version, pinning the latest on the organisation's
    /// first request; else the latest.
    pub async fn choose(
        &self,
        header: Option<&str>,
        organisation: Option<OrganisationId>,
    ) -> Result<ApiVersion, ChooseVersionError> {
        let asked = header.map(str::parse::<ApiVersion>).transpose()?;
        let Some(organisation) = organisation else {
            return Ok(asked.unwrap_or(ApiVersion::LATEST));
        };
        let pinned = match self.pins.pinned(organisation).await {
            Ok(Some(version)) => version,
            Ok(None) => self
                .pins
                .pin_first(organisation, ApiVersion::LATEST)
                .await
                .map_err(|e| anyhow::Error::new(e).context("pinning the API version"))?,
            Err(e) => {
                return Err(anyhow::Error::new(e)
                    .context("reading the pinned API version")
                    .into());
            }
        };
        Ok(asked.unwrap_or(pinned))
    }

    /// The organisation's pinned version (for the CLI).
    pub async fn pinned(
        &self,
        organisation: OrganisationId,
    ) -> Result<Option<ApiVersion>, StoreError> {
        self.pins.pinned(organisation).await
    }

    /// Pins a version for the organisation (for the CLI).
    pub async fn pin(
        &self,
        organisation: OrganisationId,
        version: ApiVersion,
    ) -> Result<(), StoreError> {
        self.pins.set(organisation, version).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mockall::predicate::eq;

    fn org() -> OrganisationId {
        OrganisationId::from_uuid(uuid::Uuid::from_u128(7))
    }

    #[test]
    fn parses_only_known_calendar_versions() {
        assert_eq!(" 2024-08-08 ".parse(), Ok(ApiVersion::V2024_08_08));
        for bad in [
            "",
            "1",
            "v1",
            "2024-8-8",
            "2024-08-08T00:00:00Z",
            "2024/08/08",
            "２０２４-08-08",
        ] {
            assert!(
                matches!(bad.parse::<ApiVersion>(), Err(InvalidVersion::Malformed(_))),
                "{bad}"
            );
        }
        for unknown in ["2024-08-09", "2023-01-01", "9999-99-99"] {
            assert!(
                matches!(
                    unknown.parse::<ApiVersion>(),
                    Err(InvalidVersion::Unknown(_))
                ),
                "{unknown}"
            );
        }
        assert_eq!(ApiVersion::ALL.last(), Some(&ApiVersion::LATEST));
    }

    #[tokio::test]
    async fn an_unpinned_organisation_is_pinned_to_the_latest_on_its_first_request() {
        let mut pins = MockVersionPinRepository::new();
        pins.expect_pinned()
            .with(eq(org()))
            .times(1)
            .returning(|_| Ok(None));
        pins.expect_pin_first()
            .with(eq(org()), eq(ApiVersion::LATEST))
            .times(1)
            .returning(|_, v| Ok(v));
        let policy = VersionPolicy::new(Arc::new(pins));
        assert_eq!(
            policy.choose(None, Some(org())).await.unwrap(),
            ApiVersion::LATEST
        );
    }

    #[tokio::test]
    async fn the_header_wins_over_the_pin_and_an_invalid_header_is_refused_before_any_lookup() {
        let mut pins = MockVersionPinRepository::new();
        pins.expect_pinned()
            .returning(|_| Ok(Some(ApiVersion::V2024_08_08)));
        pins.expect_pin_first().never();
        let policy = VersionPolicy::new(Arc::new(pins));
        assert_eq!(
            policy
                .choose(Some("2024-08-08"), Some(org()))
                .await
                .unwrap(),
            ApiVersion::V2024_08_08
        );
        let mut none = MockVersionPinRepository::new();
        none.expect_pinned().never();
        let policy = VersionPolicy::new(Arc::new(none));
        assert!(matches!(
            policy.choose(Some("2020-01-01"), Some(org())).await,
            Err(ChooseVersionError::Invalid(InvalidVersion::Unknown(_)))
        ));
        assert_eq!(policy.choose(None, None).await.unwrap(), ApiVersion::LATEST);
    }

    #[tokio::test]
    async fn a_failing_store_is_an_unexpected_error() {
        let mut pins = MockVersionPinRepository::new();
        pins.expect_pinned()
            .returning(|_| Err(StoreError::Unexpected(anyhow::anyhow!("down"))));
        let policy = VersionPolicy::new(Arc::new(pins));
        assert!(matches!(
            policy.choose(None, Some(org())).await,
            Err(ChooseVersionError::Unexpected(_))
        ));
    }
}
