//! A bundle portfolio of the file: bundles of the file, each once, with
//! shares summing to 100 %.

use anyhow::{anyhow, ensure};
use rust_decimal::Decimal;
use tonne_ordering::{BundleId, BundlePortfolio, Percentage};

use crate::file::{FileDoc, FilePortfolio};
use crate::ids::{bundle_id, portfolio_id};

pub(crate) fn portfolio_of(doc: &FileDoc, p: &FilePortfolio) -> anyhow::Result<BundlePortfolio> {
    let what = format!("portfolio `{}`", p.key);
    ensure!(!p.label.trim().is_empty(), "{what}: label is empty");
    ensure!(!p.bundles.is_empty(), "{what}: names no bundles");
    let mut selection: Vec<(BundleId, u32)> = Vec::with_capacity(p.bundles.len());
    for share in &p.bundles {
        ensure!(
            doc.bundles.iter().any(|b| b.key == share.bundle),
            "{what}: bundle `{}` is not in the file",
            share.bundle
        );
        let id = bundle_id(&share.bundle);
        ensure!(
            selection.iter().all(|(seen, _)| *seen != id),
            "{what}: bundle `{}` appears twice",
            share.bundle
        );
        let hundredths = Percentage::parse(&share.percentage)
            .map(Percentage::hundredths)
            .map_err(|e| anyhow!("{what}: {e}"))?;
        ensure!(
            hundredths > 0,
            "{what}: bundle `{}` has a zero share",
            share.bundle
        );
        selection.push((id, hundredths));
    }
    let total: u32 = selection.iter().map(|(_, s)| s).sum();
    ensure!(
        total == 10_000,
        "{what}: percentages sum to {}, not 100",
        Decimal::new(i64::from(total), 2)
    );
    Ok(BundlePortfolio {
        id: portfolio_id(&p.key),
        identifier: p.key.clone(),
        label: p.label.clone(),
        selection,
    })
}
