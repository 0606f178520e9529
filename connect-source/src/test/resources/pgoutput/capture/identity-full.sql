-- REPLICA IDENTITY FULL: updates and deletes carry the whole old row ('O').
INSERT INTO full_rows VALUES (1, 'one', 5), (2, 'two', NULL);
UPDATE full_rows SET qty = 6 WHERE id = 1;
DELETE FROM full_rows WHERE id = 2;
