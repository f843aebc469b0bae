//! One shipment: its fields as sent, Tonne's facts, and each leg with its
//! well-to-wheel emissions.

use maud::{Markup, html};
use serde_json::Value;
use tonne_accounts::users::Principal;
use tonne_kernel::AccountMode;
use tonne_shipments::{Carriage, LegEmissions, Shipment, Totals};

use super::dates::when;
use super::frame::page_in;
use super::shipment_figures::{SECTION, intensity, kg, phase_name, scope_query, subnav};

/// A label from a wire field name: `reference_id_po` → `Reference id po`.
fn label(key: &str) -> String {
    let mut s = key.replace('_', " ");
    if let Some(first) = s.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    s
}

/// A JSON value as text: strings bare, an amount with its unit or currency,
/// other objects as `key: value` pairs.
fn text(v: &Value) -> String {
    let s = |k: &str| v.get(k).and_then(Value::as_str);
    if let (Some(amount), Some(unit)) = (s("amount").or(s("value")), s("unit").or(s("currency"))) {
        return format!("{amount} {unit}");
    }
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "—".to_owned(),
        Value::Object(o) => o
            .iter()
            .map(|(k, v)| format!("{}: {}", k.replace('_', " "), text(v)))
            .collect::<Vec<_>>()
            .join(", "),
        Value::Array(a) => a.iter().map(text).collect::<Vec<_>>().join("; "),
        other => other.to_string(),
    }
}

/// A leg's origin or destination as sent.
fn place(v: Option<&Value>) -> String {
    let Some(v) = v else {
        return "—".to_owned();
    };
    let s = |k: &str| v.get(k).and_then(Value::as_str);
    if let Some(l) = s("locode") {
        return format!("{l} (UN/LOCODE)");
    }
    if let Some(c) = s("code") {
        return format!("{c} (airport)");
    }
    if let Some(u) = s("unknown_code") {
        return format!("{u} (unknown code)");
    }
    if let (Some(lat), Some(lon)) = (v.get("lat"), v.get("lon")) {
        return format!("{lat}, {lon}");
    }
    let parts: Vec<&str> = [
        "street_line1",
        "street_line2",
        "postcode",
        "city",
        "country_code",
    ]
    .into_iter()
    .filter_map(s)
    .collect();
    if parts.is_empty() {
        text(v)
    } else {
        parts.join(", ")
    }
}

/// The row's legs in the shipment's order: by `order` when every leg gives one.
fn legs_in_order(row: &Value) -> Vec<&Value> {
    let mut legs: Vec<&Value> = row
        .get("legs")
        .and_then(Value::as_array)
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    if legs
        .iter()
        .all(|l| l.get("order").and_then(Value::as_u64).is_some())
    {
        legs.sort_by_key(|l| l.get("order").and_then(Value::as_u64));
    }
    legs
}

fn leg_emissions(e: Option<&LegEmissions>) -> Markup {
    html! {
        @match e {
            None => {
                dt { "Emissions" } dd { "none: no factor Tonne can cite, or not calculated" }
            }
            Some(e) => {
                dt { "Distance" } dd { (e.distance_km.normalize()) " km" }
                dt { "Well-to-tank (WTT)" } dd { (kg(e.wtt)) " CO2e" }
                dt { "Tank-to-wheel (TTW)" } dd { (kg(e.ttw)) " CO2e" }
                dt { "Well-to-wheel (total)" } dd { (kg(e.total())) " CO2e" }
                dt { "Intensity" } dd {
                    @match &e.factor {
                        Some(f) => { (f.intensity.normalize()) " " (f.numerator) " per " (f.denominator) }
                        None => { (intensity(&Totals { wtt: e.wtt, ttw: e.ttw, activity: e.activity })) }
                    }
                }
                @if let Some(f) = &e.factor {
                    dt { "Factor" } dd {
                        (f.description) " — " (f.source)
                        @if let Some(y) = f.year { " (" (y) ")" }
                    }
                }
                @if let Some(g) = &e.grade { dt { "Data quality" } dd { (g.replace('_', " ")) } }
                dt { "Flagged" } dd {
                    @if e.flagged {
                        "yes"
                        @if !e.notes.is_empty() { ": " (e.notes.join("; ").replace('_', " ")) }
                    } @else { "no" }
                }
            }
        }
    }
}

/// One shipment: its fields as sent, Tonne's facts, and each leg with its emissions.
pub fn shipment(who: &Principal, mode: AccountMode, s: &Shipment) -> Markup {
    let row: Value = serde_json::from_str(&s.row).unwrap_or(Value::Null);
    let q = scope_query(mode, s.account_id);
    let title = if s.facets.reference.is_empty() {
        "Shipment".to_owned()
    } else {
        format!("Shipment {}", s.facets.reference)
    };
    let fields: Vec<(&String, &Value)> = row
        .as_object()
        .map(|o| {
            o.iter()
                .filter(|(k, _)| !matches!(k.as_str(), "legs" | "emissions"))
                .collect()
        })
        .unwrap_or_default();
    let legs = legs_in_order(&row);
    let emissions = s.emissions.as_ref();
    page_in(
        who,
        SECTION,
        &title,
        None,
        html! {
            (subnav(mode, Some(s.account_id), ""))
            dl class="summary" {
                dt { "Id" } dd { code { (s.id) } }
                dt { "Shipper" } dd { (s.shipper.name) }
                dt { "Supplier" } dd { (s.supplier.name) }
                dt { "Shipment date" } dd { @match s.facets.shipment_date { Some(d) => { (d) } None => { "—" } } }
                dt { "Batch" } dd { a href=(format!("/console/shipments/batches/{}?{q}", s.batch_id)) { code { (s.batch_id) } } }
                dt { "Created" } dd { (when(s.created_at)) }
                @match emissions {
                    Some(e) => {
                        dt { "CO2e, well-to-wheel" } dd {
                            (kg(e.total.total())) " (WTT " (kg(e.total.wtt)) ", TTW " (kg(e.total.ttw)) ")"
                            @if e.source == tonne_shipments::EmissionsSource::Manual { ", as you sent it" }
                        }
                        dt { "Intensity" } dd { (intensity(&e.total)) }
                        dt { "Distance" } dd { (e.distance_km.normalize()) " km" }
                        dt { "Flagged" } dd { @if e.flagged { "yes: a leg's intensity stands in for one Tonne could not know" } @else { "no" } }
                    }
                    None => { dt { "CO2e" } dd { "not calculated" } }
                }
            }
            h2 { "As sent" }
            @if fields.is_empty() {
                p { "Only the legs." }
            } @else {
                dl class="summary" {
                    @for (k, v) in &fields {
                        dt { (label(k)) } dd { (text(v)) }
                    }
                }
            }
            @if let Some(phases) = emissions.and_then(|e| e.phases.as_ref()) {
                div class="table-wrap" {
                    table {
                        caption { "Emissions by carriage phase (kg CO2e)" }
                        thead { tr {
                            th scope="col" { "Phase" } th scope="col" class="num" { "WTT" }
                            th scope="col" class="num" { "TTW" } th scope="col" class="num" { "Total" }
                            th scope="col" class="num" { "Intensity" }
                        } }
                        tbody {
                            @for (c, t) in Carriage::ALL.iter().zip(phases.iter()) {
                                tr {
                                    th scope="row" { (phase_name(*c)) }
                                    td class="num" { (kg(t.wtt)) }
                                    td class="num" { (kg(t.ttw)) }
                                    td class="num" { (kg(t.total())) }
                                    td class="num" { (intensity(t)) }
                                }
                            }
                        }
                    }
                }
            }
            h2 { "Legs" }
            @for (i, leg) in legs.iter().enumerate() {
                @let carriage = leg.get("carriage").and_then(Value::as_str).and_then(Carriage::parse);
                h3 {
                    "Leg " (i.saturating_add(1)) ": "
                    (carriage.map_or("unknown carriage", phase_name))
                }
                dl class="summary" {
                    @if let Some(id) = leg.get("leg_id") { dt { "Leg id" } dd { (text(id)) } }
                    dt { "Method" } dd { (leg.get("method").map_or_else(|| "—".to_owned(), text)) }
                    dt { "Origin" } dd { (place(leg.get("origin"))) }
                    dt { "Destination" } dd { (place(leg.get("destination"))) }
                    @if let Some(d) = leg.get("distance") { dt { "Distance sent" } dd { (text(d)) } }
                    @if let Some(l) = leg.get("load") { dt { "Load" } dd { (text(l)) } }
                    @if let Some(d) = leg.get("dates") { dt { "Dates" } dd { (text(d)) } }
                    @if emissions.is_some() {
                        (leg_emissions(emissions.and_then(|e| e.legs.get(i)).and_then(Option::as_ref)))
                    }
                }
            }
            p { a href=(format!("/console/shipments?{q}")) { "Back to the shipments" } }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use tonne_kernel::Mass;

    #[test]
    fn places_read_as_sent_and_legs_go_in_their_order() {
        assert_eq!(
            place(Some(&json!({"locode": "NLRTM"}))),
            "NLRTM (UN/LOCODE)"
        );
        assert_eq!(place(Some(&json!({"code": "FRA"}))), "FRA (airport)");
        assert_eq!(place(Some(&json!({"lat": 50.5, "lon": 8}))), "50.5, 8");
        assert_eq!(
            place(Some(&json!({"city": "Hamburg", "country_code": "DEU"}))),
            "Hamburg, DEU"
        );
        assert_eq!(place(None), "—");
        let row = json!({"legs": [{"order": 2, "leg_id": "b"}, {"order": 1, "leg_id": "a"}]});
        let ids: Vec<_> = legs_in_order(&row)
            .iter()
            .map(|l| l["leg_id"].clone())
            .collect();
        assert_eq!(ids, [json!("a"), json!("b")]);
        // without an order on every leg: as sent
        let row = json!({"legs": [{"order": 2, "leg_id": "b"}, {"leg_id": "a"}]});
        assert_eq!(legs_in_order(&row)[0]["leg_id"], "b");
        assert_eq!(kg(Mass::from_grams(1_234_500)), "1234.5 kg");
        assert_eq!(
            text(&json!({"vehicle_type": "truck", "fuel": "diesel"})),
            "fuel: diesel, vehicle type: truck"
        );
    }
}
