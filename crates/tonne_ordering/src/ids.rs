//! The id of one project's allocation within an order, apart from both the
//! orders and their allocation events, which name it.

tonne_kernel::define_id!(
    /// Identifies one project's allocation within an order (a row of the
    /// order's per-project split), stable for the allocation's life.
    AllocationId
);
