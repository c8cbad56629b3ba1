-- The language an admin last used the admin dashboard in (en or bg): their new-order notices come in it
-- unless ORDER_NOTIFY_LANGUAGE sets one for all. Null until they open the dashboard: English.
ALTER TABLE "admins" ADD COLUMN "language" text;
