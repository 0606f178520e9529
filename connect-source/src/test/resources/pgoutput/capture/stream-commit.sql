-- A streamed transaction that commits: a released savepoint (changes under a subxid), a savepoint rolled
-- back after its rows were streamed (Stream Abort for the subxid), a transactional message and a truncate.
-- \await-decoded; lets the server stream the dropped rows before it sees their abort (see ScenarioScript).
-- ${bulk} is large enough for the server version to stream (see CaptureScenario).
BEGIN;
INSERT INTO bulk SELECT g, 'row ' || g FROM generate_series(1, ${bulk}) g;
SAVEPOINT kept;
UPDATE bulk SET payload = 'updated' WHERE id = 1;
RELEASE SAVEPOINT kept;
SAVEPOINT dropped;
INSERT INTO bulk SELECT g, 'dropped ' || g FROM generate_series(100001, 100000 + ${bulk}) g;
\await-decoded;
ROLLBACK TO SAVEPOINT dropped;
DELETE FROM bulk WHERE id = 2;
SELECT pg_logical_emit_message(true, 'pglane.test', 'streamed payload');
TRUNCATE audit;
COMMIT;
