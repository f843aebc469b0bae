//! Sea methods given by a simple name (`{type}_{size}_{fuel}`): the DESNZ
//! 2025 row of the ship type and size it names, and how closely it matches.

use crate::factors::Factor;
use crate::factors::desnz_2025 as desnz;
use crate::shipping::Mode;

use super::resolved::{Grade, Resolved};

/// A `SimpleSeaShippingMethod` name without its `sea_` prefix:
/// `{type}_{size}_{fuel}`. DESNZ's rows are the fleet's fuel mix, so the fuel
/// does not change the factor.
pub(super) fn sea_simple(rest: &str) -> Option<Resolved> {
    let body = ["_hfo", "_vlsfo", "_mdo"]
        .iter()
        .find_map(|f| rest.strip_suffix(f))?;
    let types = [
        "refrigerated_bulk_carrier",
        "liquefied_gas_tanker",
        "other_liquids_tanker",
        "vehicle_carrier",
        "chemical_tanker",
        "general_cargo",
        "bulk_carrier",
        "oil_tanker",
        "ropax",
        "roro",
    ];
    let kind = types.iter().find(|t| body.starts_with(&format!("{t}_")))?;
    let size = body.strip_prefix(kind)?.trim_start_matches('_');
    use Grade::{A, B, C};
    let (f, grade, why): (Factor, Grade, Option<&str>) = match (*kind, size) {
        ("bulk_carrier", "10dwkt") => (desnz::SEA_BULK_0_10K, A, None),
        ("bulk_carrier", "35dwkt") => (desnz::SEA_BULK_10K_35K, A, None),
        ("bulk_carrier", "60dwkt") => (desnz::SEA_BULK_35K_60K, A, None),
        ("bulk_carrier", "100dwkt") => (desnz::SEA_BULK_60K_100K, A, None),
        ("bulk_carrier", "200dwkt") => (desnz::SEA_BULK_100K_200K, A, None),
        ("bulk_carrier", "over_200dwkt") => (desnz::SEA_BULK_200K, A, None),
        ("chemical_tanker", "5dwkt") => (desnz::SEA_CHEMICAL_TANKER_0_5K, A, None),
        ("chemical_tanker", "10dwkt") => (desnz::SEA_CHEMICAL_TANKER_5K_10K, A, None),
        ("chemical_tanker", "20dwkt") => (desnz::SEA_CHEMICAL_TANKER_10K_20K, A, None),
        ("chemical_tanker", "40dwkt" | "over_40dwkt") => (
            desnz::SEA_CHEMICAL_TANKER_20K,
            B,
            Some("DESNZ's largest chemical tankers are one class, 20,000 dwt and over"),
        ),
        ("general_cargo", "5dwkt") => (desnz::SEA_GENERAL_CARGO_0_5K, A, None),
        ("general_cargo", "10dwkt") => (desnz::SEA_GENERAL_CARGO_5K_10K, A, None),
        ("general_cargo", "20dwkt" | "over_20dwkt") => (
            desnz::SEA_GENERAL_CARGO_10K,
            B,
            Some("DESNZ's largest general cargo ships are one class, 10,000 dwt and over"),
        ),
        ("liquefied_gas_tanker", "50dwkt" | "100dwkt") => (
            desnz::SEA_LNG_TANKER_0_200K_M3,
            C,
            Some("DESNZ sizes gas tankers by cubic metres, not deadweight"),
        ),
        ("liquefied_gas_tanker", "200dwkt" | "over_200dwkt") => (
            desnz::SEA_LNG_TANKER_200K_M3,
            C,
            Some("DESNZ sizes gas tankers by cubic metres, not deadweight"),
        ),
        ("oil_tanker", "5dwkt") => (desnz::SEA_PRODUCTS_TANKER_0_5K, B, None),
        ("oil_tanker", "10dwkt") => (desnz::SEA_PRODUCTS_TANKER_5K_10K, B, None),
        ("oil_tanker", "20dwkt") => (desnz::SEA_PRODUCTS_TANKER_10K_20K, B, None),
        ("oil_tanker", "60dwkt") => (desnz::SEA_PRODUCTS_TANKER_20K_60K, B, None),
        ("oil_tanker", "80dwkt") => (desnz::SEA_CRUDE_TANKER_60K_80K, A, None),
        ("oil_tanker", "112dwkt") => (desnz::SEA_CRUDE_TANKER_80K_120K, A, None),
        ("oil_tanker", "200dwkt") => (desnz::SEA_CRUDE_TANKER_120K_200K, A, None),
        ("oil_tanker", "over_200dwkt") => (desnz::SEA_CRUDE_TANKER_200K, A, None),
        ("other_liquids_tanker", "1dwkt") => (
            desnz::SEA_PRODUCTS_TANKER_0_5K,
            C,
            Some("no open factor for other-liquids tankers: the smallest products tanker"),
        ),
        ("other_liquids_tanker", "over_1dwkt") => (
            desnz::SEA_PRODUCTS_TANKER_AVERAGE,
            C,
            Some("no open factor for other-liquids tankers: the products-tanker average"),
        ),
        ("ropax", "2dwkt" | "5dwkt" | "10dwkt" | "20dwkt" | "over_20dwkt") => (
            desnz::SEA_ROPAX_LARGE,
            C,
            Some("DESNZ publishes one RoPax factor, the large ferries' average"),
        ),
        ("refrigerated_bulk_carrier", "2dwkt" | "6dwkt" | "10dwkt" | "over_10dwkt") => {
            (desnz::SEA_REFRIGERATED_CARGO, B, None)
        }
        ("roro", "5dwkt" | "10dwkt") => (
            desnz::SEA_RORO_0_2K_LM,
            C,
            Some("DESNZ sizes RoRo ferries by lane metres, not deadweight"),
        ),
        ("roro", "15dwkt" | "over_15dwkt") => (
            desnz::SEA_RORO_2K_LM,
            C,
            Some("DESNZ sizes RoRo ferries by lane metres, not deadweight"),
        ),
        ("vehicle_carrier", "30dwkt") => (
            desnz::SEA_VEHICLE_0_4K_CEU,
            C,
            Some("DESNZ sizes vehicle carriers by car equivalent units, not deadweight"),
        ),
        ("vehicle_carrier", "50dwkt" | "over_50dwkt") => (
            desnz::SEA_VEHICLE_4K_CEU,
            C,
            Some("DESNZ sizes vehicle carriers by car equivalent units, not deadweight"),
        ),
        _ => return None,
    };
    Some(Resolved {
        mode: Mode::Sea,
        factors: vec![f],
        grade,
        stand_in: why.map(|w| format!("{w}: {} is used", f.id)),
    })
}
