-- "Tell me when it is back": a buyer's alert on a sold-out product, and its one e-mail, which belongs to
-- no order (mail_queue.order_id becomes optional; the alert is the message's subject).
CREATE TABLE "stock_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"email" text NOT NULL,
	"language" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"notified_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "mail_queue" ALTER COLUMN "order_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "stock_alerts" ADD CONSTRAINT "stock_alerts_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "stock_alerts_waiting_idx" ON "stock_alerts" USING btree ("product_id","email") WHERE "stock_alerts"."notified_at" is null;--> statement-breakpoint
CREATE INDEX "stock_alerts_email_idx" ON "stock_alerts" USING btree ("email");--> statement-breakpoint
CREATE INDEX "mail_queue_alert_idx" ON "mail_queue" USING btree ("subject_id") WHERE "mail_queue"."order_id" is null;--> statement-breakpoint
ALTER TABLE "mail_queue" ADD CONSTRAINT "mail_queue_subject" CHECK (("mail_queue"."order_id" is null) = ("mail_queue"."kind" = 'back_in_stock'));--> statement-breakpoint
-- Queues the e-mail of every alert waiting on a product that can be bought now (a piece in stock or
-- made to order, of the product or of one of the combinations it counts apart), and marks those
-- alerts notified, in the transaction that made it so: whatever code wrote the count (the admin, a
-- cancelled order, a return, an import), the e-mail goes once, and only if that change commits.
CREATE FUNCTION "queue_back_in_stock_mails"(product uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	IF NOT EXISTS (SELECT 1 FROM "stock_alerts" WHERE "product_id" = product AND "notified_at" IS NULL) THEN
		RETURN;
	END IF;
	IF NOT (SELECT CASE WHEN p."stock_mode" = 'combination'
			THEN EXISTS (SELECT 1 FROM "product_combinations" c WHERE c."product_id" = p."id" AND (c."stock" IS NULL OR c."stock" > 0))
			ELSE p."stock" IS DISTINCT FROM 0 END
		FROM "products" p WHERE p."id" = product) THEN
		RETURN;
	END IF;
	WITH "told" AS (
		UPDATE "stock_alerts" SET "notified_at" = now() WHERE "product_id" = product AND "notified_at" IS NULL
		RETURNING "id", "email", "language"
	)
	INSERT INTO "mail_queue" ("kind", "subject_id", "recipient", "language") SELECT 'back_in_stock', "id", "email", "language" FROM "told";
	PERFORM pg_notify('mail_queue', '');
END
$$;--> statement-breakpoint
CREATE FUNCTION "products_back_in_stock"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM "queue_back_in_stock_mails"(NEW."id");
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "product_combinations_back_in_stock"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM "queue_back_in_stock_mails"(NEW."product_id");
	RETURN NULL;
END
$$;--> statement-breakpoint
-- Only a count leaving 0 (or a change of how the product is counted) can make a piece buyable: a sale,
-- which lowers a count, never calls the function. An alert is only taken while the product is sold
-- out, its row locked against such a change (stock-alerts/service.ts), so none waits on a buyable one.
CREATE TRIGGER "products_back_in_stock" AFTER UPDATE OF "stock", "stock_mode" ON "products"
	FOR EACH ROW WHEN ((OLD."stock" = 0 AND NEW."stock" IS DISTINCT FROM 0) OR OLD."stock_mode" IS DISTINCT FROM NEW."stock_mode")
	EXECUTE FUNCTION "products_back_in_stock"();--> statement-breakpoint
CREATE TRIGGER "product_combinations_back_in_stock_changed" AFTER UPDATE OF "stock" ON "product_combinations"
	FOR EACH ROW WHEN (OLD."stock" = 0 AND NEW."stock" IS DISTINCT FROM 0)
	EXECUTE FUNCTION "product_combinations_back_in_stock"();--> statement-breakpoint
CREATE TRIGGER "product_combinations_back_in_stock_added" AFTER INSERT ON "product_combinations"
	FOR EACH ROW WHEN (NEW."stock" IS DISTINCT FROM 0)
	EXECUTE FUNCTION "product_combinations_back_in_stock"();
