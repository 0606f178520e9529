-- A streamed transaction written under a replication origin: Origin follows Stream Start.
SELECT pg_replication_origin_create('pglane_streamed');
SELECT pg_replication_origin_session_setup('pglane_streamed');
BEGIN;
INSERT INTO bulk SELECT g, 'from upstream ' || g FROM generate_series(500001, 500000 + ${bulk}) g;
COMMIT;
SELECT pg_replication_origin_session_reset();
