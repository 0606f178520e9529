-- An out-of-line body: unchanged by the first update ('u'), replaced by the second ('t').
INSERT INTO documents VALUES (1, 'draft', repeat('0123456789abcdef', 200));
UPDATE documents SET title = 'final' WHERE id = 1;
UPDATE documents SET body = repeat('fedcba9876543210', 150) WHERE id = 1;
