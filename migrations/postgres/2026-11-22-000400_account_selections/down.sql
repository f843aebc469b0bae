DROP TABLE account_bundle_selections;
