//! A data sheet's problems: each at its line and column (or the line, or the
//! file), at most [`MAX_PROBLEMS`] listed and the rest counted.

use serde::Serialize;

/// Most problems listed; the rest are counted.
pub const MAX_PROBLEMS: usize = 100;

/// One problem of a data sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// The file's line, 1-based (the column names are line 1); `None` for
    /// the file as a whole.
    pub line: Option<u64>,
    /// The column's name; `None` for the line as a whole.
    pub column: Option<String>,
    pub message: String,
}

impl Problem {
    pub(super) fn at(line: u64, column: &str, message: impl Into<String>) -> Self {
        Self {
            line: Some(line),
            column: Some(column.to_owned()),
            message: message.into(),
        }
    }

    pub(super) fn line(line: u64, message: impl Into<String>) -> Self {
        Self {
            line: Some(line),
            column: None,
            message: message.into(),
        }
    }

    pub(super) fn file(message: impl Into<String>) -> Self {
        Self {
            line: None,
            column: None,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.line, &self.column) {
            (Some(l), Some(c)) => write!(f, "line {l}, column {c}: {}", self.message),
            (Some(l), None) => write!(f, "line {l}: {}", self.message),
            (None, _) => f.write_str(&self.message),
        }
    }
}

/// The problems found so far, at most [`MAX_PROBLEMS`] kept.
#[derive(Default)]
pub(super) struct Problems {
    pub(super) kept: Vec<Problem>,
    pub(super) more: usize,
}

impl Problems {
    pub(super) fn push(&mut self, p: Problem) {
        if self.kept.len() < MAX_PROBLEMS {
            self.kept.push(p);
        } else {
            self.more = self.more.saturating_add(1);
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    pub(super) fn finish<T>(mut self, ok: T) -> Result<T, Vec<Problem>> {
        if self.kept.is_empty() {
            return Ok(ok);
        }
        if self.more > 0 {
            self.kept.push(Problem::file(format!(
                "and {} more problems not listed",
                self.more
            )));
        }
        Err(self.kept)
    }
}
