-- System jobs: recurring sweeps of the server (the test-order pipeline, the
-- expiry of unconfirmed link orders) are jobs of no account. They take
-- their turn by their due time among the accounts' turns (job_turns keeps
-- accounts only) and come back after their interval.
ALTER TABLE jobs ALTER COLUMN account_id DROP NOT NULL;
