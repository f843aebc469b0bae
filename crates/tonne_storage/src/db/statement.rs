//! SQL text built with its binds, one text for both backends: placeholders
//! are `$1`, `$2`, … in order of appearance (PostgreSQL's, and SQLite reads
//! them by position), values always bound, never inlined.

use std::fmt::Write as _;

use diesel::backend::Backend;
use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::query_builder::{BoxedSqlQuery, SqlQuery};
use diesel::serialize::ToSql;
use diesel::sql_types::{BigInt, Bool, HasSqlType, Nullable, Text, Timestamp};
use diesel::sqlite::Sqlite;
use diesel_async::RunQueryDsl;
use time::PrimitiveDateTime;

use crate::db::Conn;

/// A bound value.
#[derive(Debug, Clone)]
pub(crate) enum Bind {
    Text(String),
    OptText(Option<String>),
    Int(i64),
    OptInt(Option<i64>),
    Bool(bool),
    Time(PrimitiveDateTime),
}

/// A statement's text and its binds.
#[derive(Debug, Default)]
pub(crate) struct Sql {
    text: String,
    binds: Vec<Bind>,
}

impl Sql {
    /// A statement starting with `text`.
    pub fn new(text: &str) -> Self {
        Self {
            text: text.to_owned(),
            binds: Vec::new(),
        }
    }

    /// Appends text.
    pub fn push(&mut self, text: &str) -> &mut Self {
        self.text.push_str(text);
        self
    }

    /// Appends the next placeholder, bound to `value`.
    pub fn bind(&mut self, value: Bind) -> &mut Self {
        self.binds.push(value);
        let _ = write!(self.text, "${}", self.binds.len());
        self
    }

    /// Appends a text bind.
    pub fn text(&mut self, value: impl Into<String>) -> &mut Self {
        self.bind(Bind::Text(value.into()))
    }

    /// Appends `(… , …)`, one text placeholder per value.
    pub fn texts(&mut self, values: impl IntoIterator<Item = String>) -> &mut Self {
        self.push("(");
        for (i, v) in values.into_iter().enumerate() {
            if i > 0 {
                self.push(", ");
            }
            self.text(v);
        }
        self.push(")")
    }

    fn boxed<DB>(&self) -> BoxedSqlQuery<'static, DB, SqlQuery>
    where
        DB: Backend
            + HasSqlType<Text>
            + HasSqlType<BigInt>
            + HasSqlType<Bool>
            + HasSqlType<Timestamp>,
        String: ToSql<Text, DB>,
        i64: ToSql<BigInt, DB>,
        bool: ToSql<Bool, DB>,
        PrimitiveDateTime: ToSql<Timestamp, DB>,
    {
        let mut q = diesel::sql_query(self.text.clone()).into_boxed::<DB>();
        for b in &self.binds {
            q = match b.clone() {
                Bind::Text(v) => q.bind::<Text, _>(v),
                Bind::OptText(v) => q.bind::<Nullable<Text>, _>(v),
                Bind::Int(v) => q.bind::<BigInt, _>(v),
                Bind::OptInt(v) => q.bind::<Nullable<BigInt>, _>(v),
                Bind::Bool(v) => q.bind::<Bool, _>(v),
                Bind::Time(v) => q.bind::<Timestamp, _>(v),
            };
        }
        q
    }

    /// Runs the statement and reads its rows (taken by value: an inherent
    /// method on `self` is found before `diesel_async::RunQueryDsl`'s, which
    /// every type has).
    pub async fn load<U>(self, conn: &mut Conn) -> QueryResult<Vec<U>>
    where
        U: QueryableByName<Pg> + QueryableByName<Sqlite> + Send + 'static,
    {
        on!(conn, |c| self.boxed().load(c).await)
    }

    /// Runs the statement and answers how many rows it changed.
    pub async fn execute(self, conn: &mut Conn) -> QueryResult<usize> {
        on!(conn, |c| self.boxed().execute(c).await)
    }
}
