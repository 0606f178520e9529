-- pg_logical_emit_message: transactional (with a row, and alone), non-transactional text and binary.
BEGIN;
INSERT INTO audit (entry) VALUES ('with message');
SELECT pg_logical_emit_message(true, 'pglane.test', 'transactional payload');
COMMIT;
SELECT pg_logical_emit_message(true, 'pglane.test', 'alone in its transaction');
SELECT pg_logical_emit_message(false, 'pglane.test', 'immediate payload');
SELECT pg_logical_emit_message(false, 'pglane.binary', '\x00ff10'::bytea);
