//! A data sheet read whole: its shipments, each with the rows it becomes and
//! where each of their fields came from, so that a decoder's refusal of a
//! field is answered at its line and column.

use super::problem::{Problem, Problems};

/// A data sheet read whole: its shipments in the file's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sheet {
    pub shipments: Vec<SheetShipment>,
}

/// One shipment of a data sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetShipment {
    /// Its first line.
    pub line: u64,
    /// The `CreateShipmentRequest` JSON text.
    pub row: String,
    /// Where each field came from: its JSON path, line and column.
    pub(super) sources: Vec<(String, u64, String)>,
}

impl SheetShipment {
    /// The line and column a field path of the row (`legs[1].method.fuel`,
    /// `freight_cost`) came from: the field itself, else the first field
    /// under it, else the closest field above it; the shipment's first line
    /// when nothing matches.
    pub fn locate(&self, path: &str) -> (u64, Option<String>) {
        if path == "legs" {
            // the legs as a whole: the shipment
            return (self.line, None);
        }
        let found = self
            .sources
            .iter()
            .find(|(p, _, _)| p == path)
            .or_else(|| self.sources.iter().find(|(p, _, _)| under(p, path)))
            .or_else(|| {
                self.sources
                    .iter()
                    .filter(|(p, _, _)| under(path, p))
                    .max_by_key(|(p, _, _)| p.len())
            });
        match found {
            Some((_, line, column)) => (*line, Some(column.clone())),
            // a leg's path with nothing recorded under it: that leg's line
            None => (self.leg_line(path).unwrap_or(self.line), None),
        }
    }

    pub(super) fn leg_line(&self, path: &str) -> Option<u64> {
        let leg = path.strip_prefix("legs[")?.split(']').next()?;
        let prefix = format!("legs[{leg}]");
        self.sources
            .iter()
            .find(|(p, _, _)| under(p, &prefix))
            .map(|(_, line, _)| *line)
    }
}

/// Whether `path` is `parent` or lies under it (`a.b` and `a[0]` lie under `a`).
pub(super) fn under(path: &str, parent: &str) -> bool {
    path.strip_prefix(parent)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('.') || rest.starts_with('['))
}

impl Sheet {
    /// The rows to upload, in order.
    pub fn rows(&self) -> Vec<String> {
        self.shipments.iter().map(|s| s.row.clone()).collect()
    }

    /// Runs each row through `decode` (`Err((field path, message))`), and
    /// answers every refusal at the line and column the field came from.
    pub fn check_rows<F>(&self, decode: F) -> Result<(), Vec<Problem>>
    where
        F: Fn(&str) -> Result<(), (String, String)>,
    {
        let mut problems = Problems::default();
        for s in &self.shipments {
            if let Err((path, message)) = decode(&s.row) {
                let (line, column) = s.locate(&path);
                problems.push(Problem {
                    line: Some(line),
                    column,
                    message,
                });
            }
        }
        problems.finish(())
    }
}
