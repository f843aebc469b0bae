//! The certificate's tests: text measured and wrapped to its column, dates
//! for people, and PDFs of one and of sixty projects, with and without a logo.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
use time::macros::datetime;
use tonne_kernel::{AccountId, AccountMode, Currency, Mass, Money};
use tonne_ordering::{
    AccountHolder, CertifiedProject, Order, OrderId, OrderKind, OrderStatus, ProjectAllocation,
    ProjectId, ProjectStatus, Registry,
};
use uuid::Uuid;

use tonne_ordering::Certificate;

use super::geometry::{CELL_PT, COL_PROJECT};
use super::text::{CELL_LINES, width_mm, wrap};
use super::{Logo, Sheet, human_date, render};

fn certificate(projects: usize) -> Certificate {
    let gbp = |m| Money::from_minor(m, Currency::Gbp);
    let order = Order {
        id: OrderId::from_uuid(Uuid::from_u128(7)),
        account_id: AccountId::from_uuid(Uuid::from_u128(8)),
        mode: AccountMode::Test,
        idempotency_key: None,
        kind: OrderKind::Quantity,
        status: OrderStatus::Complete,
        currency: Currency::Gbp,
        quantity: Mass::from_grams(1_000_000 * i64::try_from(projects).unwrap()),
        offset_cost: gbp(1000),
        commission: gbp(100),
        total_cost: gbp(1100),
        lines: vec![],
        requested_quantity: None,
        requested_value: None,
        metadata: vec![],
        offset_link_id: None,
        email: None,
        estimate_id: None,
        payment_method: tonne_ordering::PaymentMethod::Invoice,
        payment_reference: None,
        held: None,
        projects: (0..projects)
            .map(|i| ProjectAllocation {
                id: tonne_ordering::AllocationId::from_uuid(Uuid::from_u128(200 + u128::try_from(i).unwrap())),
                allocated_at: datetime!(2026-11-23 9:00 UTC),
                project_id: ProjectId::from_uuid(Uuid::from_u128(100 + u128::try_from(i).unwrap())),
                project_name: format!(
                    "Project number {i} with a deliberately long name that goes on and on across the page"
                ),
                project_type: "Forest conservation (REDD+)".into(),
                project_slug: format!("p{i}"),
                registry: Registry::Verra,
                quantity: Mass::from_grams(1_000_000),
                unit_price: gbp(1000),
                offset_cost: gbp(10),
                serial: Some(format!("VCS-{i:04}")),
                registry_record: None,
            })
            .collect(),
        created_at: datetime!(2026-11-22 9:00 UTC),
        updated_at: datetime!(2026-11-23 9:05 UTC),
    };
    Certificate {
        projects: order
            .projects
            .iter()
            .map(|p| CertifiedProject {
                allocation: p.clone(),
                status: ProjectStatus::Retired,
                country_name: Some("Peru".into()),
                registry_link: Some("https://registry.verra.org/app/projectDetail/VCS/1".into()),
            })
            .collect(),
        order,
        holder: AccountHolder {
            organisation_id: tonne_kernel::OrganisationId::from_uuid(uuid::Uuid::nil()),
            name: "Acme".into(),
            beneficiary: "Acme".into(),
            logo: None,
        },
    }
}

fn sheet(projects: usize) -> Sheet {
    Sheet::of(&certificate(projects), "https://tonne.example/")
}

fn pages(pdf: &[u8]) -> Vec<String> {
    let doc = lopdf::Document::load_mem(pdf).expect("a parseable PDF");
    let n = u32::try_from(doc.get_pages().len()).unwrap();
    (1..=n).map(|p| doc.extract_text(&[p]).unwrap()).collect()
}

#[test]
fn text_is_measured_wrapped_and_shortened_to_its_column() {
    assert!(width_mm("iiii", 10.0, false) < width_mm("MMMM", 10.0, false));
    let lines = wrap(
        "Demo Direct Air Capture with Saline Storage",
        COL_PROJECT.1,
        CELL_PT,
        true,
    );
    assert_eq!(lines, vec!["Demo Direct Air Capture with Saline Storage"]);
    let narrow = wrap("Mangrove restoration (blue carbon)", 25.0, CELL_PT, false);
    assert!(narrow.len() > 1, "{narrow:?}");
    assert!(narrow.iter().all(|l| width_mm(l, CELL_PT, false) <= 25.0));
    let many = wrap(&"word ".repeat(40), 20.0, CELL_PT, false);
    assert_eq!(many.len(), CELL_LINES);
    assert!(many[CELL_LINES - 1].ends_with("..."));
}

#[test]
fn dates_are_written_for_people() {
    assert_eq!(
        human_date(datetime!(2026-11-23 23:59 UTC)),
        "23 November 2026"
    );
    assert_eq!(human_date(datetime!(2027-01-02 0:00 UTC)), "2 January 2027");
}

#[test]
fn one_project_fits_one_page() {
    let text = pages(&render(&sheet(1), None));
    assert_eq!(text.len(), 1);
    assert!(
        text[0].contains("Project number 0 with a deliberately long"),
        "long names wrap within their column: {}",
        text[0]
    );
    assert!(text[0].contains("Projects (1)"), "{}", text[0]);
    assert!(text[0].contains("serial: VCS-0000"), "{}", text[0]);
    assert!(text[0].contains("Retired on behalf of: Acme"));
    assert!(text[0].contains("Date: 23 November 2026"), "{}", text[0]);
    assert!(text[0].contains("Peru"));
    assert!(text[0].contains("https://tonne.example/certificates/"));
    assert!(text[0].contains("Test mode"));
    assert!(!text[0].contains("/v1/"), "no API path: {}", text[0]);
}

#[test]
fn sixty_projects_are_all_listed_across_pages_within_the_margins() {
    let text = pages(&render(&sheet(60), None));
    assert!(text.len() >= 2, "more than one page");
    let all = text.join("\n");
    for i in 0..60 {
        assert!(
            all.contains(&format!("serial: VCS-{i:04}")),
            "project {i} missing"
        );
    }
    assert!(text[1].contains("projects, continued"));
    assert!(
        text.last().unwrap().contains("Issued by Tonne"),
        "the footer ends the last page"
    );
    assert!(!all.contains("/v1/"));
}

#[test]
fn a_logo_is_drawn_and_a_malformed_one_is_left_out() {
    let logo = Logo {
        width: 2,
        height: 1,
        rgb: vec![255, 0, 0, 0, 0, 255],
    };
    let with = render(&sheet(1), Some(&logo));
    let doc = lopdf::Document::load_mem(&with).unwrap();
    let images = doc
        .objects
        .values()
        .filter(|o| {
            o.as_stream().is_ok_and(|s| {
                s.dict
                    .get(b"Subtype")
                    .is_ok_and(|t| t.as_name().ok() == Some(b"Image".as_slice()))
            })
        })
        .count();
    assert_eq!(images, 1, "the logo is in the PDF");
    let bad = Logo {
        width: 2,
        height: 2,
        rgb: vec![0; 3],
    };
    let text = pages(&render(&sheet(1), Some(&bad)));
    assert!(
        text[0].contains("Acme"),
        "the name stands in for a bad logo"
    );
}
