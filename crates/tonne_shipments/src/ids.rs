//! The domain's identifiers.

tonne_kernel::define_id!(
    /// Identifies a stored shipment (the contract's `id`, not the client's `shipment_id`).
    ShipmentId
);
tonne_kernel::define_id!(
    /// Identifies an uploaded batch of shipment rows.
    ShipmentBatchId
);
tonne_kernel::define_id!(
    /// Identifies a calculation batch: a queued calculation of the shipments a filter selects.
    CalculationId
);
tonne_kernel::define_id!(
    /// Identifies a counterparty (the contract's contact): the supplier of an account's shipments.
    CounterpartyId
);
tonne_kernel::define_id!(
    /// Identifies an uploaded data sheet (a CSV file that became a batch).
    DataSheetId
);
