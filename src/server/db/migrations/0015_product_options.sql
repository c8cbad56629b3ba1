CREATE TABLE "product_combinations" (
	"product_id" uuid NOT NULL,
	"key" text NOT NULL,
	"stock" integer,
	CONSTRAINT "product_combinations_product_id_key_pk" PRIMARY KEY("product_id","key"),
	CONSTRAINT "product_combinations_stock_not_negative" CHECK ("product_combinations"."stock" >= 0)
);
--> statement-breakpoint
DROP INDEX "cart_items_user_product_idx";--> statement-breakpoint
ALTER TABLE "cart_items" ADD COLUMN "choices" jsonb DEFAULT '{"options":{},"sizes":null,"answers":{}}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "cart_items" ADD COLUMN "choice_key" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "choices" jsonb DEFAULT '{"options":[],"sizes":null,"answers":[]}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "combination_key" text;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "dispatch_by" date;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "dispatch_by" date;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "option_groups" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "stock_mode" text DEFAULT 'product' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "sized" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "questions" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "lead_kind" text DEFAULT 'ready' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "lead_min_days" integer DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "lead_max_days" integer DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "stock_changes" ADD COLUMN "combination_key" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "nail_sizes" jsonb;--> statement-breakpoint
ALTER TABLE "product_combinations" ADD CONSTRAINT "product_combinations_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cart_items_user_product_choice_idx" ON "cart_items" USING btree ("user_id","product_id",md5("choice_key"));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_stock_mode_known" CHECK ("products"."stock_mode" in ('product', 'combination'));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_lead_kind_known" CHECK ("products"."lead_kind" in ('ready', 'made_to_order'));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_lead_days_ordered" CHECK (0 <= "products"."lead_min_days" and "products"."lead_min_days" <= "products"."lead_max_days");--> statement-breakpoint
-- Pieces made to order promised the usual making time before they had one of their own.
UPDATE "products" SET "lead_kind" = 'made_to_order', "lead_min_days" = 5, "lead_max_days" = 10 WHERE "stock" IS NULL;
--> statement-breakpoint
-- Orders change the counts of combinations as they do products' counts: the catalogue's prepared answers hear of it (0010).
CREATE TRIGGER "product_combinations_catalogue_touched" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "product_combinations"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_catalogue_touched"();
