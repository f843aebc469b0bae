//! The identifiers shared across domains (accounts, organisations, keys,
//! estimates), declared with [`define_id!`](crate::define_id).

/// A string that is not a Tonne identifier (32 hexadecimal characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("not a valid identifier: expected 32 hexadecimal characters")]
pub struct IdParseError;

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
