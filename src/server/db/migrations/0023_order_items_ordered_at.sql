ALTER TABLE "order_items" ADD COLUMN "ordered_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- The lines of orders placed before this migration take their order's time.
UPDATE "order_items" SET "ordered_at" = "orders"."created_at" FROM "orders" WHERE "orders"."id" = "order_items"."order_id";--> statement-breakpoint
CREATE INDEX "order_items_ordered_sales_idx" ON "order_items" USING btree ("ordered_at","product_id","quantity","price_minor","discount_minor","order_id");