DROP TABLE job_turns;
DROP TABLE jobs;
