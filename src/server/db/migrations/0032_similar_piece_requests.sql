CREATE TABLE "similar_piece_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid,
	"product_name_en" text NOT NULL,
	"product_name_bg" text NOT NULL,
	"email" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"language" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"handled_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "similar_piece_requests" ADD CONSTRAINT "similar_piece_requests_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "similar_piece_requests_open_idx" ON "similar_piece_requests" USING btree ("product_id","email") WHERE "similar_piece_requests"."handled_at" is null;--> statement-breakpoint
CREATE INDEX "similar_piece_requests_list_idx" ON "similar_piece_requests" USING btree ("created_at") WHERE "similar_piece_requests"."handled_at" is null;