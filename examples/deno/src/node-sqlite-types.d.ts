// node:sqlite as Deno (and Node 22.5+) ship it, the part the example uses (this repository's @types/node is 20).
declare module 'node:sqlite' {
  interface StatementSync {
    columns(): unknown[];
    all(...parameters: unknown[]): unknown[];
    run(...parameters: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
    iterate(...parameters: unknown[]): IterableIterator<unknown>;
  }
  export class DatabaseSync {
    constructor(file: string);
    exec(sql: string): void;
    prepare(sql: string): StatementSync;
    close(): void;
  }
}
