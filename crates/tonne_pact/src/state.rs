//! What the PACT routes run over.

use std::sync::Arc;

use tonne_accounts::pact::PactClientsService;
use tonne_accounts::pact::partners::PactPartnersService;
use tonne_shipments::ShipmentsService;

/// What the PACT routes run over.
#[derive(Clone)]
pub struct PactState {
    /// The clients, their tokens.
    pub clients: Arc<dyn PactClientsService>,
    /// The partners whose footprint requests are answered.
    pub partners: Arc<dyn PactPartnersService>,
    /// The shipments the footprints are made of.
    pub shipments: Arc<dyn ShipmentsService>,
    /// The installation's public address (no trailing `/`): the `Link`
    /// headers' base, never the request's `Host`.
    pub public_url: String,
}
