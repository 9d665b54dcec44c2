// The settings table of the root README, rendered from the settings table of the core
// (src/options/settings-table.ts). `pnpm --filter @sessauth/core docs:settings` writes it
// between the README's markers; test/settings-readme.test.ts fails while the two differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type SettingRow, SETTINGS } from '../src/options/settings-table.js';

export const README = fileURLToPath(new URL('../../../README.md', import.meta.url));
export const START = '<!-- settings-table:start (generated from packages/core/src/options/settings-table.ts) -->';
export const END = '<!-- settings-table:end -->';

export function renderSettingsTable(): string {
  const rows = (Object.entries(SETTINGS) as [string, SettingRow][]).map(
    ([key, row]) => `| ${row.env === null ? '(code only)' : `\`${row.env}\``} | \`${key}\` | ${row.kind.shownDefault} | ${row.doc} |`,
  );
  return ['| setting | option | default | meaning |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

/** The README with its table block replaced by `table`. */
export function withTable(readme: string, table: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start === -1 || end < start) throw new Error(`README.md has no ${START} ... ${END} block`);
  return `${readme.slice(0, start + START.length)}\n${table}\n${readme.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(README, withTable(readFileSync(README, 'utf8'), renderSettingsTable()));
  console.log('README.md: settings table written');
}
