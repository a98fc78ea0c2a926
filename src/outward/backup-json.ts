import type { CopySummary } from '../store';

/** `backup --json`: the folder written and what it holds. Fields may be added, never renamed. */
export function backupJson(path: string, summary: CopySummary, seconds: number) {
  return { path, schema_version: summary.schemaVersion, bytes: summary.bytes, accounts: summary.accounts, calls: summary.calls, seconds };
}

/** `restore --json`: the backup folder, the data folder it went into, and what it holds. Fields may be added, never renamed. */
export function restoreJson(from: string, path: string, summary: CopySummary) {
  return { from, path, schema_version: summary.schemaVersion, accounts: summary.accounts, calls: summary.calls };
}
