CREATE TABLE "gift_cards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"currency" text NOT NULL,
	"initial_minor" integer NOT NULL,
	"balance_minor" integer NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"order_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gift_cards_code_unique" UNIQUE("code"),
	CONSTRAINT "gift_cards_balance_within" CHECK ("gift_cards"."balance_minor" >= 0 and "gift_cards"."balance_minor" <= "gift_cards"."initial_minor"),
	CONSTRAINT "gift_cards_currency_known" CHECK ("gift_cards"."currency" in ('BGN', 'EUR'))
);
--> statement-breakpoint
ALTER TABLE "products" DROP CONSTRAINT "products_category_known";--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "gift_card" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "gift_card_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "gift_card_ending" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "gift_card_minor" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "gift_cards" ADD CONSTRAINT "gift_cards_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gift_cards_order_idx" ON "gift_cards" USING btree ("order_id") WHERE "gift_cards"."order_id" is not null;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_gift_card_id_gift_cards_id_fk" FOREIGN KEY ("gift_card_id") REFERENCES "public"."gift_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_gift_card_idx" ON "orders" USING btree ("gift_card_id") WHERE "orders"."gift_card_id" is not null;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_gift_card_within_total" CHECK ("orders"."gift_card_minor" >= 0 and "orders"."gift_card_minor" <= "orders"."total_minor");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_category_known" CHECK ("products"."category" in ('', 'nails', 'nail-art', 'accessories', 'kits', 'gift-cards'));