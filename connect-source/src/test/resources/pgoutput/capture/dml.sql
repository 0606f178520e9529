-- DEFAULT replica identity (primary key): insert, NULLs, non-key update (no old tuple),
-- key change (old key 'K'), delete ('K').
INSERT INTO shop.items VALUES (1, 'apple', 1.50, NULL);
INSERT INTO shop.items VALUES (2, 'pear', NULL, 'ripe ünïcode ✓');
BEGIN;
UPDATE shop.items SET price = 1.75 WHERE id = 1;
UPDATE shop.items SET id = 10 WHERE id = 2;
DELETE FROM shop.items WHERE id = 1;
COMMIT;
