DROP TABLE shipment_calculations;
DROP TABLE shipments;
DROP TABLE shipment_counterparties;
DROP TABLE shipment_batch_rows;
DROP TABLE shipment_batches;
