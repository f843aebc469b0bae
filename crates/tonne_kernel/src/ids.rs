//! The identifiers shared across domains (accounts, organisations, keys,
//! estimates), declared with [`define_id!`](crate::define_id), which other
//! crates use for their own.

/// A string that is not a Tonne identifier (32 hexadecimal characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("not a valid identifier: expected 32 hexadecimal characters")]
pub struct IdParseError;

/// Declares a typed identifier: a newtype over a UUID rendered as 32 lowercase
/// hex characters on the wire and in storage.
///
/// Domain crates use it for their own entities so that an `AccountId` can never
/// be passed where an `OrderId` is expected.
///
/// ```
/// tonne_kernel::define_id!(
///     /// Identifies a widget.
///     WidgetId
/// );
/// let id: WidgetId = "0190c6f1a7b27c3e9f2d4b1a2c3d4e5f".parse().unwrap();
/// assert_eq!(id.to_string(), "0190c6f1a7b27c3e9f2d4b1a2c3d4e5f");
/// assert!("not-an-id".parse::<WidgetId>().is_err());
/// ```
#[macro_export]
macro_rules! define_id {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name($crate::__private::Uuid);

        impl $name {
            /// A fresh identifier from the given generator.
            pub fn generate(ids: &dyn $crate::IdGenerator) -> Self {
                Self(ids.new_uuid())
            }

            /// Wraps an existing UUID (used by storage adapters when reading rows).
            pub fn from_uuid(uuid: $crate::__private::Uuid) -> Self {
                Self(uuid)
            }

            /// The UUID inside.
            pub fn as_uuid(&self) -> $crate::__private::Uuid {
                self.0
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                ::std::fmt::Display::fmt(&self.0.simple(), f)
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = $crate::IdParseError;
            fn from_str(s: &str) -> ::std::result::Result<Self, Self::Err> {
                $crate::__private::parse_simple_uuid(s).map(Self)
            }
        }
    };
}

#[doc(hidden)]
pub mod __private {
    pub use uuid::Uuid;

    /// Parses exactly 32 lowercase or uppercase hex characters.
    pub fn parse_simple_uuid(s: &str) -> Result<Uuid, super::IdParseError> {
        if s.len() != 32 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(super::IdParseError);
        }
        Uuid::try_parse(s).map_err(|_| super::IdParseError)
    }
}

crate::define_id!(
    /// Identifies an organisation (a tenant). Every account belongs to one.
    OrganisationId
);
crate::define_id!(
    /// Identifies an API key record (not the secret itself).
    ApiKeyId
);
crate::define_id!(
    /// Identifies a stored emission estimate (shared by estimation and ordering: orders by estimate).
    EstimateId
);
crate::define_id!(
    /// Identifies an account or a client account (shared by every domain that records who acted).
    AccountId
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_as_32_hex_characters() {
        let id = OrganisationId::from_uuid(uuid::Uuid::from_u128(0xabcdef));
        let text = id.to_string();
        assert_eq!(text.len(), 32);
        assert_eq!(text.parse::<OrganisationId>(), Ok(id));
    }

    #[test]
    fn rejects_hyphenated_and_short_and_non_hex() {
        for bad in [
            "",
            "abc",
            "0190c6f1-a7b2-7c3e-9f2d-4b1a2c3d4e5f",
            "zz90c6f1a7b27c3e9f2d4b1a2c3d4e5f",
            "0190c6f1a7b27c3e9f2d4b1a2c3d4e5f0",
            "é190c6f1a7b27c3e9f2d4b1a2c3d4e5",
        ] {
            assert_eq!(bad.parse::<ApiKeyId>(), Err(IdParseError), "{bad}");
        }
    }
}
