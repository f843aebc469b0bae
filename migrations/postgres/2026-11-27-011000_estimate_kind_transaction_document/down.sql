DELETE FROM estimates WHERE kind = 'transaction_document' AND order_id IS NULL;
ALTER TABLE estimates DROP CONSTRAINT estimates_kind_check;
ALTER TABLE estimates ADD CONSTRAINT estimates_kind_check
    CHECK (kind IN ('electricity', 'flight', 'passenger_transportation', 'shipping',
                    'multi_leg_shipping', 'transaction', 'company', 'individual',
                    'emission_factor', 'multi_leg_shipping_by_fuel'));
