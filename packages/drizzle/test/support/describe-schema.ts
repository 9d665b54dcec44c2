import type { Dialect } from './drizzle-kit-ddl.js';

/** Runs one query on the database under test and hands back its rows. */
export type RowQuery = (sql: string, parameters?: unknown[]) => Promise<Array<Record<string, unknown>>>;

/** A table as the server sees it: its columns and indexes, names of the run replaced by roles. */
export interface TableShape {
  readonly columns: string[];
  readonly indexes: string[];
}

/**
 * What the database made of a table, read back from its catalog (not from any tool's idea of
 * it): each column's type, nullability and collation, each index's columns in order. `rename`
 * maps the run's real table names to their roles, so two layouts under different names compare.
 */
export async function describeTable(dialect: Dialect, query: RowQuery, table: string, rename: (name: string) => string): Promise<TableShape> {
  if (dialect === 'postgres') {
    const columns = await query(
      `select column_name, data_type, character_maximum_length, is_nullable, collation_name from information_schema.columns
       where table_schema = current_schema() and table_name = $1 order by ordinal_position`,
      [table],
    );
    const indexes = await query(
      'select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename = $1 order by indexname',
      [table],
    );
    return {
      columns: columns.map((c) => `${c.column_name} ${c.data_type}(${c.character_maximum_length ?? ''}) ${c.is_nullable} ${c.collation_name ?? ''}`),
      indexes: indexes.map((i) => rename(String(i.indexdef)).replace(/ ON \S+\./, ' ON ')),
    };
  }
  if (dialect === 'mysql') {
    const columns = await query(
      `select column_name as n, column_type as t, is_nullable as nl, character_set_name as cs, collation_name as co from information_schema.columns
       where table_schema = database() and table_name = ? order by ordinal_position`,
      [table],
    );
    const indexes = await query(
      `select index_name as n, non_unique as u, group_concat(column_name order by seq_in_index) as c from information_schema.statistics
       where table_schema = database() and table_name = ? group by index_name, non_unique order by index_name`,
      [table],
    );
    return {
      // MySQL prints int's display width on some versions only (int(11) / int).
      columns: columns.map((c) => `${c.n} ${String(c.t).replace(/^int\(11\)$/, 'int')} ${c.nl} ${c.cs ?? ''} ${c.co ?? ''}`),
      indexes: indexes.map((i) => `${rename(String(i.n))} unique=${Number(i.u) === 0} (${i.c})`),
    };
  }
  const columns = await query(`select name, type, "notnull" as nn, pk from pragma_table_info('${table}')`);
  const indexes = await query(`select name, "unique" as u, origin from pragma_index_list('${table}') order by name`);
  const described: string[] = [];
  for (const index of indexes) {
    const parts = await query(`select name from pragma_index_info('${index.name}') order by seqno`);
    // SQLite names the primary key's own index after the table (sqlite_autoindex_<table>_1).
    const name = index.origin === 'pk' ? 'primary key' : rename(String(index.name));
    described.push(`${name} unique=${index.u} (${parts.map((p) => p.name).join(',')})`);
  }
  return {
    columns: columns.map((c) => `${c.name} ${String(c.type).toLowerCase()} notnull=${c.nn} pk=${c.pk}`),
    indexes: described.sort(),
  };
}
