CREATE TABLE "product_photos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"image_key" text NOT NULL,
	"alt_en" text DEFAULT '' NOT NULL,
	"alt_bg" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_slugs" (
	"slug" text PRIMARY KEY NOT NULL,
	"product_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_items" RENAME COLUMN "name" TO "name_en";--> statement-breakpoint
ALTER TABLE "products" RENAME COLUMN "name" TO "name_en";--> statement-breakpoint
ALTER TABLE "products" RENAME COLUMN "description" TO "description_en";--> statement-breakpoint
DROP INDEX "products_name_idx";--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "name_bg" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "name_bg" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "description_bg" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "slug" text;--> statement-breakpoint
-- Existing products get slugs from their names: Bulgarian letters in the official transliteration,
-- anything else but a-z and 0-9 a hyphen; a name whose slug an older product has gets the beginning of its id appended. The
-- server makes new slugs with shared/slug.ts (which also writes a final "ия" as "ia").
UPDATE "products" SET "slug" = numbered."slug"
FROM (
  SELECT "id", CASE WHEN row_number() OVER (PARTITION BY base ORDER BY "created_at", "id") = 1 THEN base
    ELSE base || '-' || left("id"::text, 8) END AS "slug"
  FROM (
    SELECT "id", "created_at", coalesce(nullif(trim(both '-' from left(regexp_replace(
      translate(
        replace(replace(replace(replace(replace(replace(replace(
          lower(translate("name_en", 'АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЬЮЯ', 'абвгдежзийклмнопрстуфхцчшщъьюя')),
          'щ', 'sht'), 'ж', 'zh'), 'ц', 'ts'), 'ч', 'ch'), 'ш', 'sh'), 'ю', 'yu'), 'я', 'ya'),
        'абвгдезийклмнопрстуфхъь', 'abvgdeziyklmnoprstufhay'),
      '[^a-z0-9]+', '-', 'g'), 80)), ''), 'product') AS base
    FROM "products"
  ) AS bases
) AS numbered
WHERE "products"."id" = numbered."id";--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "slug" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "product_photos" ADD CONSTRAINT "product_photos_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_slugs" ADD CONSTRAINT "product_slugs_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_photos_product_idx" ON "product_photos" USING btree ("product_id","position");--> statement-breakpoint
CREATE INDEX "product_slugs_product_idx" ON "product_slugs" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "products_slug_idx" ON "products" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "products_category_name_idx" ON "products" USING btree ("category","name_en");--> statement-breakpoint
CREATE INDEX "products_price_idx" ON "products" USING btree ("price_minor");--> statement-breakpoint
CREATE INDEX "products_created_idx" ON "products" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "products_search_trgm_idx" ON "products" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "products_name_idx" ON "products" USING btree ("name_en");--> statement-breakpoint
CREATE INDEX "products_name_en_order_idx" ON "products" USING btree (("name_en" = ''),coalesce(nullif("name_en", ''), "name_bg"),"id");--> statement-breakpoint
CREATE INDEX "products_name_bg_order_idx" ON "products" USING btree (("name_bg" = ''),coalesce(nullif("name_bg", ''), "name_en"),"id");--> statement-breakpoint
-- Each product's one image becomes its cover photo.
INSERT INTO "product_photos" ("product_id", "position", "image_key", "created_at")
SELECT "id", 0, "image_key", "updated_at" FROM "products" WHERE "image_key" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "products" DROP COLUMN "image_key";