CREATE TABLE "stock_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"order_id" text,
	"change" integer NOT NULL,
	"stock_after" integer,
	"reason" text NOT NULL,
	"changed_by" text,
	"changed_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	CONSTRAINT "stock_changes_reason_known" CHECK ("stock_changes"."reason" in ('sold', 'returned', 'retaken', 'set'))
);
--> statement-breakpoint
ALTER TABLE "cart_items" ADD COLUMN "quantity" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "quantity" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "stock" integer;--> statement-breakpoint
ALTER TABLE "stock_changes" ADD CONSTRAINT "stock_changes_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_changes" ADD CONSTRAINT "stock_changes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stock_changes_product_idx" ON "stock_changes" USING btree ("product_id","changed_at");--> statement-breakpoint
CREATE INDEX "stock_changes_order_idx" ON "stock_changes" USING btree ("order_id");--> statement-breakpoint
-- A cart held one line per piece; it now holds one line per product with a quantity. The oldest
-- line of each product stays (keeping its place and the price it was added at) and counts them all.
WITH "ranked" AS (
	SELECT "id", "user_id", "product_id",
		row_number() OVER (PARTITION BY "user_id", "product_id" ORDER BY "added_at", "id") AS "rank",
		count(*) OVER (PARTITION BY "user_id", "product_id") AS "pieces"
	FROM "cart_items"
)
UPDATE "cart_items" SET "quantity" = "ranked"."pieces" FROM "ranked"
	WHERE "cart_items"."id" = "ranked"."id" AND "ranked"."rank" = 1 AND "ranked"."pieces" > 1;--> statement-breakpoint
DELETE FROM "cart_items" WHERE "id" IN (
	SELECT "id" FROM (
		SELECT "id", row_number() OVER (PARTITION BY "user_id", "product_id" ORDER BY "added_at", "id") AS "rank" FROM "cart_items"
	) AS "lines" WHERE "rank" > 1
);--> statement-breakpoint
CREATE UNIQUE INDEX "cart_items_user_product_idx" ON "cart_items" USING btree ("user_id","product_id");--> statement-breakpoint
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_quantity_positive" CHECK ("cart_items"."quantity" > 0);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_stock_not_negative" CHECK ("products"."stock" >= 0);