-- A streamed transaction rolled back as a whole: Stream Abort with subxid = xid.
BEGIN;
INSERT INTO bulk SELECT g, 'doomed ' || g FROM generate_series(200001, 200000 + ${bulk}) g;
-- Let the server stream the rows before it sees the ROLLBACK (see ScenarioScript).
\await-decoded;
ROLLBACK;
