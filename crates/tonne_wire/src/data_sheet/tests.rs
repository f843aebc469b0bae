//! Data sheets read whole: the template, every problem at its line and
//! column, the limits, and a decoder's refusals mapped back.

use serde_json::Value;

use super::*;

fn rows(sheet: &Sheet) -> Vec<Value> {
    sheet
        .shipments
        .iter()
        .map(|s| serde_json::from_str(&s.row).unwrap())
        .collect()
}

fn problems(csv: &str) -> Vec<Problem> {
    parse(csv.as_bytes()).unwrap_err()
}

fn at(p: &Problem) -> (Option<u64>, Option<&str>) {
    (p.line, p.column.as_deref())
}

const HEAD: &str = "shipment_id,target_internal_id,incoterm,carriage,mode,vehicle_type,fuel,train_type,distance_km,mass,mass_unit\n";

#[test]
fn the_template_reads_as_three_shipments_of_the_contracts_shape() {
    let sheet = parse(TEMPLATE.as_bytes()).unwrap();
    let rows = rows(&sheet);
    assert_eq!(rows.len(), 3);
    let first = &rows[0];
    assert_eq!(first["shipment_id"], "PO-1001");
    assert_eq!(first["incoterm"], "fob");
    assert_eq!(first["freight_cost"]["value"], "4200.00");
    assert_eq!(first["freight_cost"]["currency"], "EUR");
    let legs = first["legs"].as_array().unwrap();
    assert_eq!(legs.len(), 3);
    assert_eq!(legs[0]["carriage"], "pre");
    assert_eq!(
        legs[0]["method"],
        serde_json::json!({"vehicle_type": "truck_articulated_40t", "fuel": "diesel", "refrigerated": false})
    );
    assert_eq!(
        legs[0]["origin"],
        serde_json::json!({"city": "Hamburg", "country_code": "DEU"})
    );
    assert_eq!(
        legs[0]["destination"],
        serde_json::json!({"locode": "DEHAM"})
    );
    assert_eq!(
        legs[0]["distance"],
        serde_json::json!({"amount": "35", "unit": "km"})
    );
    assert_eq!(
        legs[1]["method"],
        serde_json::json!({"vessel_type": "container_ship", "refrigerated": false})
    );
    assert_eq!(legs[1]["load"]["containers"]["teu"], "1");
    assert_eq!(legs[1]["dates"]["eta"], "2026-03-15");
    // the shipment's columns were left empty on later lines: none leak into legs
    assert!(legs[1].get("shipment_id").is_none());
    assert_eq!(
        rows[1]["legs"][0]["method"],
        serde_json::json!({"aircraft_type": "B77L"})
    );
    assert_eq!(
        rows[1]["legs"][0]["origin"],
        serde_json::json!({"code": "FRA"})
    );
    assert_eq!(
        rows[2]["legs"][0]["method"],
        serde_json::json!({"train_type": "electric_freight_train"})
    );
    assert_eq!(sheet.shipments[0].line, 15);
    assert_eq!(sheet.shipments[1].line, 18);
}

#[test]
fn consecutive_lines_of_one_shipment_id_are_one_shipment() {
    let csv = format!(
        "{HEAD}A,S1,fob,pre,road,truck,diesel,,10,1,t\nA,,,main,rail,,,diesel_freight_train,100,,\nB,S1,,main,rail,,,electric_freight_train,5,2,t\n,S2,,main,rail,,,rail_x,,,\n"
    );
    // the last line's train type is unknown: one problem, at its line and column
    let p = problems(&csv);
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(at(&p[0]), (Some(5), Some("train_type")));
    let csv = csv.replace("rail_x", "diesel_freight_train");
    let sheet = parse(csv.as_bytes()).unwrap();
    let rows = rows(&sheet);
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["legs"].as_array().unwrap().len(), 2);
    assert_eq!(rows[0]["incoterm"], "fob");
    assert_eq!(rows[1]["shipment_id"], "B");
    // a line without a shipment_id is a shipment of its own
    assert!(rows[2].get("shipment_id").is_none());
    assert_eq!(rows[2]["target_internal_id"], "S2");
    assert_eq!(
        sheet.shipments.iter().map(|s| s.line).collect::<Vec<_>>(),
        [2, 4, 5]
    );
}

#[test]
fn a_shipment_id_seen_before_after_another_is_refused() {
    let csv = format!(
        "{HEAD}A,S1,,main,rail,,,diesel_freight_train,10,1,t\nB,S1,,main,rail,,,diesel_freight_train,10,1,t\nA,S1,,main,rail,,,diesel_freight_train,10,1,t\n"
    );
    let p = problems(&csv);
    assert_eq!(p.len(), 1);
    assert_eq!(at(&p[0]), (Some(4), Some("shipment_id")));
    assert!(p[0].message.contains("line 2"), "{}", p[0].message);
}

#[test]
fn an_unknown_or_repeated_column_is_named_on_line_one() {
    let p =
        problems("shipment_id,carriage,mode,colour,mode,train_type\nA,main,rail,red,rail,rail_x\n");
    assert_eq!(p.len(), 3, "{p:?}");
    assert_eq!(at(&p[0]), (Some(1), Some("colour")));
    assert!(p[0].message.contains("unknown column"));
    assert_eq!(at(&p[1]), (Some(1), Some("mode")));
    // the lines are still read: every problem at once
    assert_eq!(at(&p[2]), (Some(2), Some("train_type")));
    // the required columns
    let p = problems("shipment_id,carriage\nA,main\n");
    assert_eq!(at(&p[0]), (Some(1), None));
    assert!(p[0].message.contains("mode"));
}

#[test]
fn a_bad_number_is_at_its_line_and_column() {
    let csv = format!(
        "{HEAD}A,S1,,main,rail,,,diesel_freight_train,\"1,200\",1,t\nA,,,on,road,truck,diesel,,10,-3,t\n"
    );
    let p = problems(&csv);
    assert_eq!(p.len(), 2, "{p:?}");
    assert_eq!(at(&p[0]), (Some(2), Some("distance_km")));
    assert!(p[0].message.contains("'1,200' is not a number"));
    assert_eq!(at(&p[1]), (Some(3), Some("mass")));
    assert_eq!(p[1].message, "must be greater than 0");
}

#[test]
fn an_unknown_enum_value_is_at_its_line_and_column() {
    let csv = format!(
        "{HEAD}A,S1,fobb,main,rail,,,diesel_freight_train,10,1,t\nB,S1,,middle,boat,,,,10,1,t\n"
    );
    let p = problems(&csv);
    assert_eq!(p.len(), 3, "{p:?}");
    assert_eq!(at(&p[0]), (Some(2), Some("incoterm")));
    assert!(p[0].message.starts_with("'fobb' is not one of: exw, fca"));
    assert_eq!(at(&p[1]), (Some(3), Some("carriage")));
    assert_eq!(at(&p[2]), (Some(3), Some("mode")));
}

#[test]
fn a_later_line_may_not_contradict_the_shipments_first_line() {
    let csv = format!(
        "{HEAD}A,S1,fob,pre,road,truck,diesel,,10,1,t\nA,S1,cif,main,rail,,,diesel_freight_train,100,,\nA,S9,fob,on,road,truck,diesel,,10,,\n"
    );
    let p = problems(&csv);
    assert_eq!(p.len(), 2, "{p:?}");
    assert_eq!(at(&p[0]), (Some(3), Some("incoterm")));
    assert!(p[0].message.contains("'cif' differs from 'fob' on line 2"));
    assert_eq!(at(&p[1]), (Some(4), Some("target_internal_id")));
    // a value the first line left empty cannot come later either
    let csv = format!(
        "{HEAD}A,S1,,pre,road,truck,diesel,,10,1,t\nA,S1,fob,main,rail,,,diesel_freight_train,100,,\n"
    );
    let p = problems(&csv);
    assert_eq!(at(&p[0]), (Some(3), Some("incoterm")));
}

#[test]
fn too_many_shipments_is_refused_at_the_first_one_too_many() {
    let mut csv = String::from("shipment_id,carriage,mode,train_type,distance_km\n");
    for i in 0..=MAX_SHIPMENTS {
        csv.push_str(&format!("S{i},main,rail,diesel_freight_train,10\n"));
    }
    let p = problems(&csv);
    assert_eq!(p.len(), 1);
    let line = u64::try_from(MAX_SHIPMENTS).unwrap() + 2;
    assert_eq!(at(&p[0]), (Some(line), Some("shipment_id")));
    assert!(p[0].message.contains("at most 10000 shipments"));
    // exactly the most is fine
    let fine: String = csv
        .lines()
        .take(MAX_SHIPMENTS + 1)
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(
        parse(fine.as_bytes()).unwrap().shipments.len(),
        MAX_SHIPMENTS
    );
}

#[test]
fn too_many_legs_in_one_shipment_is_refused() {
    let mut csv = String::from("shipment_id,carriage,mode,train_type,distance_km\n");
    for _ in 0..=MAX_LEGS {
        csv.push_str("A,main,rail,diesel_freight_train,10\n");
    }
    let p = problems(&csv);
    assert_eq!(at(&p[0]), (Some(22), Some("shipment_id")));
}

#[test]
fn a_file_too_large_or_not_utf8_or_empty_is_refused_whole() {
    let big = vec![b'a'; MAX_BYTES + 1];
    let p = parse(&big).unwrap_err();
    assert_eq!(at(&p[0]), (None, None));
    assert!(p[0].message.contains("larger than 8 MiB"));
    let p = parse(b"shipment_id,carriage,mode\nA,main,r\xE9il\n").unwrap_err();
    assert_eq!(at(&p[0]), (Some(2), None));
    assert!(p[0].message.contains("UTF-8"));
    assert_eq!(at(&parse(b"").unwrap_err()[0]), (None, None));
    let p = parse(b"shipment_id,carriage,mode\n").unwrap_err();
    assert!(p[0].message.contains("no shipment"));
}

#[test]
fn method_columns_of_another_mode_and_missing_ones_are_named() {
    let csv = "carriage,mode,vehicle_type,fuel,train_type,flight_number,departure_on,aircraft_type,logistics_site\n\
               main,rail,truck,,diesel_freight_train,,,,\n\
               main,road,truck,,,,,,\n\
               main,air,,,,LH400,,B77L,\n\
               main,logistics_site,,,,,,,\n";
    let p = problems(csv);
    let got: Vec<_> = p.iter().map(at).collect();
    assert_eq!(
        got,
        [
            (Some(2), Some("vehicle_type")),
            (Some(3), Some("fuel")),
            (Some(4), Some("flight_number")),
            (Some(5), Some("logistics_site")),
        ],
        "{p:?}"
    );
    assert_eq!(p[0].message, "applies to road legs, not to a rail leg");
}

#[test]
fn locations_coordinates_and_client_emissions_take_the_contracts_shape() {
    let csv = "shipment_id,carriage,mode,simple_method,origin_latitude,origin_longitude,destination_airport_code,shipment_emissions_total_kg,shipment_emissions_distance_km,leg_emissions_total_kg,leg_emissions_wtt_kg,leg_emissions_distance_km,metadata.cost_centre\n\
               A,main,air,cargo_plane,50.03,8.57,JFK,100.5,6200,100.5,20.5,6200,CC-7\n";
    let sheet = parse(csv.as_bytes()).unwrap();
    let row = &rows(&sheet)[0];
    assert_eq!(row["legs"][0]["method"], "cargo_plane");
    assert_eq!(
        row["legs"][0]["origin"],
        serde_json::json!({"lat": 50.03, "lon": 8.57})
    );
    assert_eq!(
        row["emissions"],
        serde_json::json!({"total_emissions": "100.5", "distance_km": "6200"})
    );
    assert_eq!(
        row["legs"][0]["emissions"],
        serde_json::json!({"total_emissions": "100.5", "wtt": "20.5", "distance_km": "6200"})
    );
    assert_eq!(row["metadata"], serde_json::json!({"cost_centre": "CC-7"}));
    let csv = "carriage,mode,vehicle_type,fuel,load_factor,empty_run_factor\nmain,road,truck,diesel,0.6,0.25\n";
    let row = &rows(&parse(csv.as_bytes()).unwrap())[0];
    assert_eq!(row["legs"][0]["load_factor"], "0.6");
    assert_eq!(row["legs"][0]["empty_run_factor"], "0.25");
    // two kinds of origin, half coordinates, half an emissions pair
    let csv = "carriage,mode,simple_method,origin_locode,origin_city,destination_latitude,leg_emissions_wtt_kg\n\
               main,rail,rail,DEHAM,Hamburg,50,3\n";
    let got: Vec<_> = problems(csv)
        .iter()
        .map(|p| (p.line, p.column.clone()))
        .collect();
    assert_eq!(
        got,
        [
            (Some(2), Some("origin_city".to_owned())),
            (Some(2), Some("destination_longitude".to_owned())),
            (Some(2), Some("leg_emissions_total_kg".to_owned())),
            (Some(2), Some("leg_emissions_distance_km".to_owned())),
        ]
    );
}

#[test]
fn comments_a_byte_order_mark_blank_lines_and_quotes_are_read() {
    let csv = "\u{FEFF}# a comment\nshipment_id,carriage,mode,train_type,target_internal_name\n\n# another\nA,main,rail,diesel_freight_train,\"Rhine, Rail\"\n";
    let sheet = parse(csv.as_bytes()).unwrap();
    assert_eq!(sheet.shipments[0].line, 5);
    assert_eq!(rows(&sheet)[0]["target_internal_name"], "Rhine, Rail");
    // a line with more values than columns
    let p = problems("carriage,mode\nmain,rail,extra\n");
    assert_eq!(at(&p[0]), (Some(2), None));
}

#[test]
fn a_decoders_field_path_maps_back_to_the_line_and_column() {
    let csv = format!(
        "{HEAD}A,S1,fob,pre,road,truck,diesel,,10,1,t\nA,,,main,rail,,,diesel_freight_train,100,,\nB,S1,,main,rail,,,electric_freight_train,5,2,t\n"
    );
    let sheet = parse(csv.as_bytes()).unwrap();
    let s = &sheet.shipments[0];
    assert_eq!(s.locate("legs[0].method.fuel"), (2, Some("fuel".into())));
    assert_eq!(
        s.locate("legs[1].method.train_type"),
        (3, Some("train_type".into()))
    );
    assert_eq!(s.locate("legs[1].method"), (3, Some("mode".into())));
    assert_eq!(
        s.locate("legs[1].distance.amount"),
        (3, Some("distance_km".into()))
    );
    assert_eq!(s.locate("legs[0].load"), (2, Some("mass".into())));
    assert_eq!(
        s.locate("legs[0].load.mass.unit"),
        (2, Some("mass_unit".into()))
    );
    assert_eq!(s.locate("incoterm"), (2, Some("incoterm".into())));
    // a field the sheet did not fill: the leg's line, or the shipment's
    assert_eq!(s.locate("legs[1].origin"), (3, None));
    assert_eq!(s.locate("legs"), (2, None));
    let checked = sheet.check_rows(|row| {
        if row.contains("\"B\"") {
            Err(("legs[0].method.train_type".into(), "is not known".into()))
        } else {
            Ok(())
        }
    });
    let p = checked.unwrap_err();
    assert_eq!(p.len(), 1);
    assert_eq!(at(&p[0]), (Some(4), Some("train_type")));
    assert_eq!(p[0].to_string(), "line 4, column train_type: is not known");
}

#[test]
fn problems_past_the_most_listed_are_counted() {
    let mut csv = String::from("shipment_id,carriage,mode,train_type\n");
    for i in 0..150 {
        csv.push_str(&format!("S{i},middle,rail,diesel_freight_train\n"));
    }
    let p = problems(&csv);
    assert_eq!(p.len(), MAX_PROBLEMS + 1);
    assert_eq!(p[MAX_PROBLEMS].message, "and 50 more problems not listed");
}

#[test]
fn a_value_holding_nul_is_refused_at_its_line_and_column() {
    let csv = "shipment_id,carriage,mode,train_type\nA\0B,middle,rail,diesel_freight_train\n";
    let p = problems(csv);
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(at(&p[0]), (Some(2), Some("shipment_id")));
    assert!(p[0].message.contains("U+0000"), "{}", p[0].message);
}
