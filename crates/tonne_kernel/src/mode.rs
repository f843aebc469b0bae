//! [`AccountMode`]: whether an account works live or in test.

use std::fmt;
use std::str::FromStr;

/// Live data is real; test data is a sandbox. A key of one mode never sees the other's data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AccountMode {
    /// Real orders, real money.
    Live,
    /// Sandbox: orders advance by themselves and nothing is charged.
    Test,
}

impl AccountMode {
    /// The wire and storage spelling: `live` or `test`.
    pub fn as_str(self) -> &'static str {
        match self {
            AccountMode::Live => "live",
            AccountMode::Test => "test",
        }
    }

    /// The other mode (a live account's sibling is a test account).
    pub fn other(self) -> Self {
        match self {
            AccountMode::Live => AccountMode::Test,
            AccountMode::Test => AccountMode::Live,
        }
    }
}

impl fmt::Display for AccountMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Neither `live` nor `test`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("mode must be `live` or `test`")]
pub struct ParseModeError;

impl FromStr for AccountMode {
    type Err = ParseModeError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "live" => Ok(AccountMode::Live),
            "test" => Ok(AccountMode::Test),
            _ => Err(ParseModeError),
        }
    }
}
