//! What a partner's client id and secret may be: 1 to 512 bytes, no control
//! characters (they travel in a form and an `Authorization` header).

/// The longest `client_id` or secret accepted, in bytes.
const CREDENTIAL_MAX: usize = 512;

/// Whether `text` is acceptable as a client id or secret.
pub(super) fn credential_ok(text: &str) -> bool {
    (1..=CREDENTIAL_MAX).contains(&text.len()) && !text.chars().any(char::is_control)
}
