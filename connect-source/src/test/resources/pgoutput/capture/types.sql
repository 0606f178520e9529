-- A user-defined enum and an array of it: Type messages precede the Relation.
INSERT INTO moods VALUES (1, 'happy', ARRAY['sad', 'ok']::mood[]);
