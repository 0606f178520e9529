-- A small transaction commits on a second session while a streamed one is open on the first.
-- Statements prefixed with /*2*/ run on the second session.
BEGIN;
INSERT INTO bulk SELECT g, 'early ' || g FROM generate_series(300001, 300000 + ${bulk}) g;
/*2*/ INSERT INTO audit (entry) VALUES ('committed in between');
INSERT INTO bulk SELECT g, 'late ' || g FROM generate_series(400001, 400003) g;
COMMIT;
