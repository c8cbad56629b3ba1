DROP INDEX "tax_documents_order_kind_idx";--> statement-breakpoint
ALTER TABLE "tax_documents" ADD COLUMN "original_pdf" "bytea";--> statement-breakpoint
CREATE UNIQUE INDEX "tax_documents_order_sale_idx" ON "tax_documents" USING btree ("order_id") WHERE "tax_documents"."kind" = 'sale_document';--> statement-breakpoint
CREATE UNIQUE INDEX "tax_documents_order_invoice_idx" ON "tax_documents" USING btree ("order_id") WHERE "tax_documents"."kind" = 'invoice' and "tax_documents"."corrects_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_documents_replaces_idx" ON "tax_documents" USING btree ("corrects_id") WHERE "tax_documents"."kind" = 'invoice';--> statement-breakpoint
CREATE UNIQUE INDEX "tax_documents_cancels_idx" ON "tax_documents" USING btree ("corrects_id") WHERE "tax_documents"."kind" = 'credit_note' and "tax_documents"."refund_id" is null;