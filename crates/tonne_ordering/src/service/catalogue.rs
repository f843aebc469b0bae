//! Use case: reading and importing the catalogue (projects with their bundles,
//! bundles with their projects).

use std::sync::Arc;

use time::Duration;
use tonne_kernel::{Actor, AuditEntry, Clock, Cursor, Page, PageRequest, Snapshot};

use crate::catalogue::{Bundle, BundleId, BundlePortfolio, Project, ProjectId};
use crate::errors::CatalogueError;
use crate::ports::{Catalogue, CatalogueRepository, ImportSummary, StoreError, Visibility};
use crate::views::{BundleView, ProjectView};

fn store(e: StoreError) -> CatalogueError {
    CatalogueError::Unexpected(e.unexpected())
}

/// Catalogue reads and imports.
#[derive(Clone)]
pub(super) struct CatalogueReads {
    pub(super) catalogue: Arc<dyn CatalogueRepository>,
    pub(super) clock: Arc<dyn Clock>,
}

impl CatalogueReads {
    /// What a listing shows: enabled items, plus those disabled in the last 30
    /// days when asked.
    fn visibility(&self, recently_disabled: bool) -> Visibility {
        Visibility {
            disabled_since: recently_disabled.then(|| self.clock.now() - Duration::days(30)),
        }
    }

    async fn project_views(
        &self,
        projects: Vec<Project>,
    ) -> Result<Vec<ProjectView>, CatalogueError> {
        let mut ids: Vec<BundleId> = projects
            .iter()
            .flat_map(|p| p.bundle_ids.iter().copied())
            .collect();
        ids.sort();
        ids.dedup();
        let bundles = if ids.is_empty() {
            Vec::new()
        } else {
            self.catalogue.bundles(&ids).await.map_err(store)?
        };
        Ok(projects
            .into_iter()
            .map(|project| {
                let mut own: Vec<Bundle> = bundles
                    .iter()
                    .filter(|b| project.bundle_ids.contains(&b.id))
                    .cloned()
                    .collect();
                own.sort_by_key(|b| b.id);
                ProjectView {
                    project,
                    bundles: own,
                }
            })
            .collect())
    }

    /// The bundles with these ids (those that exist), with the projects they draw on.
    pub(super) async fn bundle_views_of(
        &self,
        ids: &[BundleId],
    ) -> Result<Vec<BundleView>, CatalogueError> {
        let bundles = self.catalogue.bundles(ids).await.map_err(store)?;
        self.bundle_views(bundles).await
    }

    /// Bundles with the projects they draw on.
    async fn bundle_views(&self, bundles: Vec<Bundle>) -> Result<Vec<BundleView>, CatalogueError> {
        let mut ids: Vec<ProjectId> = bundles
            .iter()
            .flat_map(|b| b.project_ids.iter().copied())
            .collect();
        ids.sort();
        ids.dedup();
        let projects = if ids.is_empty() {
            Vec::new()
        } else {
            self.catalogue.projects(&ids).await.map_err(store)?
        };
        Ok(bundles
            .into_iter()
            .map(|bundle| {
                let own = bundle
                    .project_ids
                    .iter()
                    .filter_map(|id| projects.iter().find(|p| p.id == *id).cloned())
                    .collect();
                BundleView {
                    bundle,
                    projects: own,
                }
            })
            .collect())
    }

    async fn one_project(&self, found: Option<Project>) -> Result<ProjectView, CatalogueError> {
        let project = found.ok_or(CatalogueError::NotFound)?;
        self.project_views(vec![project])
            .await?
            .into_iter()
            .next()
            .ok_or(CatalogueError::NotFound)
    }

    pub(super) async fn list_projects(
        &self,
        recently_disabled: bool,
        page: PageRequest<Cursor>,
    ) -> Result<Page<ProjectView>, CatalogueError> {
        let found = self
            .catalogue
            .list_projects(self.visibility(recently_disabled), &page)
            .await
            .map_err(store)?;
        let has_more = found.has_more;
        Ok(Page {
            items: self.project_views(found.items).await?,
            has_more,
        })
    }

    pub(super) async fn project(&self, id: &str) -> Result<ProjectView, CatalogueError> {
        let id = id.parse().map_err(|_| CatalogueError::NotFound)?;
        let found = self.catalogue.project(id).await.map_err(store)?;
        self.one_project(found).await
    }

    pub(super) async fn perimeter(&self, id: &str) -> Result<crate::Perimeter, CatalogueError> {
        let id = id.parse().map_err(|_| CatalogueError::NotFound)?;
        self.catalogue
            .perimeter(id)
            .await
            .map_err(store)?
            .ok_or(CatalogueError::NotFound)
    }

    pub(super) async fn project_by_slug(&self, slug: &str) -> Result<ProjectView, CatalogueError> {
        if slug.is_empty() || slug.len() > 200 {
            return Err(CatalogueError::NotFound);
        }
        let found = self.catalogue.project_by_slug(slug).await.map_err(store)?;
        self.one_project(found).await
    }

    pub(super) async fn list_bundles(
        &self,
        recently_disabled: bool,
        page: PageRequest<Cursor>,
    ) -> Result<Page<BundleView>, CatalogueError> {
        let found = self
            .catalogue
            .list_bundles(self.visibility(recently_disabled), &page)
            .await
            .map_err(store)?;
        let has_more = found.has_more;
        Ok(Page {
            items: self.bundle_views(found.items).await?,
            has_more,
        })
    }

    pub(super) async fn bundle(&self, id: &str) -> Result<BundleView, CatalogueError> {
        let id: BundleId = id.parse().map_err(|_| CatalogueError::NotFound)?;
        let bundle = self
            .catalogue
            .bundles(&[id])
            .await
            .map_err(store)?
            .into_iter()
            .next()
            .ok_or(CatalogueError::NotFound)?;
        self.bundle_views(vec![bundle])
            .await?
            .into_iter()
            .next()
            .ok_or(CatalogueError::NotFound)
    }

    pub(super) async fn portfolios(&self) -> Result<Vec<BundlePortfolio>, CatalogueError> {
        self.catalogue.portfolios().await.map_err(store)
    }

    pub(super) async fn import(
        &self,
        catalogue: Catalogue,
        by: &Actor,
    ) -> Result<ImportSummary, CatalogueError> {
        let now = self.clock.now();
        let audit = AuditEntry::new(now, by.clone(), "catalogue.imported", "catalogue", "file")
            .after(
                Snapshot::new()
                    .with("projects in the file", catalogue.projects.len())
                    .with("bundles in the file", catalogue.bundles.len())
                    .with("portfolios in the file", catalogue.portfolios.len()),
            );
        self.catalogue
            .import(&catalogue, now, Some(audit))
            .await
            .map_err(store)
    }
}
