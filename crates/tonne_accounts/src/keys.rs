//! API key secrets (`tonne_live_…`, `tonne_test_…`): generated, told apart by mode,
//! and stored only as a hash.

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore as _;
use sha2::{Digest as _, Sha256};
use subtle::ConstantTimeEq as _;
use tonne_kernel::AccountMode;

const LIVE_PREFIX: &str = "tonne_live_";
const TEST_PREFIX: &str = "tonne_test_";
/// 32 random bytes encode to 43 base64url characters.
const SECRET_BODY_LEN: usize = 43;

/// The full API key. It exists only at creation, is shown once, and is never stored.
///
/// Format: `tonne_live_` or `tonne_test_` followed by 43 base64url characters
/// (256 bits from a CSPRNG seeded by the operating system).
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKeySecret(String);

impl ApiKeySecret {
    /// A new random key for a mode.
    pub fn generate(mode: AccountMode) -> Self {
        let mut bytes = [0_u8; 32];
        rand::rng().fill_bytes(&mut bytes);
        let prefix = match mode {
            AccountMode::Live => LIVE_PREFIX,
            AccountMode::Test => TEST_PREFIX,
        };
        Self(format!("{prefix}{}", URL_SAFE_NO_PAD.encode(bytes)))
    }

    /// The key text, to show its owner once.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// The mode a presented key claims by its prefix, if it is well formed at all.
    /// A well-formed key still has to be found by its hash.
    pub fn mode_of(presented: &str) -> Option<AccountMode> {
        let (mode, body) = if let Some(body) = presented.strip_prefix(LIVE_PREFIX) {
            (AccountMode::Live, body)
        } else if let Some(body) = presented.strip_prefix(TEST_PREFIX) {
            (AccountMode::Test, body)
        } else {
            return None;
        };
        let well_formed = body.len() == SECRET_BODY_LEN
            && body
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        well_formed.then_some(mode)
    }

    /// What may be shown after creation: the mode prefix and the first four characters.
    pub fn display_prefix(&self) -> String {
        self.0.chars().take(LIVE_PREFIX.len() + 4).collect()
    }
}

impl fmt::Debug for ApiKeySecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKeySecret(<redacted>)")
    }
}

/// SHA-256 of an API key. A fast hash is right here: keys carry 256 random bits,
/// so there is nothing to brute-force, and the hash must be cheap to look up.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyHash([u8; 32]);

impl KeyHash {
    /// Hashes a presented key.
    pub fn of(presented: &str) -> Self {
        Self(Sha256::digest(presented.as_bytes()).into())
    }

    /// From the stored hex form.
    pub fn from_hex(hex: &str) -> Option<Self> {
        if hex.len() != 64 {
            return None;
        }
        let mut out = [0_u8; 32];
        for (slot, pair) in out.iter_mut().zip(hex.as_bytes().chunks(2)) {
            let text = std::str::from_utf8(pair).ok()?;
            *slot = u8::from_str_radix(text, 16).ok()?;
        }
        Some(Self(out))
    }

    /// The stored hex form (64 lowercase characters).
    pub fn to_hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Compares in constant time.
    pub fn matches(&self, other: &KeyHash) -> bool {
        self.0.ct_eq(&other.0).into()
    }
}

impl fmt::Debug for KeyHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "KeyHash({}…)",
            &self.to_hex().chars().take(8).collect::<String>()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_keys_are_well_formed_distinct_and_hash_round_trips() {
        let a = ApiKeySecret::generate(AccountMode::Live);
        let b = ApiKeySecret::generate(AccountMode::Live);
        assert_ne!(a, b);
        assert_eq!(ApiKeySecret::mode_of(a.expose()), Some(AccountMode::Live));
        assert_eq!(a.expose().len(), LIVE_PREFIX.len() + SECRET_BODY_LEN);
        let h = KeyHash::of(a.expose());
        assert_eq!(KeyHash::from_hex(&h.to_hex()), Some(h));
        assert!(h.matches(&KeyHash::of(a.expose())));
        assert!(!h.matches(&KeyHash::of(b.expose())));
        assert_eq!(a.display_prefix().len(), LIVE_PREFIX.len() + 4);
        assert!(!format!("{a:?}").contains(&a.expose()[12..]));
    }

    #[test]
    fn malformed_keys_have_no_mode() {
        for bad in [
            "",
            "tonne_live_",
            "tonne_prod_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            "tonne_live_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            "tonne_live_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!",
        ] {
            assert_eq!(ApiKeySecret::mode_of(bad), None, "{bad}");
        }
        assert_eq!(KeyHash::from_hex("zz"), None);
        assert_eq!(KeyHash::from_hex(&"g".repeat(64)), None);
    }
}
