//! A catalogue file imported in one transaction: projects and bundles
//! created or updated by id, their prices, memberships and portfolios
//! replaced, the counts audited.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use tonne_kernel::{AuditEntry, StoreError};
use tonne_ordering::ports::{Catalogue, ImportSummary};

use super::perimeters;
use super::rows::{BundleRow, ProjectRow};
use crate::db::Db;
use crate::db::error::store_error;
use crate::mapping::to_sql_time;
use crate::schema::{
    bundle_portfolio_bundles, bundle_portfolios, bundle_prices, bundle_projects, bundles, projects,
};

/// A bundle's row, its prices (currency, minor units) and its projects' ids.
type BundleIn = (BundleRow, Vec<(String, i64)>, Vec<String>);
/// A portfolio's id, identifier, label and bundles with their shares.
type PortfolioIn = (String, String, String, Vec<(String, i32)>);

pub(super) async fn import(
    db: &Db,
    catalogue: &Catalogue,
    at: OffsetDateTime,
    audit: Option<AuditEntry>,
) -> Result<ImportSummary, StoreError> {
    let project_rows = catalogue
        .projects
        .iter()
        .map(|p| ProjectRow::from_domain(p, at))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| StoreError::Unexpected(anyhow::anyhow!(e).context("encoding a project")))?;
    let bundles_in: Vec<BundleIn> = catalogue
        .bundles
        .iter()
        .map(|b| {
            (
                BundleRow::from_domain(b, at),
                b.prices
                    .iter()
                    .map(|p| {
                        (
                            p.unit_price.currency().code().to_owned(),
                            p.unit_price.minor(),
                        )
                    })
                    .collect(),
                b.project_ids.iter().map(ToString::to_string).collect(),
            )
        })
        .collect();
    let portfolios_in: Vec<PortfolioIn> = catalogue
        .portfolios
        .iter()
        .map(|p| {
            (
                p.id.to_string(),
                p.identifier.clone(),
                p.label.clone(),
                p.selection
                    .iter()
                    .map(|(id, share)| (id.to_string(), i32::try_from(*share).unwrap_or(0)))
                    .collect(),
            )
        })
        .collect();
    let imported: Vec<String> = project_rows.iter().map(|r| r.id.clone()).collect();
    let perimeters_in = catalogue
        .perimeters
        .iter()
        .map(|(id, perimeter)| {
            perimeters::encode(perimeter).map(|(rings, points)| (id.to_string(), rings, points))
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| StoreError::Unexpected(anyhow::anyhow!(e).context("encoding a perimeter")))?;
    let stamp = to_sql_time(at);
    db.transaction(move |conn| {
        Box::pin(async move {
            let mut summary = ImportSummary::default();
            for row in &project_rows {
                let updated = on!(&mut *conn, |c| diesel::update(
                    projects::table.find(&row.id)
                )
                .set(row)
                .execute(c)
                .await)?;
                if updated == 0 {
                    on!(&mut *conn, |c| diesel::insert_into(projects::table)
                        .values(row)
                        .execute(c)
                        .await)?;
                    summary.projects_created += 1;
                } else {
                    summary.projects_updated += 1;
                }
            }
            perimeters::replace(conn, &imported, &perimeters_in).await?;
            for (row, prices, members) in &bundles_in {
                let updated = on!(&mut *conn, |c| diesel::update(bundles::table.find(&row.id))
                    .set(row)
                    .execute(c)
                    .await)?;
                if updated == 0 {
                    on!(&mut *conn, |c| diesel::insert_into(bundles::table)
                        .values(row)
                        .execute(c)
                        .await)?;
                    summary.bundles_created += 1;
                } else {
                    summary.bundles_updated += 1;
                }
                on!(&mut *conn, |c| diesel::delete(
                    bundle_prices::table.filter(bundle_prices::bundle_id.eq(&row.id)),
                )
                .execute(c)
                .await)?;
                for (currency, minor) in prices {
                    on!(&mut *conn, |c| diesel::insert_into(bundle_prices::table)
                        .values((
                            bundle_prices::bundle_id.eq(&row.id),
                            bundle_prices::currency.eq(currency),
                            bundle_prices::unit_price_minor.eq(minor),
                        ))
                        .execute(c)
                        .await)?;
                }
                on!(&mut *conn, |c| diesel::delete(
                    bundle_projects::table.filter(bundle_projects::bundle_id.eq(&row.id)),
                )
                .execute(c)
                .await)?;
                for (position, project) in members.iter().enumerate() {
                    on!(&mut *conn, |c| diesel::insert_into(bundle_projects::table)
                        .values((
                            bundle_projects::bundle_id.eq(&row.id),
                            bundle_projects::project_id.eq(project),
                            bundle_projects::position
                                .eq(i32::try_from(position).unwrap_or(i32::MAX)),
                        ))
                        .execute(c)
                        .await)?;
                }
            }
            for (id, identifier, label, selection) in &portfolios_in {
                let updated = on!(&mut *conn, |c| diesel::update(
                    bundle_portfolios::table.find(id)
                )
                .set((
                    bundle_portfolios::identifier.eq(identifier),
                    bundle_portfolios::label.eq(label),
                    bundle_portfolios::updated_at.eq(stamp),
                ))
                .execute(c)
                .await)?;
                if updated == 0 {
                    on!(&mut *conn, |c| diesel::insert_into(
                        bundle_portfolios::table
                    )
                    .values((
                        bundle_portfolios::id.eq(id),
                        bundle_portfolios::identifier.eq(identifier),
                        bundle_portfolios::label.eq(label),
                        bundle_portfolios::created_at.eq(stamp),
                        bundle_portfolios::updated_at.eq(stamp),
                    ))
                    .execute(c)
                    .await)?;
                    summary.portfolios_created += 1;
                } else {
                    summary.portfolios_updated += 1;
                }
                on!(&mut *conn, |c| diesel::delete(
                    bundle_portfolio_bundles::table
                        .filter(bundle_portfolio_bundles::portfolio_id.eq(id)),
                )
                .execute(c)
                .await)?;
                for (position, (bundle, share)) in selection.iter().enumerate() {
                    on!(&mut *conn, |c| diesel::insert_into(
                        bundle_portfolio_bundles::table
                    )
                    .values((
                        bundle_portfolio_bundles::portfolio_id.eq(id),
                        bundle_portfolio_bundles::bundle_id.eq(bundle),
                        bundle_portfolio_bundles::position
                            .eq(i32::try_from(position).unwrap_or(i32::MAX)),
                        bundle_portfolio_bundles::share.eq(share),
                    ))
                    .execute(c)
                    .await)?;
                }
            }
            if let Some(audit) = &audit {
                let mut entry = audit.clone();
                entry.after = entry
                    .after
                    .with("projects created", summary.projects_created)
                    .with("projects updated", summary.projects_updated)
                    .with("bundles created", summary.bundles_created)
                    .with("bundles updated", summary.bundles_updated);
                crate::audit::record(conn, [&entry]).await?;
            }
            Ok(summary)
        })
    })
    .await
    .map_err(|e| store_error(e, "importing the catalogue"))
}
