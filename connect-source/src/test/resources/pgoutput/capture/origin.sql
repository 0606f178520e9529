-- A transaction written under a replication origin, with the origin's commit LSN and time.
SELECT pg_replication_origin_create('pglane_upstream');
SELECT pg_replication_origin_session_setup('pglane_upstream');
BEGIN;
SELECT pg_replication_origin_xact_setup('0/1A2B3C4D', '2024-05-01 12:00:00+00');
INSERT INTO audit (entry) VALUES ('from upstream');
COMMIT;
SELECT pg_replication_origin_session_reset();
