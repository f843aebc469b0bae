//! Random values for the double-submit cookies of the console's and the hosted
//! pages' forms: 16 bytes from the thread's CSPRNG, 32 lowercase hex digits.

use rand::Rng as _;

/// A fresh double-submit value: 16 random bytes as 32 lowercase hex digits,
/// the form the pages' cookie check accepts.
///
/// ```
/// let token = tonne_http::token::random_token();
/// assert_eq!(token.len(), 32);
/// assert!(token.bytes().all(|b| b.is_ascii_hexdigit()));
/// assert_ne!(token, tonne_http::token::random_token());
/// ```
pub fn random_token() -> String {
    let bytes: [u8; 16] = rand::rng().random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
