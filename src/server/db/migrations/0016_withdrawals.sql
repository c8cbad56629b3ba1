CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" text NOT NULL,
	"withdrawal_id" uuid,
	"request_id" text NOT NULL,
	"amount_minor" integer NOT NULL,
	"reason" text,
	"method" text NOT NULL,
	"provider_reference" text,
	"iban" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refunds_request_id_unique" UNIQUE("request_id"),
	CONSTRAINT "refunds_amount_positive" CHECK ("refunds"."amount_minor" > 0),
	CONSTRAINT "refunds_method_known" CHECK ("refunds"."method" in ('provider', 'bank_transfer'))
);
--> statement-breakpoint
CREATE TABLE "withdrawals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" text NOT NULL,
	"request_id" text NOT NULL,
	"lines" jsonb NOT NULL,
	"full_name" text NOT NULL,
	"acknowledgement_email" text NOT NULL,
	"reason" text,
	"iban" text,
	"submitted_at" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'requested' NOT NULL,
	"received_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	CONSTRAINT "withdrawals_request_id_unique" UNIQUE("request_id"),
	CONSTRAINT "withdrawals_state_known" CHECK ("withdrawals"."state" in ('requested', 'received', 'refunded'))
);
--> statement-breakpoint
ALTER TABLE "mail_queue" ADD COLUMN "subject_id" uuid;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "personalised" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "hygiene_sealed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_withdrawal_id_withdrawals_id_fk" FOREIGN KEY ("withdrawal_id") REFERENCES "public"."withdrawals"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refunds_order_idx" ON "refunds" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE INDEX "withdrawals_order_idx" ON "withdrawals" USING btree ("order_id","submitted_at");--> statement-breakpoint
CREATE INDEX "withdrawals_submitted_idx" ON "withdrawals" USING btree ("submitted_at");