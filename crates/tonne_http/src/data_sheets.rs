//! What the API's and the console's data-sheet uploads share: reading the
//! multipart form (bounded), and turning the file into the batch's rows —
//! `tonne_wire::data_sheet` reads the CSV, the row decoder checks each row —
//! or every problem with its line and column.

use std::collections::HashMap;

use actix_multipart::Multipart;
use actix_web::HttpRequest;
use futures_util::StreamExt as _;
use tonne_wire::data_sheet::{self, MAX_BYTES, Problem, Sheet};

/// Largest upload request: the file and the form's other fields.
pub const MAX_BODY: usize = MAX_BYTES + 64 * 1024;

/// Largest value of a field other than the file.
const MAX_FIELD: usize = 1024;

/// A multipart form with a data sheet.
#[derive(Debug, Default)]
pub struct SheetForm {
    /// The text fields, by name.
    pub fields: HashMap<String, String>,
    /// The file part's name as sent (its `filename`, cleaned: see
    /// [`clean_filename`]), and its bytes.
    pub file: Option<(String, Vec<u8>)>,
    /// Why the form could not be read whole (the file too large, a part sent
    /// twice, a broken body); the fields read before it are kept.
    pub problem: Option<FormProblem>,
}

/// Why a form was refused, and the part it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormProblem {
    /// The part (`file`, a field's name), or `body` for the form as a whole.
    pub field: String,
    /// What is wrong with it.
    pub message: String,
    /// Whether it is the form's size (413 rather than 400).
    pub too_large: bool,
}

impl FormProblem {
    fn new(field: &str, message: impl Into<String>) -> Self {
        Self {
            field: field.to_owned(),
            message: message.into(),
            too_large: false,
        }
    }
}

impl std::fmt::Display for FormProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl SheetForm {
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields.get(name).map(String::as_str)
    }
}

/// Whether the request says its body is larger than an upload may be.
pub fn declared_too_large(req: &HttpRequest) -> bool {
    req.headers()
        .get(actix_web::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        .is_some_and(|length| length > u64::try_from(MAX_BODY).unwrap_or(u64::MAX))
}

/// Reads the form: the part named `file` (at most [`MAX_BYTES`]) and small
/// text fields; never more than [`MAX_BODY`] bytes in all. A part sent twice
/// (two `file` parts, a field repeated) is a problem naming it, as is a text
/// field holding U+0000 (no store keeps it: see [`crate::unstorable`]).
pub async fn read_form(mut form: Multipart) -> SheetForm {
    let mut out = SheetForm::default();
    let mut read = 0_usize;
    while let Some(field) = form.next().await {
        let Ok(mut field) = field else {
            out.problem = Some(FormProblem::new("body", "the upload could not be read"));
            return out;
        };
        let name = field.name().unwrap_or_default().to_owned();
        if out.fields.contains_key(&name) || (name == "file" && out.file.is_some()) {
            out.problem = Some(FormProblem::new(
                &name,
                "sent more than once; send each part once",
            ));
            return out;
        }
        let filename = field
            .content_disposition()
            .and_then(|d| d.get_filename())
            .map(str::to_owned);
        let limit = if name == "file" { MAX_BYTES } else { MAX_FIELD };
        let mut bytes = Vec::new();
        while let Some(chunk) = field.next().await {
            let Ok(chunk) = chunk else {
                out.problem = Some(FormProblem::new("body", "the upload could not be read"));
                return out;
            };
            read = read.saturating_add(chunk.len());
            if bytes.len().saturating_add(chunk.len()) > limit || read > MAX_BODY {
                out.problem = Some(if name == "file" {
                    FormProblem {
                        too_large: true,
                        ..FormProblem::new("file", "the file is larger than 8 MiB")
                    }
                } else {
                    FormProblem::new(&name, "too long")
                });
                return out;
            }
            bytes.extend_from_slice(&chunk);
        }
        if name == "file" {
            let filename = filename
                .map(|f| clean_filename(&f))
                .filter(|f| !f.is_empty())
                .unwrap_or_else(|| "data-sheet.csv".to_owned());
            out.file = Some((filename, bytes));
        } else {
            let value = String::from_utf8_lossy(&bytes).into_owned();
            if value.contains('\0') {
                out.problem = Some(FormProblem::new(&name, crate::unstorable::NUL_REFUSED));
                return out;
            }
            out.fields.insert(name, value);
        }
    }
    out
}

/// A file name as shown: its last path part, NFC-normalised, without
/// control or format characters (general categories Cc and Cf: a
/// right-to-left override would show `\u{202e}gpj.csv` as `csv.jpg`), at
/// most 255 characters.
pub fn clean_filename(raw: &str) -> String {
    use unicode_general_category::{GeneralCategory, get_general_category};
    use unicode_normalization::UnicodeNormalization as _;
    let last = raw.rsplit(['/', '\\']).next().unwrap_or(raw);
    last.nfc()
        .filter(|c| {
            !matches!(
                get_general_category(*c),
                GeneralCategory::Control | GeneralCategory::Format
            )
        })
        .take(255)
        .collect::<String>()
        .trim()
        .to_owned()
}

/// The file's rows for an upload, or every problem: the CSV read whole,
/// then each row through the row decoder (its field mapped back to the
/// line and column).
pub fn rows(bytes: &[u8]) -> Result<Sheet, Vec<Problem>> {
    let sheet = data_sheet::parse(bytes)?;
    sheet.check_rows(decode)?;
    Ok(sheet)
}

/// One row through the row decoder the batch worker uses: `Err((field
/// path, message))`.
fn decode(row: &str) -> Result<(), (String, String)> {
    use tonne_shipments::RowDecoder as _;
    tonne_wire::shipments::JsonRowDecoder
        .decode(row)
        .map(|_| ())
        .map_err(|e| (e.field, e.message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_name_keeps_its_last_part_only() {
        assert_eq!(clean_filename("C:\\Users\\me\\legs.csv"), "legs.csv");
        assert_eq!(clean_filename("../../etc/x.csv"), "x.csv");
        assert_eq!(clean_filename("a\u{7}b.csv"), "ab.csv");
    }

    #[test]
    fn a_file_name_loses_format_characters_and_is_nfc() {
        assert_eq!(clean_filename("\u{202e}gpj.csv"), "gpj.csv");
        assert_eq!(clean_filename("a\u{200b}b\u{feff}\u{0}.csv"), "ab.csv");
        // e + combining acute becomes the one character é
        assert_eq!(clean_filename("cafe\u{301}.csv"), "caf\u{e9}.csv");
    }
}
