ALTER TABLE orders DROP COLUMN payment_method;
