-- A search's likeness to a product was computed against each product's whole text, row by row (about
-- 30 µs a row). It is now computed against the catalogue's distinct words through a trigram index; the
-- products holding the words found are read through an index on their words, and ranked by which of
-- those words their names hold.
CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
DROP INDEX "products_search_trgm_idx";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_words" text[] GENERATED ALWAYS AS (string_to_array(search_text, ' ')) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_name_words" text[] GENERATED ALWAYS AS (string_to_array(search_name, ' ')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "search_words_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "products_search_words_idx" ON "products" USING gin ("search_words") WITH (fastupdate=false);--> statement-breakpoint
INSERT INTO "search_words" ("word") SELECT DISTINCT unnest("search_words") FROM "products";--> statement-breakpoint
-- Triggers add a product's new words whatever writes it (the admin, an import, a script). The words go in
-- sorted, so that two writers adding the same words wait for each other in one order; product writes
-- take the catalogue's version row first anyway (catalogueChanged).
CREATE FUNCTION "products_add_search_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "search_words" ("word") SELECT DISTINCT unnest(NEW."search_words") ORDER BY 1 ON CONFLICT DO NOTHING;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "products_search_words_added" AFTER INSERT ON "products"
	FOR EACH ROW EXECUTE FUNCTION "products_add_search_words"();--> statement-breakpoint
-- Checked without calling the function, so a change of stock or price costs nothing here.
CREATE TRIGGER "products_search_words_changed" AFTER UPDATE OF "search_text" ON "products"
	FOR EACH ROW WHEN (OLD."search_text" IS DISTINCT FROM NEW."search_text") EXECUTE FUNCTION "products_add_search_words"();
