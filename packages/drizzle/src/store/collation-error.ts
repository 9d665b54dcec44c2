import { StoreSchemaError } from '@sessauth/core';

/**
 * MySQL/MariaDB: a text column the stores compare (an id, a user id, a jti, a stamp, a
 * counter key) has a collation that is not binary, so 'ABC' would find the row of 'abc'.
 * A schema problem like a missing column: `createSessauth` refuses to start on it.
 */
export class StoreCollationError extends StoreSchemaError {
  override readonly name: string = 'StoreCollationError';
  /** "table.column (collation)" */
  readonly column: string;

  constructor(table: string, column: string) {
    const fix =
      'create the tables from sessauthMysqlTables() (utf8mb4_0900_bin; utf8mb4_nopad_bin on MariaDB), or alter the column to a utf8mb4 ..._bin collation';
    super([{ table, missingColumns: [], migration: '0001-create-session' }], fix);
    this.column = column;
    this.message = `store schema is wrong: ${column} does not compare byte for byte (not a _bin collation). Fix: ${fix}`;
  }
}
