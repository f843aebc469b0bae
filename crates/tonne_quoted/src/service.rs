//! [`QuotedEstimates`]: the use case over the two domains' driving ports.

use std::sync::Arc;

use async_trait::async_trait;
use tonne_estimation::EstimateError;
use tonne_estimation::estimate::{
    AnnotationsPatch, Estimate, EstimateFilter, EstimateKind, NewEstimate, QuoteTerms,
};
use tonne_estimation::ports::{EstimationError, EstimationService};
use tonne_kernel::{AccountId, Cursor, Mass, Page, PageRequest};
use tonne_ordering::{MassRequest, OrderingService, Percentage, Quote, QuoteError, SelectionEntry};

use crate::ports::{QuotedEstimate, QuotedEstimatesService};

/// Estimates through [`EstimationService`], quotes through [`OrderingService`].
#[derive(Clone)]
pub struct QuotedEstimates {
    estimates: Arc<dyn EstimationService>,
    ordering: Arc<dyn OrderingService>,
}

impl QuotedEstimates {
    /// The use case over the two driving ports.
    pub fn new(estimates: Arc<dyn EstimationService>, ordering: Arc<dyn OrderingService>) -> Self {
        Self {
            estimates,
            ordering,
        }
    }

    /// Quotes one estimate.
    async fn quoted(
        &self,
        account: AccountId,
        estimate: Estimate,
    ) -> Result<QuotedEstimate, EstimationError> {
        let quote = match estimate.mass {
            None => None,
            Some(mass) => Some(match quote_request(mass, &estimate.quote) {
                Ok(request) => lift(self.ordering.quote_by_mass(account, request).await)?,
                Err(e) => Err(e),
            }),
        };
        Ok(QuotedEstimate { estimate, quote })
    }

    /// Quotes stored estimates together (the account and each distinct
    /// selection are read once), in their order.
    async fn quoted_all(
        &self,
        account: AccountId,
        estimates: Vec<Estimate>,
    ) -> Result<Vec<QuotedEstimate>, EstimationError> {
        let mut requests = Vec::new();
        let prepared: Vec<Option<Result<(), QuoteError>>> = estimates
            .iter()
            .map(|e| {
                e.mass
                    .map(|mass| quote_request(mass, &e.quote).map(|request| requests.push(request)))
            })
            .collect();
        let mut quotes = self
            .ordering
            .quote_many_by_mass(account, requests)
            .await
            .into_iter();
        let mut out = Vec::with_capacity(estimates.len());
        for (estimate, prepared) in estimates.into_iter().zip(prepared) {
            let quote = match prepared {
                None => None,
                Some(Err(e)) => Some(Err(e)),
                Some(Ok(())) => match quotes.next() {
                    Some(q) => Some(lift(q)?),
                    None => {
                        return Err(EstimationError::Unexpected(anyhow::anyhow!(
                            "ordering answered fewer quotes than asked"
                        )));
                    }
                },
            };
            out.push(QuotedEstimate { estimate, quote });
        }
        Ok(out)
    }
}

/// The ordering request for an estimate's quote, or why its terms cannot be one.
pub fn quote_request(mass: Mass, terms: &QuoteTerms) -> Result<MassRequest, QuoteError> {
    let selection = terms
        .bundle_selection
        .as_ref()
        .map(|s| {
            s.iter()
                .map(|b| {
                    Ok(SelectionEntry {
                        bundle_id: b.bundle_id.clone(),
                        percentage: b.hundredths.map(Percentage::from_hundredths).transpose()?,
                    })
                })
                .collect::<Result<Vec<_>, QuoteError>>()
        })
        .transpose()?;
    Ok(MassRequest::Split {
        mass,
        selection,
        trunc: terms.quantity_trunc,
    })
}

/// A store failure while quoting fails the use case; any other quote error
/// is the answer's.
fn lift(result: Result<Quote, QuoteError>) -> Result<Result<Quote, QuoteError>, EstimationError> {
    match result {
        Err(QuoteError::Unexpected(cause)) => Err(EstimationError::Unexpected(cause)),
        other => Ok(other),
    }
}

#[async_trait]
impl QuotedEstimatesService for QuotedEstimates {
    async fn create(
        &self,
        account: AccountId,
        new: NewEstimate,
    ) -> Result<Option<QuotedEstimate>, EstimationError> {
        match self.estimates.create(account, new).await? {
            Some(e) => Ok(Some(self.quoted(account, e).await?)),
            None => Ok(None),
        }
    }

    async fn create_many(
        &self,
        account: AccountId,
        batch: Vec<NewEstimate>,
    ) -> Result<Vec<Result<Option<QuotedEstimate>, EstimateError>>, EstimationError> {
        let computed = self.estimates.create_many(account, batch).await?;
        // the stored entries' quotes, priced together, then back in their places
        let mut slots = Vec::with_capacity(computed.len());
        let mut stored = Vec::new();
        for entry in computed {
            slots.push(match entry {
                Ok(Some(estimate)) => {
                    stored.push(estimate);
                    None
                }
                other => Some(other),
            });
        }
        let mut quoted = self.quoted_all(account, stored).await?.into_iter();
        slots
            .into_iter()
            .map(|slot| match slot {
                Some(Err(e)) => Ok(Err(e)),
                Some(Ok(_)) => Ok(Ok(None)),
                None => quoted.next().map(|q| Ok(Some(q))).ok_or_else(|| {
                    EstimationError::Unexpected(anyhow::anyhow!(
                        "fewer quoted estimates than stored ones"
                    ))
                }),
            })
            .collect()
    }

    async fn get(
        &self,
        account: AccountId,
        kind: Option<EstimateKind>,
        id: &str,
    ) -> Result<QuotedEstimate, EstimationError> {
        let e = self.estimates.get(account, kind, id).await?;
        self.quoted(account, e).await
    }

    async fn list(
        &self,
        account: AccountId,
        kinds: &[EstimateKind],
        filter: EstimateFilter,
        page: PageRequest<Cursor>,
    ) -> Result<Page<QuotedEstimate>, EstimationError> {
        let found = self.estimates.list(account, kinds, filter, page).await?;
        let has_more = found.has_more;
        let items = self.quoted_all(account, found.items).await?;
        Ok(Page { items, has_more })
    }

    async fn get_by_idempotency_key(
        &self,
        account: AccountId,
        kind: Option<EstimateKind>,
        key: &str,
    ) -> Result<QuotedEstimate, EstimationError> {
        let e = self
            .estimates
            .get_by_idempotency_key(account, kind, key)
            .await?;
        self.quoted(account, e).await
    }

    async fn annotate(
        &self,
        account: AccountId,
        kinds: &[EstimateKind],
        id: &str,
        patch: AnnotationsPatch,
    ) -> Result<QuotedEstimate, EstimationError> {
        let e = self.estimates.annotate(account, kinds, id, patch).await?;
        self.quoted(account, e).await
    }

    async fn update(
        &self,
        account: AccountId,
        id: &str,
        new: NewEstimate,
    ) -> Result<QuotedEstimate, EstimationError> {
        let e = self.estimates.update(account, id, new).await?;
        self.quoted(account, e).await
    }
}

#[cfg(test)]
mod tests {
    use tonne_estimation::estimate::BundleShare;
    use tonne_kernel::MassUnit;

    use super::*;

    #[test]
    fn quote_terms_become_a_split_request() {
        let mass = Mass::from_grams(1_500_000);
        let terms = QuoteTerms {
            bundle_selection: Some(vec![BundleShare {
                bundle_id: "b1".into(),
                hundredths: Some(10_000),
            }]),
            quantity_trunc: Some(MassUnit::Kg),
        };
        let Ok(MassRequest::Split {
            mass: m,
            selection: Some(selection),
            trunc,
        }) = quote_request(mass, &terms)
        else {
            panic!("a split request");
        };
        assert_eq!(m, mass);
        assert_eq!(trunc, Some(MassUnit::Kg));
        assert_eq!(selection.len(), 1);
    }

    #[test]
    fn a_percentage_above_100_is_the_quotes_error() {
        let terms = QuoteTerms {
            bundle_selection: Some(vec![BundleShare {
                bundle_id: "b1".into(),
                hundredths: Some(10_001),
            }]),
            quantity_trunc: None,
        };
        assert!(matches!(
            quote_request(Mass::from_grams(1), &terms),
            Err(QuoteError::RatiosFormat(_))
        ));
    }

    #[test]
    fn a_store_failure_while_quoting_fails_the_use_case() {
        assert!(matches!(
            lift(Err(QuoteError::Unexpected(anyhow::anyhow!("down")))),
            Err(EstimationError::Unexpected(_))
        ));
        assert!(matches!(
            lift(Err(QuoteError::BundleInvalid("x".into()))),
            Ok(Err(QuoteError::BundleInvalid(_)))
        ));
    }
}
