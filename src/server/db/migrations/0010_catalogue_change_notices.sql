-- Every statement that may change what the catalogue shows (a product, its stock, or the catalogue's
-- version and currency in shop_state) sends a notice on 'catalogue_touched'. The embedded database
-- delivers it to its one process before the writer's commit returns, so that process's prepared
-- catalogue answers know at once that they must check the catalogue's state again
-- (src/server/catalog/catalogue-cache.ts). Identical notices of one transaction arrive as one.
CREATE FUNCTION "notify_catalogue_touched"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalogue_touched', '');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "products_catalogue_touched" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "products"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_catalogue_touched"();
--> statement-breakpoint
CREATE TRIGGER "shop_state_catalogue_touched" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "shop_state"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_catalogue_touched"();
