DROP TABLE pay_temporary_ids;
DROP TABLE account_pay_origins;
