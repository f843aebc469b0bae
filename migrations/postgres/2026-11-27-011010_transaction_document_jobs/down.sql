DROP TABLE transaction_document_jobs;
