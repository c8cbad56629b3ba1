CREATE TABLE "document_counters" (
	"series" text PRIMARY KEY NOT NULL,
	"next_number" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tax_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"series" text NOT NULL,
	"number" bigint NOT NULL,
	"order_id" text NOT NULL,
	"corrects_id" uuid,
	"refund_id" uuid,
	"issued_at" timestamp with time zone NOT NULL,
	"currency" text NOT NULL,
	"total_minor" integer NOT NULL,
	"content" jsonb NOT NULL,
	CONSTRAINT "tax_documents_kind_known" CHECK ("tax_documents"."kind" in ('invoice', 'credit_note', 'sale_document')),
	CONSTRAINT "tax_documents_series_known" CHECK ("tax_documents"."series" in ('invoice', 'sale'))
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "invoice_buyer" jsonb;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "invoice_buyer" jsonb;--> statement-breakpoint
ALTER TABLE "tax_documents" ADD CONSTRAINT "tax_documents_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_documents_series_number_idx" ON "tax_documents" USING btree ("series","number");--> statement-breakpoint
CREATE INDEX "tax_documents_order_idx" ON "tax_documents" USING btree ("order_id","issued_at");--> statement-breakpoint
CREATE INDEX "tax_documents_issued_idx" ON "tax_documents" USING btree ("issued_at");--> statement-breakpoint
CREATE UNIQUE INDEX "tax_documents_order_kind_idx" ON "tax_documents" USING btree ("order_id","kind") WHERE "tax_documents"."kind" in ('invoice', 'sale_document');--> statement-breakpoint
CREATE UNIQUE INDEX "tax_documents_refund_idx" ON "tax_documents" USING btree ("refund_id");