//! The closed vocabularies of the client 3.9.2 shipment models, value for value
//! (generated from the client's `src/models/*.ts`; a value outside its list
//! fails the row naming the field).

/// `Incoterm (Incoterms 2020)`.
pub const INCOTERMS: &[&str] = &[
    "exw", "fca", "cpt", "cip", "dap", "dpu", "ddp", "fas", "fob", "cfr", "cif",
];

/// `ShipmentServiceLevel`.
pub const SERVICE_LEVELS: &[&str] = &["express", "economy", "priority"];

/// `ShipmentContractType`.
pub const CONTRACT_TYPES: &[&str] = &["spot", "contract", "tender"];

/// `CurrencyCode`.
pub const CURRENCIES: &[&str] = &[
    "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT",
    "BGN", "BHD", "BIF", "BMD", "BND", "BOB", "BRL", "BSD", "BTC", "BTN", "BWP", "BYN", "BYR",
    "BZD", "CAD", "CDF", "CHF", "CLF", "CLP", "CNY", "CNH", "COP", "CRC", "CUC", "CUP", "CVE",
    "CZK", "DJF", "DKK", "DOP", "DZD", "EGP", "ERN", "ETB", "EUR", "FJD", "FKP", "GBP", "GEL",
    "GGP", "GHS", "GIP", "GMD", "GNF", "GTQ", "GYD", "HKD", "HNL", "HRK", "HTG", "HUF", "IDR",
    "ILS", "IMP", "INR", "IQD", "IRR", "ISK", "JEP", "JMD", "JOD", "JPY", "KES", "KGS", "KHR",
    "KMF", "KPW", "KRW", "KWD", "KYD", "KZT", "LAK", "LBP", "LKR", "LRD", "LSL", "LTL", "LVL",
    "LYD", "MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP", "MRU", "MUR", "MVR", "MWK", "MXN",
    "MYR", "MZN", "NAD", "NGN", "NIO", "NOK", "NPR", "NZD", "OMR", "PAB", "PEN", "PGK", "PHP",
    "PKR", "PLN", "PYG", "QAR", "RON", "RSD", "RUB", "RWF", "SAR", "SBD", "SCR", "SDG", "SEK",
    "SGD", "SHP", "SLE", "SLL", "SOS", "SRD", "STD", "SVC", "SYP", "SZL", "THB", "TJS", "TMT",
    "TND", "TOP", "TRY", "TTD", "TWD", "TZS", "UAH", "UGX", "USD", "UYU", "UZS", "VES", "VND",
    "VUV", "WST", "XAF", "XAG", "XAU", "XCD", "XDR", "XOF", "XPF", "YER", "ZAR", "ZMK", "ZMW",
    "ZWL",
];

/// `AircraftConfiguration`.
pub const AIRCRAFT_CONFIGURATIONS: &[&str] = &["cargo_plane", "passenger_plane", "plane"];

/// `CreateShipmentAircraftTypeMethod.aircraft_type`.
pub const AIRCRAFT_TYPES: &[&str] = &[
    "A140", "A148", "A158", "A306", "A30B", "A310", "A318", "A319", "A320", "A321", "A332", "A333",
    "A342", "A343", "A345", "A346", "A359", "A380", "AN12", "B703", "B712", "B722", "B732", "B733",
    "B734", "B735", "B738", "B739", "B742", "B744", "B748", "B752", "B762", "B763", "B77L", "B773",
    "B77W", "B788", "B789", "MD11",
];

/// `CreateShipmentRoadEmissionStandard`.
pub const ROAD_EMISSION_STANDARDS: &[&str] = &[
    "euro1", "euro2", "euro3", "euro4", "euro5", "euro6-ac", "euro6-de", "jp1994", "jp1997",
    "jp2003", "jp2005", "jp2009", "jp2016",
];

/// The 2024 document's `RoadEmissionStandard` (road legs of shipping
/// estimates; shipments take [`ROAD_EMISSION_STANDARDS`]).
pub const ESTIMATE_ROAD_EMISSION_STANDARDS: &[&str] =
    &["euro1", "euro2", "euro3", "euro4", "euro5", "euro6"];

/// `CreateShipmentRoadFuel`.
pub const ROAD_FUELS: &[&str] = &[
    "gasoline",
    "diesel",
    "ethanol_from_corn",
    "hvo_from_tallow",
    "lpg",
    "cng",
    "lng",
];

/// `FuelConsumptionUnit`.
pub const FUEL_CONSUMPTION_UNITS: &[&str] = &["l", "kg", "kwh", "gal"];

/// `RoadGradient`.
pub const ROAD_GRADIENTS: &[&str] = &["flat", "hilly", "mountainous"];

/// `RoadSituation`.
pub const ROAD_SITUATIONS: &[&str] = &[
    "city_urban_freeflow",
    "motorway_urban_freeflow",
    "motorway_rural_freeflow",
    "city_urban_heavy_traffic",
    "city_urban_stop_and_go",
    "motorway_urban_heavy_traffic",
    "motorway_urban_stop_and_go",
    "motorway_rural_heavy_traffic",
    "motorway_rural_stop_and_go",
    "arterial_road_rural_freeflow",
    "arterial_road_rural_heavy_traffic",
    "arterial_road_rural_stop_and_go",
];

/// `truck`, the generic HGV, and the [`ROAD_VEHICLE_TYPES`] (a data
/// sheet's `vehicle_type`).
pub(crate) const VEHICLE_TYPES: &[&str] = &[
    "truck",
    "truck_generic_van",
    "truck_rigid_7_5t",
    "truck_rigid_12t",
    "truck_rigid_20t",
    "truck_rigid_26t",
    "truck_rigid_32t",
    "truck_articulated_34t",
    "truck_articulated_40t",
    "truck_articulated_44t",
    "truck_articulated_60t",
    "truck_articulated_72t",
];

/// `RoadVehicleType (plus `truck`, the generic HGV)`.
pub const ROAD_VEHICLE_TYPES: &[&str] = match VEHICLE_TYPES.split_first() {
    Some((_truck, road)) => road,
    None => &[],
};

/// `SimpleSeaShippingMethod`.
pub const SEA_VESSEL_TYPES: &[&str] = &[
    "sea_bulk_carrier_10dwkt_hfo",
    "sea_bulk_carrier_10dwkt_vlsfo",
    "sea_bulk_carrier_10dwkt_mdo",
    "sea_bulk_carrier_35dwkt_hfo",
    "sea_bulk_carrier_35dwkt_vlsfo",
    "sea_bulk_carrier_35dwkt_mdo",
    "sea_bulk_carrier_60dwkt_hfo",
    "sea_bulk_carrier_60dwkt_vlsfo",
    "sea_bulk_carrier_60dwkt_mdo",
    "sea_bulk_carrier_100dwkt_hfo",
    "sea_bulk_carrier_100dwkt_vlsfo",
    "sea_bulk_carrier_100dwkt_mdo",
    "sea_bulk_carrier_200dwkt_hfo",
    "sea_bulk_carrier_200dwkt_vlsfo",
    "sea_bulk_carrier_200dwkt_mdo",
    "sea_bulk_carrier_over_200dwkt_hfo",
    "sea_bulk_carrier_over_200dwkt_vlsfo",
    "sea_bulk_carrier_over_200dwkt_mdo",
    "sea_chemical_tanker_5dwkt_hfo",
    "sea_chemical_tanker_5dwkt_vlsfo",
    "sea_chemical_tanker_5dwkt_mdo",
    "sea_chemical_tanker_10dwkt_hfo",
    "sea_chemical_tanker_10dwkt_vlsfo",
    "sea_chemical_tanker_10dwkt_mdo",
    "sea_chemical_tanker_20dwkt_hfo",
    "sea_chemical_tanker_20dwkt_vlsfo",
    "sea_chemical_tanker_20dwkt_mdo",
    "sea_chemical_tanker_40dwkt_hfo",
    "sea_chemical_tanker_40dwkt_vlsfo",
    "sea_chemical_tanker_40dwkt_mdo",
    "sea_chemical_tanker_over_40dwkt_hfo",
    "sea_chemical_tanker_over_40dwkt_vlsfo",
    "sea_chemical_tanker_over_40dwkt_mdo",
    "sea_general_cargo_5dwkt_hfo",
    "sea_general_cargo_5dwkt_vlsfo",
    "sea_general_cargo_5dwkt_mdo",
    "sea_general_cargo_10dwkt_hfo",
    "sea_general_cargo_10dwkt_vlsfo",
    "sea_general_cargo_10dwkt_mdo",
    "sea_general_cargo_20dwkt_hfo",
    "sea_general_cargo_20dwkt_vlsfo",
    "sea_general_cargo_20dwkt_mdo",
    "sea_general_cargo_over_20dwkt_hfo",
    "sea_general_cargo_over_20dwkt_vlsfo",
    "sea_general_cargo_over_20dwkt_mdo",
    "sea_liquefied_gas_tanker_50dwkt_hfo",
    "sea_liquefied_gas_tanker_50dwkt_vlsfo",
    "sea_liquefied_gas_tanker_50dwkt_mdo",
    "sea_liquefied_gas_tanker_100dwkt_hfo",
    "sea_liquefied_gas_tanker_100dwkt_vlsfo",
    "sea_liquefied_gas_tanker_100dwkt_mdo",
    "sea_liquefied_gas_tanker_200dwkt_hfo",
    "sea_liquefied_gas_tanker_200dwkt_vlsfo",
    "sea_liquefied_gas_tanker_200dwkt_mdo",
    "sea_liquefied_gas_tanker_over_200dwkt_hfo",
    "sea_liquefied_gas_tanker_over_200dwkt_vlsfo",
    "sea_liquefied_gas_tanker_over_200dwkt_mdo",
    "sea_oil_tanker_5dwkt_hfo",
    "sea_oil_tanker_5dwkt_vlsfo",
    "sea_oil_tanker_5dwkt_mdo",
    "sea_oil_tanker_10dwkt_hfo",
    "sea_oil_tanker_10dwkt_vlsfo",
    "sea_oil_tanker_10dwkt_mdo",
    "sea_oil_tanker_20dwkt_hfo",
    "sea_oil_tanker_20dwkt_vlsfo",
    "sea_oil_tanker_20dwkt_mdo",
    "sea_oil_tanker_60dwkt_hfo",
    "sea_oil_tanker_60dwkt_vlsfo",
    "sea_oil_tanker_60dwkt_mdo",
    "sea_oil_tanker_80dwkt_hfo",
    "sea_oil_tanker_80dwkt_vlsfo",
    "sea_oil_tanker_80dwkt_mdo",
    "sea_oil_tanker_112dwkt_hfo",
    "sea_oil_tanker_112dwkt_vlsfo",
    "sea_oil_tanker_112dwkt_mdo",
    "sea_oil_tanker_200dwkt_hfo",
    "sea_oil_tanker_200dwkt_vlsfo",
    "sea_oil_tanker_200dwkt_mdo",
    "sea_oil_tanker_over_200dwkt_hfo",
    "sea_oil_tanker_over_200dwkt_vlsfo",
    "sea_oil_tanker_over_200dwkt_mdo",
    "sea_other_liquids_tanker_1dwkt_hfo",
    "sea_other_liquids_tanker_1dwkt_vlsfo",
    "sea_other_liquids_tanker_1dwkt_mdo",
    "sea_other_liquids_tanker_over_1dwkt_hfo",
    "sea_other_liquids_tanker_over_1dwkt_vlsfo",
    "sea_other_liquids_tanker_over_1dwkt_mdo",
    "sea_ropax_2dwkt_hfo",
    "sea_ropax_2dwkt_vlsfo",
    "sea_ropax_2dwkt_mdo",
    "sea_ropax_5dwkt_hfo",
    "sea_ropax_5dwkt_vlsfo",
    "sea_ropax_5dwkt_mdo",
    "sea_ropax_10dwkt_hfo",
    "sea_ropax_10dwkt_vlsfo",
    "sea_ropax_10dwkt_mdo",
    "sea_ropax_20dwkt_hfo",
    "sea_ropax_20dwkt_vlsfo",
    "sea_ropax_20dwkt_mdo",
    "sea_ropax_over_20dwkt_hfo",
    "sea_ropax_over_20dwkt_vlsfo",
    "sea_ropax_over_20dwkt_mdo",
    "sea_refrigerated_bulk_carrier_2dwkt_hfo",
    "sea_refrigerated_bulk_carrier_2dwkt_vlsfo",
    "sea_refrigerated_bulk_carrier_2dwkt_mdo",
    "sea_refrigerated_bulk_carrier_6dwkt_hfo",
    "sea_refrigerated_bulk_carrier_6dwkt_vlsfo",
    "sea_refrigerated_bulk_carrier_6dwkt_mdo",
    "sea_refrigerated_bulk_carrier_10dwkt_hfo",
    "sea_refrigerated_bulk_carrier_10dwkt_vlsfo",
    "sea_refrigerated_bulk_carrier_10dwkt_mdo",
    "sea_refrigerated_bulk_carrier_over_10dwkt_hfo",
    "sea_refrigerated_bulk_carrier_over_10dwkt_vlsfo",
    "sea_refrigerated_bulk_carrier_over_10dwkt_mdo",
    "sea_roro_5dwkt_hfo",
    "sea_roro_5dwkt_vlsfo",
    "sea_roro_5dwkt_mdo",
    "sea_roro_10dwkt_hfo",
    "sea_roro_10dwkt_vlsfo",
    "sea_roro_10dwkt_mdo",
    "sea_roro_15dwkt_hfo",
    "sea_roro_15dwkt_vlsfo",
    "sea_roro_15dwkt_mdo",
    "sea_roro_over_15dwkt_hfo",
    "sea_roro_over_15dwkt_vlsfo",
    "sea_roro_over_15dwkt_mdo",
    "sea_vehicle_carrier_30dwkt_hfo",
    "sea_vehicle_carrier_30dwkt_vlsfo",
    "sea_vehicle_carrier_30dwkt_mdo",
    "sea_vehicle_carrier_50dwkt_hfo",
    "sea_vehicle_carrier_50dwkt_vlsfo",
    "sea_vehicle_carrier_50dwkt_mdo",
    "sea_vehicle_carrier_over_50dwkt_hfo",
    "sea_vehicle_carrier_over_50dwkt_vlsfo",
    "sea_vehicle_carrier_over_50dwkt_mdo",
];

/// `TradeLane`.
pub const TRADE_LANES: &[&str] = &[
    "aggregated_panama_trade",
    "aggregated_transatlantic",
    "aggregated_transsuez",
    "aggregated_transpacific",
    "aggregated_other",
    "disaggregated_asia_to_africa",
    "disaggregated_asia_to_mediterranean",
    "disaggregated_asia_to_middle_east",
    "disaggregated_asia_to_north_america_east",
    "disaggregated_asia_to_north_america_west",
    "disaggregated_asia_to_north_europe",
    "disaggregated_asia_to_oceania",
    "disaggregated_asia_to_south_america",
    "disaggregated_europe_to_africa",
    "disaggregated_europe_to_south_america",
    "disaggregated_europe_to_middle_east",
    "disaggregated_europe_to_oceania",
    "disaggregated_mediterranean_to_north_america_east",
    "disaggregated_mediterranean_to_north_america_west",
    "disaggregated_north_america_to_africa",
    "disaggregated_north_america_to_oceania",
    "disaggregated_north_america_to_south_america",
    "disaggregated_north_america_to_middle_east",
    "disaggregated_north_europe_to_north_america_east",
    "disaggregated_north_europe_to_north_america_west",
    "disaggregated_south_america_to_africa",
    "disaggregated_intra_africa",
    "disaggregated_intra_north_america",
    "disaggregated_intra_south_america",
    "disaggregated_se_asia_to_ne_asia",
    "disaggregated_intra_ne_asia",
    "disaggregated_intra_se_asia",
    "disaggregated_north_europe_to_mediterranean",
    "disaggregated_intra_mediterranean",
    "disaggregated_intra_north_europe",
    "disaggregated_intra_middle_east",
    "disaggregated_other",
];

/// `CreateShipmentSeaMethod.carrier_name`.
pub const CARRIERS: &[&str] = &[
    "ALIANÇA",
    "ANL",
    "CMA CGM",
    "CNC",
    "COSCO SHIPPING",
    "CROWLEY",
    "EVERGREEN",
    "GOLD STAR LINE",
    "HAIHUA SHIPPING",
    "HAMBURG SÜD",
    "HAPAG-LLOYD",
    "HMM",
    "ICL",
    "JINJIANG SHIPPING",
    "KAMBARA KISEN",
    "KOREA MARINE TRANSPORT",
    "MAERSK",
    "MATSON",
    "MCC",
    "MSC",
    "Namsung",
    "ONE",
    "OOCL",
    "PIL",
    "SEAGO",
    "SEALAND",
    "SITC",
    "SM LINE",
    "WAN HAI",
    "YANG MING",
    "ZIM",
];

/// `LogisticsSiteMethod`: the names the estimation engine has hub figures
/// for, one list for both.
pub const LOGISTICS_SITES: &[&str] = &tonne_estimation::shipping::hubs::LOGISTICS_SITES;

/// `ShipmentRailMethod.train_type`.
pub const TRAIN_TYPES: &[&str] = &["diesel_freight_train", "electric_freight_train"];

/// `SimpleShipmentMethod`.
pub const SIMPLE_METHODS: &[&str] = &[
    "diesel_freight_train",
    "electric_freight_train",
    "rail",
    "plane",
    "passenger_plane",
    "cargo_plane",
];

/// `Distance.unit`.
pub const DISTANCE_UNITS: &[&str] = &["km", "mi", "nm"];

/// `MassUnit`.
pub const MASS_UNITS: &[&str] = &["g", "kg", "t"];

/// `VolumeUnit`.
pub const VOLUME_UNITS: &[&str] = &["l", "m3"];

/// `ContainerSizeType`.
pub const CONTAINER_TYPES: &[&str] = &[
    "20gp", "40gp", "40hc", "45hc", "20rf", "40rf", "20ot", "40ot", "20fr", "40fr", "20tk",
];

/// `ContainerLoadType`.
pub const CONTAINER_LOAD_TYPES: &[&str] = &["fcl", "lcl"];

/// `TransitCorridor`.
pub const TRANSIT_CORRIDORS: &[&str] = &[
    "panama",
    "suez",
    "cape_of_good_hope",
    "northwest_passage",
    "northeast_passage",
    "cape_horn",
];

/// `CarriageType`.
pub const CARRIAGES: &[&str] = &["pre", "main", "on"];

#[cfg(test)]
mod tests {
    use tonne_estimation::shipping::{Grade, resolve_simple};

    use super::*;

    /// Every vessel of the 2024 document's `SimpleSeaShippingMethod` has
    /// factors in the estimation engine; a stand-in says so and is graded
    /// below an exact match.
    #[test]
    fn every_sea_vessel_of_the_contract_resolves() {
        assert_eq!(SEA_VESSEL_TYPES.len(), 135);
        for name in SEA_VESSEL_TYPES {
            let r = resolve_simple(name).unwrap_or_else(|| panic!("{name}"));
            assert!(!r.factors.is_empty(), "{name}");
            if r.stand_in.is_some() {
                assert!(r.grade > Grade::A, "{name}");
            }
        }
    }
}
