//! Uploading a batch: its size and own fields are checked, its rows stored
//! as sent, all at once; the rows are processed by the worker.

use tonne_kernel::{BoundedWriteError, StoreError};

use super::Shipments;
use crate::batch::{DataSheet, MAX_BATCH_ROWS, NewBatch, Upload};
use crate::errors::UploadError;
use crate::ids::{DataSheetId, ShipmentBatchId};
use crate::ports::Owner;

/// Longest idempotency key.
pub const MAX_IDEMPOTENCY_KEY: usize = 255;

pub(super) async fn upload(
    s: &Shipments,
    owner: &Owner,
    upload: Upload,
) -> Result<ShipmentBatchId, UploadError> {
    if upload.rows.is_empty() || upload.rows.len() > MAX_BATCH_ROWS {
        return Err(UploadError::Size(format!(
            "must hold 1 to {MAX_BATCH_ROWS} shipments"
        )));
    }
    if let Some(key) = &upload.idempotency_key
        && (key.is_empty() || key.chars().count() > MAX_IDEMPOTENCY_KEY)
    {
        return Err(UploadError::Invalid {
            field: "idempotency_key".into(),
            message: format!("must have 1 to {MAX_IDEMPOTENCY_KEY} characters"),
        });
    }
    let id = ShipmentBatchId::generate(s.ids.as_ref());
    let data_sheet = upload.data_sheet.map(|(filename, uploader)| DataSheet {
        id: DataSheetId::generate(s.ids.as_ref()),
        filename,
        uploader,
    });
    let batch = NewBatch {
        id,
        account_id: owner.account_id,
        account_name: owner.account_name.clone(),
        source: upload.source,
        data_sheet,
        idempotency_key: upload.idempotency_key,
        contact_id: upload.contact_id,
        calculate: upload.calculate,
        rows: upload.rows,
        created_at: s.clock.now(),
    };
    match super::quotas::insert_batch(s, &batch).await {
        Ok(()) => Ok(id),
        Err(BoundedWriteError::Exceeded(e)) => Err(UploadError::Quota(e)),
        Err(BoundedWriteError::Store(StoreError::Duplicate)) => {
            Err(UploadError::IdempotencyKeyUsed)
        }
        Err(BoundedWriteError::Store(e)) => Err(UploadError::Store(e)),
    }
}
