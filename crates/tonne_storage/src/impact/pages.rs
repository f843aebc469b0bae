//! Sustainability pages: one row per account, its slug unique per mode.

use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use diesel_async::RunQueryDsl;
use time::PrimitiveDateTime;
use tonne_impact::{
    DescriptionFormat, PageSettings, PageStatus, PageWriteError, Section, Slug, SustainabilityPage,
    TitleFormat,
};

use crate::db::error::{corrupt, store_error};
use crate::db::{Conn, DbError};
use crate::mapping::{from_sql_time, parse_id, to_sql_time};
use crate::schema::sustainability_pages;

/// The message of the refusal to create a second page for an account (no
/// database message contains it).
const PAGE_EXISTS: &str = "tonne: the account has a sustainability page";
/// The name of the unique (mode, slug) constraint, as PostgreSQL reports it;
/// SQLite names its columns instead (`sustainability_pages.slug`).
const SLUG_CONSTRAINT: &str = "sustainability_pages_slug";

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = sustainability_pages)]
pub(super) struct PageRow {
    account_id: String,
    organisation_id: String,
    mode: String,
    status: String,
    slug: String,
    title: String,
    description: Option<String>,
    custom_description: Option<String>,
    sections: String,
    created_at: PrimitiveDateTime,
    updated_at: PrimitiveDateTime,
}

impl PageRow {
    pub(super) fn from_domain(page: &SustainabilityPage) -> Self {
        let s = &page.settings;
        Self {
            account_id: page.account_id.to_string(),
            organisation_id: page.organisation_id.to_string(),
            mode: page.mode.as_str().to_owned(),
            status: s.status.as_str().to_owned(),
            slug: s.slug.as_str().to_owned(),
            title: s.title.as_str().to_owned(),
            description: s.description.map(|d| d.as_str().to_owned()),
            custom_description: s.custom_description.clone(),
            sections: s
                .sections
                .iter()
                .map(|section| section.as_str())
                .collect::<Vec<_>>()
                .join(","),
            created_at: to_sql_time(page.created_at),
            updated_at: to_sql_time(page.updated_at),
        }
    }

    /// The settings as stored (checked when they were written).
    fn settings(&self) -> QueryResult<PageSettings> {
        Ok(PageSettings {
            status: PageStatus::parse(&self.status)
                .ok_or_else(|| corrupt("page status", &self.status))?,
            slug: Slug::parse(&self.slug).map_err(|_| corrupt("page slug", &self.slug))?,
            title: TitleFormat::parse(&self.title)
                .ok_or_else(|| corrupt("page title", &self.title))?,
            description: self
                .description
                .as_deref()
                .map(|d| DescriptionFormat::parse(d).ok_or_else(|| corrupt("page description", d)))
                .transpose()?,
            custom_description: self.custom_description.clone(),
            sections: self
                .sections
                .split(',')
                .filter(|s| !s.is_empty())
                .map(|s| Section::parse(s).ok_or_else(|| corrupt("page section", s)))
                .collect::<QueryResult<Vec<_>>>()?,
        })
    }

    pub(super) fn into_domain(self) -> QueryResult<SustainabilityPage> {
        Ok(SustainabilityPage {
            settings: self.settings()?,
            account_id: parse_id("account id", &self.account_id)?,
            organisation_id: parse_id("organisation id", &self.organisation_id)?,
            mode: self.mode.parse().map_err(|_| corrupt("mode", &self.mode))?,
            created_at: from_sql_time(self.created_at),
            updated_at: from_sql_time(self.updated_at),
        })
    }
}

/// Inserts a page, unless the account has one (checked first, in the same
/// transaction, so that it is told apart from a taken slug).
pub(super) async fn create(conn: &mut Conn, row: &PageRow) -> QueryResult<()> {
    let existing: i64 = on!(&mut *conn, |c| sustainability_pages::table
        .find(&row.account_id)
        .count()
        .get_result(c)
        .await)?;
    if existing > 0 {
        return Err(DieselError::DatabaseError(
            DatabaseErrorKind::UniqueViolation,
            Box::new(String::from(PAGE_EXISTS)),
        ));
    }
    on!(conn, |c| diesel::insert_into(sustainability_pages::table)
        .values(row)
        .execute(c)
        .await)?;
    Ok(())
}

/// Replaces the settings of the account's page (`NotFound` when it has none).
pub(super) async fn update(conn: &mut Conn, row: &PageRow) -> QueryResult<()> {
    use sustainability_pages::dsl as p;
    let changed = on!(conn, |c| diesel::update(
        p::sustainability_pages.find(&row.account_id)
    )
    .set((
        p::status.eq(&row.status),
        p::slug.eq(&row.slug),
        p::title.eq(&row.title),
        p::description.eq(&row.description),
        p::custom_description.eq(&row.custom_description),
        p::sections.eq(&row.sections),
        p::updated_at.eq(row.updated_at),
    ))
    .execute(c)
    .await)?;
    if changed == 0 {
        return Err(DieselError::NotFound);
    }
    Ok(())
}

/// Which refusal a failed page write met: the slug's unique constraint, the
/// account's page (present on create, absent on update), or anything else.
pub(super) fn write_error(e: DbError) -> PageWriteError {
    match &e {
        DbError::Query(DieselError::NotFound) => PageWriteError::Conflict,
        DbError::Query(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, info)) => {
            let slug = info.constraint_name() == Some(SLUG_CONSTRAINT)
                || info.message().contains("sustainability_pages.slug");
            if slug {
                PageWriteError::SlugTaken
            } else {
                // PAGE_EXISTS, or the primary key (a concurrent create).
                PageWriteError::Conflict
            }
        }
        _ => PageWriteError::Store(store_error(e, "writing a sustainability page")),
    }
}
