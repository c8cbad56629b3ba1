import { getTableColumns, is, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { PgJson, PgJsonb, type PgTable } from 'drizzle-orm/pg-core';

// Any number of rows written by a statement of one text, as a PreparedQuery needs: the rows go as one
// JSON parameter, which jsonb_populate_recordset reads into the table's row type. A JSON key is a
// column's name in the database and its value what the column would send (a timestamp as ISO text),
// but for json and jsonb columns, whose values stay JSON. Columns whose values JSON cannot carry as
// the column sends them (bytea, bigint) are not for this.

/** An insert of the rows given as jsonRows(table, keys, rows) in the placeholder; the columns not named take their defaults. */
export function insertFromJson<Table extends PgTable>(table: Table, keys: readonly (keyof Table['$inferInsert'] & string)[], rows: Placeholder): SQL {
  const columns = sql.join(
    columnsOf(table, keys).map((column) => sql.identifier(column.name)),
    sql`, `,
  );
  return sql`insert into ${table} (${columns}) select ${columns} from jsonb_populate_recordset(null::${table}, ${rows}::jsonb)`;
}

/** The rows' values of these columns as the JSON insertFromJson reads. */
export function jsonRows<Table extends PgTable>(table: Table, keys: readonly (keyof Table['$inferInsert'] & string)[], rows: readonly Table['$inferInsert'][]): string {
  const columns = columnsOf(table, keys);
  return JSON.stringify(
    rows.map((row) =>
      Object.fromEntries(
        columns.map((column, index) => {
          const value: unknown = row[keys[index]!];
          return [column.name, value === null || value === undefined || is(column, PgJsonb) || is(column, PgJson) ? (value ?? null) : column.mapToDriverValue(value)];
        }),
      ),
    ),
  );
}

function columnsOf<Table extends PgTable>(table: Table, keys: readonly (keyof Table['$inferInsert'] & string)[]) {
  const columns = getTableColumns(table);
  return keys.map((key) => {
    const column = columns[key];
    if (!column) throw new Error(`${key} is not a column`);
    return column;
  });
}
