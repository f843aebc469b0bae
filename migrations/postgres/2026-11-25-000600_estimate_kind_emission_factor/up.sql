-- Estimates from a chosen emission factor (POST /estimates/emission-factor) are a
-- ninth kind.
ALTER TABLE estimates DROP CONSTRAINT estimates_kind_check;
ALTER TABLE estimates ADD CONSTRAINT estimates_kind_check
    CHECK (kind IN ('electricity', 'flight', 'passenger_transportation', 'shipping',
                    'multi_leg_shipping', 'transaction', 'company', 'individual',
                    'emission_factor'));
