import { is, Param, Placeholder, SQL, type Query } from 'drizzle-orm';
import { PgDialect, type PgColumn, type SelectedFieldsOrdered } from 'drizzle-orm/pg-core';
import { PgliteSession } from 'drizzle-orm/pglite';
import type { Database, Executor } from './client.js';

/** What a prepared statement's parameters may be. */
export type PreparedValue = string | number | boolean | null;

/**
 * A statement that the database parses and plans once per connection and then only runs with new
 * values, for the busiest requests: planning a statement of a few joins or common table
 * expressions costs PGlite several times what running it does (about 0.8 of 1 ms for a cart read).
 *
 * On PostgreSQL it is a named statement of the extended protocol, which node-postgres parses once on
 * each pooled connection. PGlite's driver has no named statements, so there the SQL command PREPARE
 * makes it, once for each database (PGlite is one session for the process), and EXECUTE runs it
 * with its values written as literals; PREPARE is not undone by a rollback, so it may happen in any
 * transaction. The text names its parameters $1, $2… with casts wherever their type is not plain
 * from the context, so that both ways read them alike.
 */
export class PreparedStatement<Row extends Record<string, unknown>> {
  /**
   * The PREPARE of each database: requests arriving together wait for the one PREPARE rather than
   * each sending their own (the second would fail, the name being taken). Keyed by the database
   * rather than the transaction, since a transaction is a new object each time.
   */
  private readonly preparing = new WeakMap<Database, { done: Promise<unknown>; settled: boolean }>();

  constructor(
    /** Unique in the process: PostgreSQL keeps the statement under this name. */
    private readonly name: string,
    private readonly text: string,
    /** The columns it returns, to read its rows as Drizzle reads a query's (names and values mapped); without them, rows as the driver gives them. */
    private readonly fields?: SelectedFieldsOrdered,
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Invalid prepared statement name ${name}`);
  }

  /** Runs the statement with the values, on the database or in a transaction of it. */
  async run(database: Database, executor: Executor, values: readonly PreparedValue[]): Promise<Row[]> {
    const { session } = executor._;
    if (!is(session, PgliteSession)) return this.query(executor, { sql: this.text, params: [...values] }, this.name);
    const preparing = this.preparing.get(database);
    if (!preparing) {
      await this.prepare(database, executor);
    } else if (!preparing.settled) {
      // A transaction must not wait for a PREPARE sent outside it: PGlite runs that one only once
      // the transaction has ended. It runs the statement unprepared this once instead.
      if (executor !== database) return this.runUnprepared(executor, values);
      await preparing.done;
    }
    // EXECUTE takes no parentheses when there are no values.
    const execute = values.length > 0 ? `execute ${this.name}(${values.map(literal).join(', ')})` : `execute ${this.name}`;
    return this.query(executor, { sql: execute, params: [] });
  }

  /** Sends the query (named: prepared once per connection), its rows read through the fields when the statement has them. */
  private async query(executor: Executor, query: Query, name?: string): Promise<Row[]> {
    const result: unknown = await executor._.session.prepareQuery(query, this.fields, name, this.fields !== undefined).execute();
    return this.fields ? (result as Row[]) : rowsOf<Row>(result);
  }

  private async prepare(database: Database, executor: Executor): Promise<void> {
    const preparing = { done: executor._.session.prepareQuery({ sql: `prepare ${this.name} as ${this.text}`, params: [] }, undefined, undefined, false).execute(), settled: false };
    this.preparing.set(database, preparing);
    try {
      await preparing.done;
      preparing.settled = true;
    } catch (error) {
      // Tried again by the next caller (this one's transaction was failing already, say).
      this.preparing.delete(database);
      throw error;
    }
  }

  private async runUnprepared(executor: Executor, values: readonly PreparedValue[]): Promise<Row[]> {
    return this.query(executor, { sql: this.text, params: [...values] });
  }
}

/**
 * A statement built once with Drizzle's builders, with sql.placeholder(name) wherever each run's
 * values go, and then run as a PreparedStatement: the busiest writes skip the building (about half a
 * millisecond of CPU for the checkout's order) and the database's parsing, and its planning once it
 * keeps a generic plan. Whatever shapes the text (which columns, which parts) must be the same for
 * every run; a statement of another shape is another PreparedQuery, under a name of its own.
 */
export class PreparedQuery<Row extends Record<string, unknown>, Values extends Record<string, PreparedValue | object>> {
  private readonly statement: PreparedStatement<Row>;
  private readonly params: readonly unknown[];

  /** `query`: a builder's `toSQL()`, or a statement written with the sql template. */
  constructor(name: string, query: Query | SQL, returning?: Record<string, PgColumn | SQL | SQL.Aliased>) {
    const built = is(query, SQL) ? dialect.sqlToQuery(query) : query;
    this.params = built.params;
    const fields = returning && Object.entries(returning).map(([key, field]) => ({ path: [key], field }));
    this.statement = new PreparedStatement<Row>(name, built.sql, fields);
  }

  /** Runs the statement with each placeholder's value, on the database or in a transaction of it. */
  run(database: Database, executor: Executor, values: Values): Promise<Row[]> {
    return this.statement.run(database, executor, this.params.map((param) => filled(param, values)));
  }
}

const dialect = new PgDialect();

/**
 * A parameter of a built query with its value for this run: a placeholder's value, written as its
 * column writes it when the placeholder stands for a column's value; any other parameter as built.
 * Unlike Drizzle's fillPlaceholders, a null stays SQL's null (a json column would write 'null').
 */
function filled(param: unknown, values: Record<string, unknown>): PreparedValue {
  const placeholder = is(param, Param) && is(param.value, Placeholder) ? param.value : is(param, Placeholder) ? param : undefined;
  if (!placeholder) return param as PreparedValue;
  if (!(placeholder.name in values)) throw new Error(`No value for the placeholder ${placeholder.name}`);
  const value = values[placeholder.name];
  if (value === null || value === undefined) return null;
  return (is(param, Param) ? param.encoder.mapToDriverValue(value) : value) as PreparedValue;
}

/** node-postgres and PGlite both answer with `rows`, which the shared Database type leaves unknown. */
const rowsOf = <Row>(result: unknown): Row[] => (result as { rows: Row[] }).rows;

/**
 * A value as an SQL literal, for EXECUTE, which takes no bound parameters. Strings are quoted with
 * their quotes doubled, which is the whole of the escaping while standard_conforming_strings is on
 * (PostgreSQL's default since 9.1, and PGlite's): a backslash is then an ordinary character.
 */
function literal(value: PreparedValue): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`Cannot pass ${value} to a prepared statement`);
    return String(value);
  }
  return `'${value.replaceAll("'", "''")}'`;
}
