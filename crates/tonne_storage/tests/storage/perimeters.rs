//! Projects' perimeters on SQLite and PostgreSQL: stored by a catalogue
//! import in its transaction, read back exactly, replaced or removed by a
//! later import of the project, left alone for projects the file omits.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use time::OffsetDateTime;
use time::macros::datetime;
use tonne_ordering::ports::{Catalogue, CatalogueRepository as _};
use tonne_ordering::{Coordinates, Perimeter, Project, ProjectId};
use tonne_storage::CatalogueStore;
use tonne_test_support::{TestDb, on_both_backends};
use uuid::Uuid;

use crate::fixtures::project;

const T0: OffsetDateTime = datetime!(2026-03-04 05:06:07 UTC);

fn perimeter(offset: f64) -> Perimeter {
    // awkward decimals: stored and read back bit for bit
    let ring = |d: f64| {
        [
            (-3.39605, 38.55609),
            (-3.39605, 38.7),
            (-3.2, 38.7),
            (-3.2, 38.55609),
            (-3.39605, 38.55609),
        ]
        .iter()
        .map(|&(lat, lon)| Coordinates {
            lat: lat + d,
            lon: lon + d,
        })
        .collect::<Vec<_>>()
    };
    Perimeter::new(vec![ring(offset), ring(offset + 0.01)]).unwrap()
}

fn catalogue(projects: Vec<Project>, perimeters: Vec<(ProjectId, Perimeter)>) -> Catalogue {
    Catalogue {
        projects,
        bundles: vec![],
        portfolios: vec![],
        perimeters,
    }
}

async fn perimeters_are_imported_read_back_and_replaced_with_their_project(t: TestDb) {
    let store = CatalogueStore::new(t.db().clone());
    let (one, two, three) = (project(1), project(2), project(3));
    store
        .import(
            &catalogue(
                vec![one.clone(), two.clone(), three.clone()],
                vec![(one.id, perimeter(0.0)), (two.id, perimeter(1.0))],
            ),
            T0,
            None,
        )
        .await
        .unwrap();
    assert_eq!(store.perimeter(one.id).await.unwrap(), Some(perimeter(0.0)));
    assert_eq!(store.perimeter(two.id).await.unwrap(), Some(perimeter(1.0)));
    assert_eq!(store.perimeter(three.id).await.unwrap(), None, "none given");
    assert_eq!(
        store
            .perimeter(ProjectId::from_uuid(Uuid::from_u128(99)))
            .await
            .unwrap(),
        None,
        "no such project"
    );

    // a later file: project 1 gets another, project 2 none; project 3 is not in it
    store
        .import(
            &catalogue(
                vec![one.clone(), two.clone()],
                vec![(one.id, perimeter(2.0))],
            ),
            T0,
            None,
        )
        .await
        .unwrap();
    assert_eq!(store.perimeter(one.id).await.unwrap(), Some(perimeter(2.0)));
    assert_eq!(
        store.perimeter(two.id).await.unwrap(),
        None,
        "removed with its project's import"
    );
    store
        .import(
            &catalogue(vec![three.clone()], vec![(three.id, perimeter(3.0))]),
            T0,
            None,
        )
        .await
        .unwrap();
    store
        .import(&catalogue(vec![two], vec![]), T0, None)
        .await
        .unwrap();
    assert_eq!(
        store.perimeter(three.id).await.unwrap(),
        Some(perimeter(3.0)),
        "a project the file omits keeps its perimeter"
    );
    // the project itself reads as before
    assert_eq!(
        store.project(one.id).await.unwrap().unwrap().name,
        "Project 1"
    );
}

on_both_backends!(perimeters_are_imported_read_back_and_replaced_with_their_project,);
