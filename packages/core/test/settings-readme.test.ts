import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { README, renderSettingsTable, withTable } from '../scripts/settings-table.js';
import { SETTINGS } from '../src/options/settings-table.js';

describe('the README settings table', () => {
  it('is the settings table of the core, every setting once (pnpm --filter @sessauth/core docs:settings writes it)', () => {
    const readme = readFileSync(README, 'utf8');
    expect(withTable(readme, renderSettingsTable())).toBe(readme);
    const firstCells = renderSettingsTable()
      .split('\n')
      .map((line) => line.split(' | ')[0]);
    for (const row of Object.values(SETTINGS)) {
      if (row.env !== null) expect(firstCells.filter((cell) => cell === `| \`${row.env}\``)).toHaveLength(1);
    }
  });
});
