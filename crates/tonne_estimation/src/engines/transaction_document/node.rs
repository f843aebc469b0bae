//! The document as the domain sees it: a JSON-like tree the adapter builds
//! from the request's `unstructured_data.key_value`, and its bounds.

use crate::errors::EstimateError;

/// How deep objects and arrays may nest (the root is depth 1).
pub const MAX_DEPTH: usize = 16;
/// The most values (objects, arrays, scalars) one document may hold.
pub const MAX_NODES: usize = 5_000;
/// The most line items one document may list.
pub const MAX_LINES: usize = 200;

/// A value of the document; numbers keep their text (no float anywhere).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    Null,
    Bool(bool),
    /// A JSON number as written.
    Number(String),
    Text(String),
    List(Vec<Node>),
    /// Keys in the order sent.
    Map(Vec<(String, Node)>),
}

impl Node {
    /// Refuses a document deeper than [`MAX_DEPTH`] or larger than
    /// [`MAX_NODES`] values (`validation_error` on `unstructured_data.key_value`).
    pub fn check(&self) -> Result<(), EstimateError> {
        let mut nodes = 0_usize;
        let mut stack: Vec<(&Node, usize)> = vec![(self, 1)];
        while let Some((node, depth)) = stack.pop() {
            nodes += 1;
            if nodes > MAX_NODES {
                return Err(EstimateError::invalid(
                    "unstructured_data.key_value",
                    &format!("holds more than {MAX_NODES} values"),
                ));
            }
            if depth > MAX_DEPTH {
                return Err(EstimateError::invalid(
                    "unstructured_data.key_value",
                    &format!("nests deeper than {MAX_DEPTH} levels"),
                ));
            }
            match node {
                Node::List(items) => stack.extend(items.iter().map(|n| (n, depth + 1))),
                Node::Map(entries) => stack.extend(entries.iter().map(|(_, n)| (n, depth + 1))),
                Node::Null | Node::Bool(_) | Node::Number(_) | Node::Text(_) => {}
            }
        }
        Ok(())
    }

    /// The entries of an object.
    pub fn entries(&self) -> Option<&[(String, Node)]> {
        match self {
            Node::Map(e) => Some(e),
            _ => None,
        }
    }

    /// A scalar's text (strings, numbers; booleans and null are none).
    pub fn text(&self) -> Option<&str> {
        match self {
            Node::Text(s) | Node::Number(s) => Some(s.as_str()),
            _ => None,
        }
    }
}

/// A key as compared: lower case without `_`, `-` and spaces, so that
/// `line_items`, `lineItems` and `Line Items` are one key.
pub(crate) fn key(k: &str) -> String {
    k.chars()
        .filter(|c| !matches!(c, '_' | '-' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The value of the first of `names` (compared as [`key`]s) an object has.
pub(crate) fn field<'a>(entries: &'a [(String, Node)], names: &[&str]) -> Option<&'a Node> {
    names.iter().find_map(|name| {
        entries
            .iter()
            .find(|(k, v)| key(k) == *name && *v != Node::Null)
            .map(|(_, v)| v)
    })
}
