-- The cart's statements as database functions (src/server/cart/service.ts calls them), so that adding a
-- piece sold as it is takes one round trip: the cart's lock, the change, the cart read back, all in
-- the call's own transaction. PL/pgSQL plans each statement once per connection, as a prepared
-- statement would be, and each statement of a volatile function sees what committed before it began,
-- so the change sees every change to the cart that the lock waited for.

-- The cart's lines with the products' current names, prices, models and counts (p_user: the user). A
-- line of a product counting per combination brings its combination's row, absent when that
-- combination is no longer sold. The combination's key is combinationKey (src/shared/product-options.ts)
-- of the line's choices: the chosen value of each of the product's groups, in group order, joined by
-- '/'. A single SELECT of a stable SQL function, so PostgreSQL plans it inside the calling statement.
CREATE FUNCTION "cart_lines"(p_user uuid)
RETURNS TABLE (
  id uuid, product_id uuid, slug text, name_en text, name_bg text, added_price_minor integer, quantity integer, stock integer,
  personalised boolean, hygiene_sealed boolean, category text, added_at timestamptz, choices text, choice_key text,
  price_minor integer, option_groups text, stock_mode text, sized boolean, questions text, lead_kind text, lead_min_days integer, lead_max_days integer,
  combination_key text, combination_stock integer
)
LANGUAGE sql STABLE AS $$
  SELECT line.id, line.product_id, product.slug, product.name_en, product.name_bg, line.price_minor,
    line.quantity, product.stock, product.personalised, product.hygiene_sealed, product.category, line.added_at, line.choices::text, line.choice_key,
    product.price_minor, product.option_groups::text, product.stock_mode, product.sized, product.questions::text, product.lead_kind, product.lead_min_days, product.lead_max_days,
    combination.key, combination.stock
  FROM cart_items line JOIN products product ON product.id = line.product_id
    LEFT JOIN product_combinations combination ON product.stock_mode = 'combination' AND combination.product_id = product.id
      AND combination.key = (SELECT string_agg(coalesce(line.choices->'options'->>(grp.value->>'id'), ''), '/' ORDER BY grp.position)
        FROM jsonb_array_elements(product.option_groups) WITH ORDINALITY AS grp(value, position))
  WHERE line.user_id = p_user
$$;
--> statement-breakpoint
-- Takes the cart's lock (the cart class of LOCK_CLASSES, src/server/db/transaction.ts; held already by
-- a caller's transaction, it is taken again at once), then adds a piece (p_quantity null) or sets the
-- quantity p_quantity of the product p_product with the choices p_choices (their key p_choice_key) in
-- the cart of p_user, under the operation id p_operation, announcing the change with
-- pg_notify(p_channel, p_payload). A new line remembers the unit price p_price_minor (null: the
-- product's price). With p_plain_only the call is for a product sold as it is, and does nothing
-- (answering `modelled`) for one that is not, whose choices the caller checks first.
--
-- The product is read with a key-share lock, so that a deletion waits until the cart's transaction
-- ends; so is the combination p_combination whose count the line draws on (null: the product's count).
-- The line is written only within that count, which the cart's other lines drawing on it share (those
-- holding p_others pieces; null: the other lines of the product), or when it shrinks (a count lowered
-- since is kept, not raised).
CREATE FUNCTION "cart_change_line"(
  p_user uuid, p_operation text, p_product uuid, p_quantity integer, p_channel text, p_payload text,
  p_choices jsonb, p_choice_key text, p_price_minor integer, p_combination text, p_others integer, p_plain_only boolean
)
RETURNS TABLE (
  -- Whether the operation id was new: nothing else happens for one seen before.
  fresh boolean,
  -- The product has options, sizes or questions and p_plain_only was given: nothing was done, the id not recorded.
  modelled boolean,
  -- Whether the line was written.
  changed boolean,
  -- The product, with its current name, and the quantity the line was to have; null when there is no such product.
  product_id uuid, name_en text, name_bg text,
  -- The count the line draws on (the product's or its combination's), and what the cart's other lines hold of it.
  stock integer, others integer, wanted integer,
  -- False when the line's combination is no longer sold.
  on_sale boolean
)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  PERFORM pg_advisory_xact_lock(1, hashtext(p_user::text));
  RETURN QUERY
  WITH product AS (
    SELECT products.id, products.name_en, products.name_bg, products.price_minor, products.stock,
      products.option_groups = '[]'::jsonb AND NOT products.sized AND products.questions = '[]'::jsonb AS plain
    FROM products WHERE products.id = p_product
    FOR KEY SHARE
  ),
  modelled AS (SELECT FROM product WHERE NOT product.plain AND p_plain_only),
  fresh AS (
    INSERT INTO applied_cart_operations (user_id, operation_id)
    SELECT p_user, p_operation WHERE NOT EXISTS (SELECT FROM modelled)
    ON CONFLICT DO NOTHING
    RETURNING operation_id
  ),
  combination AS (
    SELECT product_combinations.stock FROM product_combinations
    WHERE product_combinations.product_id = p_product AND product_combinations.key = p_combination AND EXISTS (SELECT FROM fresh)
    FOR KEY SHARE
  ),
  asked AS (
    SELECT product.id, product.name_en, product.name_bg, product.price_minor,
      coalesce(line.quantity, 0) AS held, coalesce(p_quantity, coalesce(line.quantity, 0) + 1) AS wanted,
      coalesce(p_others, (SELECT sum(other.quantity) FROM cart_items other
        WHERE other.user_id = p_user AND other.product_id = product.id AND md5(other.choice_key) <> md5(p_choice_key)), 0)::integer AS others,
      CASE WHEN p_combination IS NULL THEN product.stock ELSE (SELECT combination.stock FROM combination) END AS stock,
      p_combination IS NULL OR EXISTS (SELECT FROM combination) AS on_sale
    FROM product LEFT JOIN cart_items line ON line.user_id = p_user AND line.product_id = product.id AND md5(line.choice_key) = md5(p_choice_key)
    WHERE EXISTS (SELECT FROM fresh)
  ),
  written AS (
    INSERT INTO cart_items (user_id, product_id, name, price_minor, quantity, choices, choice_key, added_at)
    SELECT p_user, asked.id, CASE WHEN asked.name_en <> '' THEN asked.name_en ELSE asked.name_bg END, coalesce(p_price_minor, asked.price_minor), asked.wanted, p_choices, p_choice_key,
      -- Later than the cart's newest line, so that lines keep the order they were added in even
      -- where the clock has not moved on since (PGlite's clock counts whole milliseconds).
      greatest(clock_timestamp(), (SELECT max(newest.added_at) + interval '1 microsecond' FROM cart_items newest WHERE newest.user_id = p_user))
    FROM asked
    WHERE asked.wanted <= asked.held OR (asked.on_sale AND (asked.stock IS NULL OR asked.others + asked.wanted <= asked.stock))
    ON CONFLICT (user_id, product_id, (md5(choice_key))) DO UPDATE SET quantity = excluded.quantity
    RETURNING cart_items.id
  ),
  notice AS (SELECT pg_notify(p_channel, p_payload) FROM written)
  SELECT EXISTS (SELECT FROM fresh), EXISTS (SELECT FROM modelled), EXISTS (SELECT FROM written) AND (SELECT count(*) FROM notice) > 0,
    asked.id, asked.name_en, asked.name_bg, asked.stock, asked.others, asked.wanted, asked.on_sale
  FROM (SELECT) AS request LEFT JOIN asked ON true;
END;
$$;
--> statement-breakpoint
-- A piece sold as it is added (p_quantity null) or its line set to p_quantity pieces, as
-- cart_change_line does with p_plain_only, in one call: then the operation ids of the cart older than
-- p_forget_before are forgotten and the cart is read back (`lines`, JSON of cart_lines' rows, oldest
-- first). A cart that the change takes past p_max_pieces pieces raises CARTF, which undoes the call.
-- For a product with options, sizes or questions it does nothing and answers `modelled` without lines.
CREATE FUNCTION "cart_add_plain_piece"(
  p_user uuid, p_operation text, p_product uuid, p_quantity integer, p_channel text, p_payload text,
  p_forget_before timestamptz, p_max_pieces integer
)
RETURNS TABLE (
  fresh boolean, modelled boolean, changed boolean, product_id uuid, name_en text, name_bg text,
  stock integer, others integer, wanted integer, on_sale boolean, lines text
)
LANGUAGE plpgsql AS $$
DECLARE
  outcome record;
  cart text;
BEGIN
  SELECT * INTO outcome FROM cart_change_line(p_user, p_operation, p_product, p_quantity, p_channel, p_payload,
    '{"options": {}, "sizes": null, "answers": {}}'::jsonb, '', NULL, NULL, NULL, true);
  IF NOT outcome.modelled THEN
    DELETE FROM applied_cart_operations expired WHERE expired.user_id = p_user AND expired.applied_at < p_forget_before;
    SELECT coalesce(json_agg(line ORDER BY line.added_at, line.id), '[]')::text INTO cart FROM cart_lines(p_user) line;
    IF outcome.changed AND (SELECT sum(line.quantity) FROM cart_items line WHERE line.user_id = p_user) > p_max_pieces THEN
      RAISE EXCEPTION 'A cart holds at most % items.', p_max_pieces USING ERRCODE = 'CARTF';
    END IF;
  END IF;
  RETURN QUERY SELECT outcome.fresh, outcome.modelled, outcome.changed, outcome.product_id, outcome.name_en, outcome.name_bg,
    outcome.stock, outcome.others, outcome.wanted, outcome.on_sale, cart;
END;
$$;
