select id, count(*) over () as total from (select id, coalesce(((stock = 0 and stock_mode = 'product') or (stock_mode = 'combination' and not exists (select 1 from product_combinations c where c.product_id = products.id and (c.stock is null or c.stock > 0)))), false) as key0, (case when search_name_words && '{nokti}' then 5 else 0 end + case when search_words && '{nokti}' then 1 else 0 end) as key1, (name_en = '') as key2, coalesce(nullif(name_en, ''), name_bg) as key3, id as key4 from products where search_words && '{nokti}' offset 0) m order by key0, key1 desc, key2, key3, key4 limit 48
====
select id from (select id, coalesce(((stock = 0 and stock_mode = 'product') or (stock_mode = 'combination' and not exists (select 1 from product_combinations c where c.product_id = products.id and (c.stock is null or c.stock > 0)))), false) as key0, (case when search_name_words && '{nokti}' then 5 else 0 end + case when search_words && '{nokti}' then 1 else 0 end) as key1, (name_en = '') as key2, coalesce(nullif(name_en, ''), name_bg) as key3, id as key4 from products where search_words && '{nokti}' offset 0) m order by key0, key1 desc, key2, key3, key4 limit 48
====
select id from (select id, coalesce(((stock = 0 and stock_mode = 'product') or (stock_mode = 'combination' and not exists (select 1 from product_combinations c where c.product_id = products.id and (c.stock is null or c.stock > 0)))), false) as key0, (case when search_name_words && '{nokti}' then 5 else 0 end) as key1, (name_en = '') as key2, coalesce(nullif(name_en, ''), name_bg) as key3, id as key4 from products where search_words && '{nokti}' offset 0) m order by key0, key1 desc, key2, key3, key4 limit 48
====
select id from (select id, coalesce(((stock = 0 and stock_mode = 'product') or (stock_mode = 'combination' and not exists (select 1 from product_combinations c where c.product_id = products.id and (c.stock is null or c.stock > 0)))), false) as key0, (case when search_name_words && '{nokti}' then 5 else 0 end) as key1 from products where search_words && '{nokti}' offset 0) m order by key0, key1 desc limit 48
====
select count(*) from products where search_words && '{nokti}'
====
select count(*) from products
====
select id from products where search_words && '{nokti}' order by name_en limit 48
====
select id from products order by name_en collate "C" limit 48
====
select id from products order by name_en limit 48 offset 0
