/**
 * Which alerts a maintenance window covers (docs/on-call.md "Maintenance windows"). A window's
 * match list is written as text, the same in the CLI (`--match`), the API (`match`) and the panel:
 *
 *   key=<prefix>          the alert key starts with the prefix (a plain request has no key)
 *   source=<name>         the alert's source: api, webhook, or a native source (alertmanager, …)
 *   label:<name>=<value>  a native source's alert carries that label
 *
 * Entries of one kind (all `key=`, all `source=`, all `label:` of one name) are
 * alternatives; different kinds must all hold. No entry: every alert of the account.
 */
export type Match = { kind: 'key'; prefix: string } | { kind: 'source'; name: string } | { kind: 'label'; name: string; value: string };

/** What a match looks at: an alert, or a request about to become one. */
export interface AlertFacts {
  key: string | null;
  source: string;
  labels: Record<string, string> | null;
}

/** At most this many entries per window, each at most this long: a window is typed by a person. */
export const MAX_MATCHES = 20;
export const MAX_MATCH_CHARS = 200;

/** The entry as given, or null when it is none of the three forms (or names nothing). */
export function parseMatch(text: string): Match | null {
  const t = text.trim();
  const label = /^label:([^=\s]+)=(.+)$/.exec(t);
  if (label) return { kind: 'label', name: label[1]!, value: label[2]!.trim() };
  const pair = /^(key|source)=(.+)$/.exec(t);
  if (!pair) return null;
  const value = pair[2]!.trim();
  if (value === '') return null;
  // Sources are named in lower case everywhere (src/sources/types.ts, `?source=`).
  return pair[1] === 'key' ? { kind: 'key', prefix: value } : { kind: 'source', name: value.toLowerCase() };
}

/** The text form, as stored and shown. */
export function matchText(m: Match): string {
  return m.kind === 'key' ? `key=${m.prefix}` : m.kind === 'source' ? `source=${m.name}` : `label:${m.name}=${m.value}`;
}

/** Whether the window's matches cover this alert (see the file comment for the rule). */
export function matchesAlert(matches: readonly Match[], alert: AlertFacts): boolean {
  const groups = new Map<string, Match[]>();
  for (const m of matches) {
    const group = m.kind === 'label' ? `label:${m.name}` : m.kind;
    groups.set(group, [...(groups.get(group) ?? []), m]);
  }
  for (const alternatives of groups.values()) {
    if (!alternatives.some((m) => holds(m, alert))) return false;
  }
  return true;
}

function holds(m: Match, a: AlertFacts): boolean {
  switch (m.kind) {
    case 'key':
      return a.key !== null && a.key.startsWith(m.prefix);
    case 'source':
      return a.source.toLowerCase() === m.name;
    case 'label':
      return a.labels?.[m.name] === m.value;
  }
}
