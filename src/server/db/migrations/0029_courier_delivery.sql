CREATE TABLE "courier_office_lists" (
	"courier" text PRIMARY KEY NOT NULL,
	"refreshed_at" timestamp with time zone,
	"tried_at" timestamp with time zone NOT NULL,
	"office_count" integer DEFAULT 0 NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "courier_offices" (
	"courier" text NOT NULL,
	"id" text NOT NULL,
	"kind" text NOT NULL,
	"name_bg" text NOT NULL,
	"name_en" text NOT NULL,
	"city_bg" text NOT NULL,
	"city_en" text NOT NULL,
	"post_code" text NOT NULL,
	"address_bg" text NOT NULL,
	"address_en" text NOT NULL,
	"hours" jsonb NOT NULL,
	"accepts_cash_on_delivery" boolean NOT NULL,
	"search_key" text NOT NULL,
	"city_key" text NOT NULL,
	CONSTRAINT "courier_offices_courier_id_pk" PRIMARY KEY("courier","id"),
	CONSTRAINT "courier_offices_kind_known" CHECK ("courier_offices"."kind" in ('office', 'locker'))
);
--> statement-breakpoint
CREATE TABLE "delivery_quotes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"method" text NOT NULL,
	"destination" text NOT NULL,
	"weight_grams" integer NOT NULL,
	"fee_minor" integer NOT NULL,
	"currency" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipment_events" (
	"order_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"code" text NOT NULL,
	"description_bg" text NOT NULL,
	"description_en" text NOT NULL,
	"place" text DEFAULT '' NOT NULL,
	CONSTRAINT "shipment_events_order_id_at_code_pk" PRIMARY KEY("order_id","at","code")
);
--> statement-breakpoint
CREATE TABLE "shipments" (
	"order_id" text PRIMARY KEY NOT NULL,
	"courier" text NOT NULL,
	"state" text DEFAULT 'creating' NOT NULL,
	"tracking_number" text,
	"label_pdf" "bytea",
	"cod_minor" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone,
	"cod_paid_at" timestamp with time zone,
	"tracked_at" timestamp with time zone,
	CONSTRAINT "shipments_state_known" CHECK ("shipments"."state" in ('creating', 'created'))
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_method" text DEFAULT 'address' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_office" jsonb;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "weight_grams" integer;--> statement-breakpoint
ALTER TABLE "delivery_quotes" ADD CONSTRAINT "delivery_quotes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_events" ADD CONSTRAINT "shipment_events_order_id_shipments_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."shipments"("order_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "courier_offices_search_trgm_idx" ON "courier_offices" USING gin ("search_key" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "delivery_quotes_user_idx" ON "delivery_quotes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "shipments_tracking_idx" ON "shipments" USING btree ("tracked_at") WHERE "shipments"."state" = 'created' and "shipments"."courier" <> 'manual' and ("shipments"."delivered_at" is null or ("shipments"."cod_minor" > 0 and "shipments"."cod_paid_at" is null));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_delivery_method_known" CHECK ("orders"."delivery_method" in ('address', 'econt_office', 'econt_locker', 'econt_address', 'speedy_office', 'speedy_locker', 'speedy_address'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_delivery_office_when_needed" CHECK (("orders"."delivery_office" is null) = ("orders"."delivery_method" in ('address', 'econt_address', 'speedy_address')));