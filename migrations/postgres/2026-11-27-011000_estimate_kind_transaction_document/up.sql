-- Transaction document estimates (client 3.9.2's
-- POST /estimates/transaction-documents) are an eleventh kind.
ALTER TABLE estimates DROP CONSTRAINT estimates_kind_check;
ALTER TABLE estimates ADD CONSTRAINT estimates_kind_check
    CHECK (kind IN ('electricity', 'flight', 'passenger_transportation', 'shipping',
                    'multi_leg_shipping', 'transaction', 'company', 'individual',
                    'emission_factor', 'multi_leg_shipping_by_fuel', 'transaction_document'));
