//! Passwords: the strength rules a chosen one must pass, and the argon2id
//! hasher (with a decoy hash, so that an unknown email costs a verification).

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHasher as _, PasswordVerifier as _, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

/// A password that meets the rules: 12 to 128 characters, not only spaces.
///
/// NIST SP 800-63B (rev. 4) asks for fifteen characters for a password used
/// alone and eight with a second factor; the console has no second factor yet,
/// and twelve is the compromise written down in docs/console.md. No composition rules (NIST advises against
/// them); the upper bound keeps hashing bounded.
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

/// Why a password is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PasswordRuleError {
    /// Fewer than 12 characters.
    #[error("a password has at least 12 characters")]
    TooShort,
    /// More than 128 characters.
    #[error("a password has at most 128 characters")]
    TooLong,
    /// Only white space.
    #[error("a password is more than spaces")]
    Blank,
    /// Easy to guess: common, breached, or a pattern guessers try first.
    #[error("this password is too easy to guess: {0}")]
    Guessable(Weakness),
}

/// Why a password is easy to guess (from zxcvbn's estimate, which knows the
/// most common and most often breached passwords, words, names, dates and
/// keyboard patterns).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Weakness {
    #[error("it is one of the most common passwords")]
    Common,
    #[error("it is close to a common password")]
    LikeCommon,
    #[error("it is a keyboard pattern, a sequence or a repeat")]
    Pattern,
    #[error("it is a word, a name or a date")]
    Word,
    #[error("it contains your email or the service's name")]
    Personal,
    #[error("it would be found within the first million or so guesses")]
    Guessed,
}

/// The lowest zxcvbn score accepted: 3 ("safely unguessable: moderate
/// protection from offline slow-hash scenario", under 10^10 guesses).
const LOWEST_SCORE: zxcvbn::Score = zxcvbn::Score::Three;

fn weakness(estimate: &zxcvbn::Entropy, personal: bool) -> Weakness {
    use zxcvbn::feedback::Warning;
    if personal {
        return Weakness::Personal;
    }
    match estimate
        .feedback()
        .and_then(zxcvbn::feedback::Feedback::warning)
    {
        Some(
            Warning::ThisIsATop10Password
            | Warning::ThisIsATop100Password
            | Warning::ThisIsACommonPassword,
        ) => Weakness::Common,
        Some(Warning::ThisIsSimilarToACommonlyUsedPassword) => Weakness::LikeCommon,
        Some(
            Warning::StraightRowsOfKeysAreEasyToGuess
            | Warning::ShortKeyboardPatternsAreEasyToGuess
            | Warning::RepeatsLikeAaaAreEasyToGuess
            | Warning::RepeatsLikeAbcAbcAreOnlySlightlyHarderToGuess
            | Warning::SequencesLikeAbcAreEasyToGuess,
        ) => Weakness::Pattern,
        Some(
            Warning::RecentYearsAreEasyToGuess
            | Warning::AWordByItselfIsEasyToGuess
            | Warning::DatesAreOftenEasyToGuess
            | Warning::NamesAndSurnamesByThemselvesAreEasyToGuess
            | Warning::CommonNamesAndSurnamesAreEasyToGuess,
        ) => Weakness::Word,
        None => Weakness::Guessed,
    }
}

impl Password {
    /// The password, if it meets the rules.
    pub fn new(text: &str) -> Result<Self, PasswordRuleError> {
        let chars = text.chars().count();
        if text.trim().is_empty() && !text.is_empty() {
            return Err(PasswordRuleError::Blank);
        }
        if chars < 12 {
            return Err(PasswordRuleError::TooShort);
        }
        if chars > 128 {
            return Err(PasswordRuleError::TooLong);
        }
        Ok(Self(text.to_owned()))
    }

    fn expose(&self) -> &str {
        &self.0
    }

    /// Refuses a password that is easy to guess, for a person choosing one
    /// (`context`: their email and other words an attacker knows about them).
    /// Checked when a password is set, not at sign-in.
    ///
    /// ```
    /// use tonne_accounts::users::{Password, PasswordRuleError, Weakness};
    ///
    /// let common = Password::new("password1234").unwrap();
    /// assert_eq!(common.strong_enough(&[]), Err(PasswordRuleError::Guessable(Weakness::Common)));
    /// let keys = Password::new("qwertyuiop12").unwrap();
    /// assert!(matches!(keys.strong_enough(&[]), Err(PasswordRuleError::Guessable(_))));
    /// assert!(Password::new("plinth-orbit-marrow-41").unwrap().strong_enough(&[]).is_ok());
    /// ```
    pub fn strong_enough(&self, context: &[&str]) -> Result<(), PasswordRuleError> {
        let mut inputs = vec!["tonne", "console", "carbon", "offset"];
        for word in context {
            inputs.push(word);
            if let Some((local, domain)) = word.split_once('@') {
                inputs.push(local);
                inputs.extend(domain.split('.'));
            }
        }
        let estimate = zxcvbn::zxcvbn(self.expose(), &inputs);
        if estimate.score() >= LOWEST_SCORE {
            return Ok(());
        }
        let lowered = self.expose().to_lowercase();
        let personal = context
            .iter()
            .flat_map(|w| w.split(['@', '.']))
            .chain(["tonne"])
            .any(|part| part.chars().count() >= 4 && lowered.contains(&part.to_lowercase()));
        Err(PasswordRuleError::Guessable(weakness(&estimate, personal)))
    }
}

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password(…)")
    }
}

/// argon2 refused to hash (only with parameters it does not accept).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("password hashing failed: {0}")]
pub struct HashingFailed(pub String);

/// An argon2id hash in PHC string form (`$argon2id$v=19$m=…`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PasswordHash(pub String);

/// Hashes and checks passwords with argon2id.
///
/// ```
/// use tonne_accounts::users::{Password, PasswordHasher};
///
/// let hasher = PasswordHasher::for_tests();
/// let hash = hasher.hash(&Password::new("correct horse battery").unwrap()).unwrap();
/// assert!(hash.0.starts_with("$argon2id$"));
/// assert!(hasher.verify(Some(&hash.0), "correct horse battery"));
/// assert!(!hasher.verify(Some(&hash.0), "wrong horse battery"));
/// assert!(!hasher.verify(None, "anything at all")); // costs the same as a miss
/// ```
#[derive(Clone)]
pub struct PasswordHasher {
    argon: Argon2<'static>,
    /// A hash of a random password, verified when there is no user (or no
    /// password yet), so that an unknown email takes as long as a wrong password.
    decoy: String,
}

impl std::fmt::Debug for PasswordHasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PasswordHasher")
            .field("params", self.argon.params())
            .finish()
    }
}

impl Default for PasswordHasher {
    /// OWASP's first argon2id configuration: 19 MiB, 2 passes, 1 lane.
    fn default() -> Self {
        // argon2's default parameters are exactly these.
        Self::with_params(Params::default())
    }
}

impl PasswordHasher {
    /// The smallest costs argon2 allows: for tests only (hashes stay valid
    /// argon2id and verify under any hasher, since the PHC string carries them).
    pub fn for_tests() -> Self {
        Self::with_params(Params::new(8, 1, 1, None).unwrap_or_default())
    }

    fn with_params(params: Params) -> Self {
        let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, params);
        let salt = SaltString::generate(&mut OsRng);
        // If hashing could fail here it fails for every password, and no
        // sign-in succeeds; an empty decoy then only answers false.
        let decoy = argon
            .hash_password(SaltString::generate(&mut OsRng).as_str().as_bytes(), &salt)
            .map(|h| h.to_string())
            .unwrap_or_default();
        Self { argon, decoy }
    }

    /// The hash to store for a password (a fresh random salt each time).
    pub fn hash(&self, password: &Password) -> Result<PasswordHash, HashingFailed> {
        let salt = SaltString::generate(&mut OsRng);
        self.argon
            .hash_password(password.expose().as_bytes(), &salt)
            .map(|h| PasswordHash(h.to_string()))
            .map_err(|e| HashingFailed(e.to_string()))
    }

    /// Whether `candidate` matches `stored`; with no stored hash, verifies
    /// against the decoy (same cost) and answers false.
    pub fn verify(&self, stored: Option<&str>, candidate: &str) -> bool {
        let (phc, real) = match stored {
            Some(s) => (s, true),
            None => (self.decoy.as_str(), false),
        };
        let Ok(parsed) = argon2::PasswordHash::new(phc) else {
            return false;
        };
        let matched = self
            .argon
            .verify_password(candidate.as_bytes(), &parsed)
            .is_ok();
        matched && real
    }
}
