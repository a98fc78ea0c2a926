// Checks a restored backup against what the load was answered (scripts/bench-backup).
// Usage: bun scripts/bench/check-backup.ts <restored.db> <ids-before-file> <ids-all-file>
// Every call id answered 200 before the backup began MUST be in the copy; prints
// "<before> <missing> <answered in all> <calls in copy>" and exits 1 if any is missing.
import { Database } from 'bun:sqlite';
import { readFileSync } from 'node:fs';

const [dbPath, beforeFile, allFile] = process.argv.slice(2) as [string, string, string];
const lines = (f: string) => readFileSync(f, 'utf8').split('\n').filter((l) => l.startsWith('call_'));
const db = new Database(dbPath, { readonly: true });
const inCopy = new Set((db.query('SELECT id FROM calls').all() as { id: string }[]).map((r) => r.id));
db.close();
const before = lines(beforeFile);
const missing = before.filter((id) => !inCopy.has(id));
console.log(`${before.length} ${missing.length} ${lines(allFile).length} ${inCopy.size}`);
if (missing.length > 0) {
  console.error(`missing from the copy: ${missing.slice(0, 5).join(' ')}`);
  process.exit(1);
}
