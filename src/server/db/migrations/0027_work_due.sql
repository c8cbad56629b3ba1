DROP INDEX "order_items_order_work_idx";--> statement-breakpoint
-- Added as false, which is instant, and set on the few lines of open orders; true is the default after.
ALTER TABLE "order_items" ADD COLUMN "on_work_list" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- The stored values of WORK_LIST_STATUSES (src/shared/work-list.ts), legacy ones included (storedValuesOf);
-- tests/api/work-list.test.ts checks that the two agree.
CREATE FUNCTION "is_on_work_list"(status text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT status IN ('pending', 'ordered', 'accepted', 'paid', 'preparing')
$$;
--> statement-breakpoint
UPDATE "order_items" SET "on_work_list" = true FROM "orders"
  WHERE "orders"."id" = "order_items"."order_id" AND "is_on_work_list"("orders"."status");--> statement-breakpoint
ALTER TABLE "order_items" ALTER COLUMN "on_work_list" SET DEFAULT true;--> statement-breakpoint
CREATE INDEX "order_items_work_due_idx" ON "order_items" USING btree ("dispatch_by","quantity") WHERE "order_items"."on_work_list" and not "order_items"."gift_card";--> statement-breakpoint
-- A line takes its order's place on the work list as it is written (its order is written first)...
CREATE FUNCTION "order_items_take_work_list"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT "is_on_work_list"("status") INTO NEW."on_work_list" FROM "orders" WHERE "id" = NEW."order_id";
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "order_items_take_work_list" BEFORE INSERT ON "order_items" FOR EACH ROW EXECUTE FUNCTION "order_items_take_work_list"();
--> statement-breakpoint
-- ...and follows it as the order's status comes onto the list or leaves it.
CREATE FUNCTION "orders_move_work_list"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "order_items" SET "on_work_list" = "is_on_work_list"(NEW."status") WHERE "order_id" = NEW."id";
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "orders_move_work_list" AFTER UPDATE OF "status" ON "orders" FOR EACH ROW
  WHEN ("is_on_work_list"(OLD."status") IS DISTINCT FROM "is_on_work_list"(NEW."status"))
  EXECUTE FUNCTION "orders_move_work_list"();
