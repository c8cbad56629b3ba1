ALTER TABLE "orders" ADD COLUMN "accepted_at" timestamp with time zone;--> statement-breakpoint
-- Cash-on-delivery orders were placed as pending, as if a payment were awaited online; they are placed
-- as accepted now (docs/decisions/0016). The placing entry of each one's history becomes accepted.
UPDATE "order_status_changes" c SET "status" = 'accepted'
FROM "orders" o
WHERE o."id" = c."order_id" AND o."payment_method" = 'cash_on_delivery' AND c."position" = 0 AND c."status" IN ('pending', 'ordered');--> statement-breakpoint
-- An order still as it was placed (read as pending: pending, the legacy ordered, or a value no status
-- has) is accepted since its creation. One that an admin moved on keeps its status; one an admin set
-- back to pending keeps that too, with the time it did so.
UPDATE "orders" o SET
	"status" = CASE
		WHEN o."status" NOT IN ('paid', 'preparing', 'ready', 'sent', 'delivered', 'cancelled', 'shipped', 'completed')
			AND NOT EXISTS (SELECT 1 FROM "order_status_changes" c WHERE c."order_id" = o."id" AND c."position" > 0)
		THEN 'accepted'
		ELSE o."status"
	END,
	"accepted_at" = o."created_at",
	"pending_at" = (SELECT min(c."changed_at") FROM "order_status_changes" c WHERE c."order_id" = o."id" AND c."status" IN ('pending', 'ordered'))
WHERE o."payment_method" = 'cash_on_delivery';
