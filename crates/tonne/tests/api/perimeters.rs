//! Projects' perimeters end to end: carried by a catalogue file, answered as
//! the contract's `ProjectPerimeter` with a key, 404 `not_found` for a project
//! without one (the demo catalogue's have none) and for an unknown id.

use serde_json::{Value, json};
use tonne_test_support::on_both_backends;

use crate::support::{TestApp, assert_error, conforms_2024};

/// A test-only file: an invented square, plainly not a real project's boundary.
fn file(perimeter: Option<Value>) -> String {
    let mut bounded = json!({
        "key": "perimeter-test-bounded", "name": "Bounded (test)", "short_name": "Bounded",
        "description": "A test project.", "project_type": "Biochar", "registry_name": "Puro.earth",
        "latitude": "0.5", "longitude": "10.5", "country_name": "Nowhere", "country_code": "XXX"
    });
    if let Some(p) = perimeter {
        bounded["perimeter"] = p;
    }
    let mut unbounded = bounded.clone();
    unbounded["key"] = json!("perimeter-test-unbounded");
    unbounded.as_object_mut().unwrap().remove("perimeter");
    json!({"format": "tonne-catalogue/1", "projects": [bounded, unbounded], "bundles": []})
        .to_string()
}

fn multipolygon() -> Value {
    json!({"type": "MultiPolygon", "coordinates": [
        [[[10.0, 0.0], [11.0, 0.0], [11.0, 1.0], [10.0, 1.0], [10.0, 0.0]],
         [[10.25, 0.25], [10.75, 0.25], [10.75, 0.75], [10.25, 0.25]]],
        [[[12.0, 2.0], [12.5, 2.0], [12.5, 2.5], [12.0, 2.0]]]
    ]})
}

async fn import(app: &TestApp, text: &str) {
    let catalogue = tonne::catalogue_file::parse(text, time::OffsetDateTime::now_utc()).unwrap();
    app.services
        .ordering
        .import_catalogue(catalogue, &tonne_kernel::Actor::CommandLine)
        .await
        .unwrap();
}

async fn project_id(app: &TestApp, key: &str, slug: &str) -> String {
    let res = app.get(&format!("/v1/projects/by-slug/{slug}"), key).await;
    assert_eq!(res.status, 200, "{}", res.body);
    res.body["id"].as_str().unwrap().to_owned()
}

async fn a_perimeter_is_served_from_the_catalogue_file_and_never_made_up(app: TestApp) {
    app.demo_catalogue().await;
    import(&app, &file(Some(multipolygon()))).await;
    let t = app.tenant().await;
    let bounded = project_id(&app, &t.test_key, "perimeter-test-bounded").await;
    let unbounded = project_id(&app, &t.test_key, "perimeter-test-unbounded").await;

    for key in [&t.test_key, &t.live_key] {
        let res = app
            .get(&format!("/v1/projects/{bounded}/perimeter"), key)
            .await;
        assert_eq!(res.status, 200, "{}", res.body);
        conforms_2024("ProjectPerimeter", &res.body);
        let rings = res.body["coordinates"].as_array().unwrap();
        assert_eq!(rings.len(), 3, "polygon by polygon, exterior ring first");
        // GeoJSON [lon, lat] becomes {lat, lon}
        assert_eq!(rings[0][1], json!({"lat": 0.0, "lon": 11.0}));
        assert_eq!(rings[1][0], json!({"lat": 0.25, "lon": 10.25}));
        assert_eq!(rings[2].as_array().unwrap().len(), 4);
        for ring in rings {
            let ring = ring.as_array().unwrap();
            assert_eq!(ring.first(), ring.last(), "closed");
        }
    }
    // without a boundary, unknown, or not an id: the contract's not-found
    for id in [unbounded.as_str(), &"0".repeat(32), "nope"] {
        let res = app
            .get(&format!("/v1/projects/{id}/perimeter"), &t.test_key)
            .await;
        assert_error(&res, 404, "not_found");
    }
    // the demo catalogue's projects have none (no openly licensed source gives one)
    let demo = app.get("/v1/projects?limit=100", &t.test_key).await;
    for p in demo.body["data"].as_array().unwrap() {
        if p["slug"].as_str().unwrap().starts_with("perimeter-test") {
            continue;
        }
        let res = app
            .get(
                &format!("/v1/projects/{}/perimeter", p["id"].as_str().unwrap()),
                &t.test_key,
            )
            .await;
        assert_error(&res, 404, "not_found");
    }
    // a key is needed (the contract's security)
    let res = app
        .get_without_key(&format!("/v1/projects/{bounded}/perimeter"))
        .await;
    assert_error(&res, 401, "unauthorised");

    // re-importing the project without it removes it
    import(&app, &file(None)).await;
    let res = app
        .get(&format!("/v1/projects/{bounded}/perimeter"), &t.test_key)
        .await;
    assert_error(&res, 404, "not_found");

    // a bad boundary refuses the whole file, naming the project
    let open = json!({"type": "Polygon", "coordinates": [[[10.0, 0.0], [11.0, 0.0], [11.0, 1.0], [10.0, 1.0]]]});
    let problems = tonne::catalogue_file::parse(&file(Some(open)), time::OffsetDateTime::now_utc())
        .unwrap_err()
        .0;
    assert!(
        problems
            .iter()
            .any(|p| p
                .starts_with("project `perimeter-test-bounded`: perimeter: ring 0: not closed")),
        "{problems:?}"
    );
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    a_perimeter_is_served_from_the_catalogue_file_and_never_made_up,
);
