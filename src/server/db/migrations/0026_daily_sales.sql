CREATE TABLE "product_sales_days" (
	"day" date NOT NULL,
	"product_id" uuid NOT NULL,
	"pieces" integer NOT NULL,
	"revenue_bgn_minor" bigint NOT NULL,
	"revenue_eur_minor" bigint NOT NULL,
	CONSTRAINT "product_sales_days_day_product_id_pk" PRIMARY KEY("day","product_id")
);
--> statement-breakpoint
CREATE TABLE "sales_days" (
	"day" date PRIMARY KEY NOT NULL,
	"orders" integer NOT NULL,
	"revenue_bgn_minor" bigint NOT NULL,
	"revenue_eur_minor" bigint NOT NULL
);
--> statement-breakpoint
-- A change to the orders of a day that may already be summed (placed more than 30 minutes before the
-- change: the dashboard sums only days that ended more than an hour ago) deletes that day's sums, so that
-- the next dashboard sums it again. The shared advisory lock (5, 0) (LOCK_CLASSES.salesDays) waits for a summing under way (which holds it
-- alone) to commit, and makes it wait for this change to commit, so that no sum misses a change.
CREATE FUNCTION "forget_sales_day"(moment timestamptz) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  sofia_day date := (moment AT TIME ZONE 'Europe/Sofia')::date;
BEGIN
  PERFORM pg_advisory_xact_lock_shared(5, 0);
  DELETE FROM "sales_days" WHERE "day" = sofia_day;
  DELETE FROM "product_sales_days" WHERE "day" = sofia_day;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION "orders_forget_sales_days"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM "forget_sales_day"(OLD."created_at"); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM "forget_sales_day"(NEW."created_at"); END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION "order_items_forget_sales_days"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM "forget_sales_day"(OLD."ordered_at"); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM "forget_sales_day"(NEW."ordered_at"); END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION "forget_all_sales_days"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(5, 0);
  DELETE FROM "sales_days";
  DELETE FROM "product_sales_days";
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "orders_placed_earlier" AFTER INSERT ON "orders" FOR EACH ROW
  WHEN (NEW."created_at" < now() - interval '30 minutes') EXECUTE FUNCTION "orders_forget_sales_days"();
--> statement-breakpoint
CREATE TRIGGER "orders_changed_sales" AFTER UPDATE OF "status", "total_minor", "currency", "created_at" ON "orders" FOR EACH ROW
  WHEN (least(OLD."created_at", NEW."created_at") < now() - interval '30 minutes'
    AND ((OLD."status" = 'cancelled') IS DISTINCT FROM (NEW."status" = 'cancelled') OR OLD."total_minor" <> NEW."total_minor"
      OR OLD."currency" <> NEW."currency" OR OLD."created_at" <> NEW."created_at"))
  EXECUTE FUNCTION "orders_forget_sales_days"();
--> statement-breakpoint
CREATE TRIGGER "orders_deleted_sales" AFTER DELETE ON "orders" FOR EACH ROW
  WHEN (OLD."created_at" < now() - interval '30 minutes') EXECUTE FUNCTION "orders_forget_sales_days"();
--> statement-breakpoint
CREATE TRIGGER "orders_truncated_sales" AFTER TRUNCATE ON "orders" FOR EACH STATEMENT EXECUTE FUNCTION "forget_all_sales_days"();
--> statement-breakpoint
CREATE TRIGGER "order_items_placed_earlier" AFTER INSERT ON "order_items" FOR EACH ROW
  WHEN (NEW."ordered_at" < now() - interval '30 minutes') EXECUTE FUNCTION "order_items_forget_sales_days"();
--> statement-breakpoint
-- Not product_id: a product's deletion empties it on its lines, and its rows are then left unread.
CREATE TRIGGER "order_items_changed_sales" AFTER UPDATE OF "quantity", "price_minor", "discount_minor", "ordered_at" ON "order_items" FOR EACH ROW
  WHEN (least(OLD."ordered_at", NEW."ordered_at") < now() - interval '30 minutes'
    AND (OLD."quantity" <> NEW."quantity" OR OLD."price_minor" <> NEW."price_minor"
      OR OLD."discount_minor" <> NEW."discount_minor" OR OLD."ordered_at" <> NEW."ordered_at"))
  EXECUTE FUNCTION "order_items_forget_sales_days"();
--> statement-breakpoint
CREATE TRIGGER "order_items_deleted_sales" AFTER DELETE ON "order_items" FOR EACH ROW
  WHEN (OLD."ordered_at" < now() - interval '30 minutes') EXECUTE FUNCTION "order_items_forget_sales_days"();
--> statement-breakpoint
CREATE TRIGGER "order_items_truncated_sales" AFTER TRUNCATE ON "order_items" FOR EACH STATEMENT EXECUTE FUNCTION "forget_all_sales_days"();
