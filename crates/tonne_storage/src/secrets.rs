//! Webhook secrets at rest: XChaCha20-Poly1305 under the operator's key.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use chacha20poly1305::aead::{Aead as _, KeyInit as _, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use rand::RngCore as _;

/// The 32-byte key webhook secrets are encrypted with (`TONNE_SECRETS_KEY`).
#[derive(Clone)]
pub struct SecretsKey([u8; 32]);

/// A key that is not 32 bytes as 64 hex characters or standard base64.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the secrets key must be 32 bytes, given as 64 hexadecimal characters or standard base64")]
pub struct SecretsKeyError;

/// Ciphertext that does not open under this key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "a stored webhook secret does not decrypt with this TONNE_SECRETS_KEY (wrong key, or corrupt row)"
)]
pub struct OpenError;

impl SecretsKey {
    /// Parses 64 hex characters or standard base64 of 32 bytes.
    pub fn parse(text: &str) -> Result<Self, SecretsKeyError> {
        let text = text.trim();
        let bytes = if text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit()) {
            hex::decode(text).map_err(|_| SecretsKeyError)?
        } else {
            STANDARD.decode(text).map_err(|_| SecretsKeyError)?
        };
        <[u8; 32]>::try_from(bytes.as_slice())
            .map(Self)
            .map_err(|_| SecretsKeyError)
    }

    /// A fresh random key.
    pub fn generate() -> Self {
        let mut key = [0_u8; 32];
        rand::rng().fill_bytes(&mut key);
        Self(key)
    }

    /// An independent 32-byte key for another purpose, named by `label`
    /// (SHA-256 over a domain-separated label and this key): the hosted pages'
    /// key is `derive("offset-link-pages")`, so one operator secret serves both
    /// without using the cipher's key for HMAC.
    pub fn derive(&self, label: &str) -> [u8; 32] {
        use sha2::Digest as _;
        let mut h = sha2::Sha256::new();
        h.update(b"tonne-subkey\0");
        h.update(label.as_bytes());
        h.update(b"\0");
        h.update(self.0);
        h.finalize().into()
    }

    /// The key as 64 hex characters (what a key file holds).
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    fn cipher(&self) -> XChaCha20Poly1305 {
        XChaCha20Poly1305::new((&self.0).into())
    }

    /// Encrypts `plaintext` bound to `context` (the row's id): `base64(nonce ‖ ciphertext)`.
    pub fn seal(&self, plaintext: &str, context: &str) -> String {
        let mut nonce = [0_u8; 24];
        rand::rng().fill_bytes(&mut nonce);
        let sealed = self
            .cipher()
            .encrypt(
                XNonce::from_slice(&nonce),
                Payload {
                    msg: plaintext.as_bytes(),
                    aad: context.as_bytes(),
                },
            )
            // Encryption fails only for messages beyond 256 GiB.
            .unwrap_or_default();
        let mut out = nonce.to_vec();
        out.extend_from_slice(&sealed);
        STANDARD.encode(out)
    }

    /// Decrypts what [`SecretsKey::seal`] made for the same context.
    pub fn open(&self, sealed: &str, context: &str) -> Result<String, OpenError> {
        let raw = STANDARD.decode(sealed).map_err(|_| OpenError)?;
        if raw.len() < 24 {
            return Err(OpenError);
        }
        let (nonce, ciphertext) = raw.split_at(24);
        let plain = self
            .cipher()
            .decrypt(
                XNonce::from_slice(nonce),
                Payload {
                    msg: ciphertext,
                    aad: context.as_bytes(),
                },
            )
            .map_err(|_| OpenError)?;
        String::from_utf8(plain).map_err(|_| OpenError)
    }
}

impl std::fmt::Debug for SecretsKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretsKey(<redacted>)")
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn seals_and_opens_bound_to_the_row() {
        let key = SecretsKey::generate();
        let sealed = key.seal("whsec_abc", "row-1");
        assert!(!sealed.contains("whsec"));
        assert_eq!(key.open(&sealed, "row-1").unwrap(), "whsec_abc");
        assert_eq!(key.open(&sealed, "row-2"), Err(OpenError));
        assert_eq!(
            SecretsKey::generate().open(&sealed, "row-1"),
            Err(OpenError)
        );
        assert_ne!(
            key.seal("whsec_abc", "row-1"),
            sealed,
            "a fresh nonce each time"
        );
    }

    #[test]
    fn keys_parse_from_hex_or_base64_of_32_bytes() {
        let key = SecretsKey::generate();
        let again = SecretsKey::parse(&key.to_hex()).unwrap();
        assert_eq!(again.0, key.0);
        let b64 = STANDARD.encode(key.0);
        assert_eq!(SecretsKey::parse(&b64).unwrap().0, key.0);
        for bad in ["", "abcd", &"0".repeat(63), &STANDARD.encode([1_u8; 16])] {
            assert_eq!(
                SecretsKey::parse(bad).unwrap_err(),
                SecretsKeyError,
                "{bad}"
            );
        }
    }
}
