import { type SettingKey, SETTINGS } from './settings-table.js';

export type { SettingKey } from './settings-table.js';

/**
 * The `JWT_*` environment name of every option (the option key itself for a code-only one),
 * from the settings table: `resolveOptions` names them in its `SettingsError`s, so operators
 * see the name they set.
 */
export const SETTING_NAMES: Readonly<Record<SettingKey, string>> = Object.fromEntries(
  Object.entries(SETTINGS).map(([key, row]) => [key, row.env ?? key]),
) as Record<SettingKey, string>;
