select count(*) from narrow where word_ids && '{19}'
====
select product_id, count(*) over () as total from (select product_id, sold_out as key0, (case when name_ids && '{19}' then 5 else 0 end + case when word_ids && '{19}' then 1 else 0 end) as key1, name_key as key3, product_id as key4 from narrow where word_ids && '{19}' offset 0) m order by key0, key1 desc, key3, key4 limit 48
====
select product_id, count(*) over () as total from (select product_id, sold_out as key0, (case when name_ids && '{19}' then 5 else 0 end) as key1, name_order from narrow2 where word_ids && '{19}' offset 0) m order by key0, key1 desc, name_order limit 48
====
select product_id from (select product_id, sold_out as key0, (case when name_ids && '{19}' then 5 else 0 end) as key1, name_order from narrow2 where word_ids && '{19}' offset 0) m order by key0, key1 desc, name_order limit 48
