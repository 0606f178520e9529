-- REPLICA IDENTITY USING INDEX on code: only code is a key column.
INSERT INTO indexed VALUES (1, 'A-1', 'first');
UPDATE indexed SET label = 'still first' WHERE id = 1;
UPDATE indexed SET code = 'A-2' WHERE id = 1;
DELETE FROM indexed WHERE id = 1;
