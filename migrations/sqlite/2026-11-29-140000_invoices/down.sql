DROP TABLE organisation_billing;
DROP TABLE invoice_lines;
DROP TABLE invoices;
DROP TABLE invoice_sequence;
