//! Domain values built from their stored parts, read the same way from the
//! typed format and the first one.

use tonne_estimation::estimate::Methodology;
use tonne_estimation::footprint::CompanyEstimate;
use tonne_kernel::Mass;

/// The methodology notes among `names` (unknown names are dropped).
pub(super) fn methodology<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<Methodology> {
    names.into_iter().filter_map(Methodology::parse).collect()
}

/// A company estimate from its ten masses in grams (total, scopes, components).
pub(super) fn company(g: [i64; 10]) -> CompanyEstimate {
    let [
        mass,
        scope1,
        scope2,
        scope3,
        energy,
        remote,
        travel,
        food,
        material,
        tech,
    ] = g.map(Mass::from_grams);
    CompanyEstimate {
        mass,
        scope1,
        scope2,
        scope3,
        energy,
        remote_employee: remote,
        travel_and_commute: travel,
        food_and_drink: food,
        material_and_waste: material,
        tech,
    }
}
