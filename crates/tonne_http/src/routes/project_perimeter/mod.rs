//! `GET /v1/projects/{id}/perimeter` (client 3.9.2's `getProjectPerimeter`):
//! a project's boundary as the contract's `ProjectPerimeter`, `coordinates`
//! being its rings (polygon by polygon, each polygon's exterior ring first,
//! then its holes) of `{lat, lon}` points, as the catalogue file gave them.
//! A project without a recorded boundary, like an unknown id, is 404
//! `not_found`: Tonne never makes one up. A key is needed (the contract's
//! security); the catalogue is the same for every organisation and mode.

mod wire;
pub use wire::*;

use actix_web::{HttpResponse, web};

use crate::error::ApiError;
use crate::extract::Authenticated;
use crate::state::AppState;
use crate::wire::{ErrorsResponse, KeyErrors};

/// A project's perimeter.
#[utoipa::path(get, path = "/v1/projects/{id}/perimeter", tag = "Projects", operation_id = "getProjectPerimeter",
    security(("BearerAuth" = [])),
    params(("id" = String, Path, description = "The project's id")),
    responses(
        (status = 200, description = "OK", body = ProjectPerimeterResponse),
        (status = 404, description = "No such project, or no perimeter recorded for it", body = ErrorsResponse),
        KeyErrors,
    ))]
pub async fn get_perimeter(
    state: web::Data<AppState>,
    _who: Authenticated,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let perimeter = state.ordering.project_perimeter(&id).await?;
    Ok(HttpResponse::Ok().json(ProjectPerimeterResponse::from(&perimeter)))
}

/// Registers the route (under `/v1`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/projects/{id}/perimeter").route(web::get().to(get_perimeter)));
}
