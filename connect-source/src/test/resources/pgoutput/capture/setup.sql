-- Tables and publication shared by every capture scenario (run once, before the slot exists).
CREATE SCHEMA shop;
CREATE TABLE shop.items (id integer PRIMARY KEY, name text NOT NULL, price numeric(10,2), note text);
CREATE TABLE full_rows (id integer PRIMARY KEY, name text, qty integer);
ALTER TABLE full_rows REPLICA IDENTITY FULL;
CREATE TABLE indexed (id integer NOT NULL, code text NOT NULL, label text);
CREATE UNIQUE INDEX indexed_code ON indexed (code);
ALTER TABLE indexed REPLICA IDENTITY USING INDEX indexed_code;
CREATE TABLE documents (id integer PRIMARY KEY, title text, body text);
-- EXTERNAL: long bodies go out of line uncompressed, so an UPDATE that leaves them alone sends 'u'.
ALTER TABLE documents ALTER COLUMN body SET STORAGE EXTERNAL;
CREATE TABLE parents (id serial PRIMARY KEY, name text);
CREATE TABLE children (id serial PRIMARY KEY, parent_id integer REFERENCES parents (id));
CREATE TABLE audit (id bigserial PRIMARY KEY, entry text);
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
CREATE TABLE moods (id integer PRIMARY KEY, current mood, history mood[]);
CREATE TABLE bulk (id integer PRIMARY KEY, payload text);
CREATE PUBLICATION pglane_capture FOR ALL TABLES;
