CREATE TABLE "order_status_changes" (
	"order_id" text NOT NULL,
	"position" integer NOT NULL,
	"status" text NOT NULL,
	"changed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "order_status_changes_order_id_position_pk" PRIMARY KEY("order_id","position")
);
--> statement-breakpoint
ALTER TABLE "order_status_changes" ADD CONSTRAINT "order_status_changes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The history of existing orders, from what they kept: the placing (created_at), the payment
-- (payments.processed_at) and the time in each per-status column. Those columns held the latest time
-- a status was entered, so a pending_at after the placing, or a paid_at more than a second after the
-- payment (the payment and its paid_at were written a moment apart), is a later return to that status.
-- A current status without a time of its own (a legacy value written without one) is dated at the
-- order's last update. Entries of one moment are ordered as statuses progress.
WITH "ranks" ("status", "rank") AS (
	VALUES ('pending', 0), ('paid', 1), ('preparing', 2), ('ready', 3), ('sent', 4), ('delivered', 5), ('cancelled', 6)
),
"entries" ("order_id", "status", "changed_at") AS (
	SELECT "id", 'pending', "created_at" FROM "orders"
	UNION ALL SELECT "id", 'pending', "pending_at" FROM "orders" WHERE "pending_at" > "created_at"
	UNION ALL SELECT "order_id", 'paid', "processed_at" FROM "payments"
	UNION ALL SELECT o."id", 'paid', o."paid_at" FROM "orders" o LEFT JOIN "payments" p ON p."order_id" = o."id"
		WHERE o."paid_at" IS NOT NULL AND (p."processed_at" IS NULL OR o."paid_at" > p."processed_at" + interval '1 second')
	UNION ALL SELECT "id", 'preparing', "preparing_at" FROM "orders" WHERE "preparing_at" IS NOT NULL
	UNION ALL SELECT "id", 'ready', "ready_at" FROM "orders" WHERE "ready_at" IS NOT NULL
	UNION ALL SELECT "id", 'sent', "sent_at" FROM "orders" WHERE "sent_at" IS NOT NULL
	UNION ALL SELECT "id", 'delivered', "delivered_at" FROM "orders" WHERE "delivered_at" IS NOT NULL
	UNION ALL SELECT "id", 'cancelled', "cancelled_at" FROM "orders" WHERE "cancelled_at" IS NOT NULL
	UNION ALL SELECT "id", "current", "updated_at" FROM (
		SELECT o.*, CASE
			WHEN o."status" IN (SELECT "status" FROM "ranks") THEN o."status"
			WHEN o."status" = 'shipped' THEN 'sent'
			WHEN o."status" = 'completed' THEN 'delivered'
			ELSE 'pending'
		END AS "current" FROM "orders" o
	) AS "normalized"
	WHERE CASE "current"
		WHEN 'paid' THEN "paid_at" IS NULL AND NOT EXISTS (SELECT 1 FROM "payments" p WHERE p."order_id" = "normalized"."id")
		WHEN 'preparing' THEN "preparing_at" IS NULL
		WHEN 'ready' THEN "ready_at" IS NULL
		WHEN 'sent' THEN "sent_at" IS NULL
		WHEN 'delivered' THEN "delivered_at" IS NULL
		WHEN 'cancelled' THEN "cancelled_at" IS NULL
		ELSE false
	END
)
INSERT INTO "order_status_changes" ("order_id", "position", "status", "changed_at")
SELECT e."order_id", (row_number() OVER (PARTITION BY e."order_id" ORDER BY e."changed_at", r."rank") - 1)::integer, e."status", e."changed_at"
FROM "entries" e JOIN "ranks" r ON r."status" = e."status";--> statement-breakpoint
-- From now on each per-status column keeps the first time the order entered that status; existing
-- orders get theirs from the history just written (the payment's time for paid, the placing for pending).
UPDATE "orders" o SET
	"pending_at" = h."pending",
	"paid_at" = h."paid",
	"preparing_at" = h."preparing",
	"ready_at" = h."ready",
	"sent_at" = h."sent",
	"delivered_at" = h."delivered",
	"cancelled_at" = h."cancelled"
FROM (
	SELECT "order_id",
		min("changed_at") FILTER (WHERE "status" = 'pending') AS "pending",
		min("changed_at") FILTER (WHERE "status" = 'paid') AS "paid",
		min("changed_at") FILTER (WHERE "status" = 'preparing') AS "preparing",
		min("changed_at") FILTER (WHERE "status" = 'ready') AS "ready",
		min("changed_at") FILTER (WHERE "status" = 'sent') AS "sent",
		min("changed_at") FILTER (WHERE "status" = 'delivered') AS "delivered",
		min("changed_at") FILTER (WHERE "status" = 'cancelled') AS "cancelled"
	FROM "order_status_changes" GROUP BY "order_id"
) AS h
WHERE h."order_id" = o."id";--> statement-breakpoint
DROP INDEX "orders_customer_email_prefix_idx";--> statement-breakpoint
-- pg_trgm ships with PostgreSQL (contrib) and is a trusted extension: the database's owner may create it.
-- PGlite loads it in src/server/db/client.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "orders_customer_email_trgm_idx" ON "orders" USING gin ("customer_email" gin_trgm_ops) WITH (fastupdate=false);
