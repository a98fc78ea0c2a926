/**
 * Patch 14 (transport/index.ts): sip.js 0.21's Contact grammar knows only sip:/sips: URIs and
 * drops a whole response whose Contact holds anything else. A carrier's 302 often lists a
 * `tel:` Contact next to a SIP one (RFC 3261 §8.1.3.4 allows any URI scheme); dropped, the
 * 302 was never seen and the INVITE hung until the ring timeout. In a 3xx we keep only the
 * SIP Contacts (the only ones we could follow); the line goes when none is left.
 */
export function sipOnlyRedirectContacts(message: string): string {
  if (!/^SIP\/2\.0 3\d\d /.test(message)) return message;
  const end = message.indexOf('\r\n\r\n');
  const head = end >= 0 ? message.slice(0, end) : message;
  const lines = head.split('\r\n').flatMap((line) => {
    const m = /^(Contact|m)\s*:\s*(.*)$/i.exec(line);
    if (!m) return [line];
    const kept = splitContacts(m[2]!).filter((c) => /^(?:"[^"]*"\s*|[^<"]*)?<?\s*sips?:/i.test(c));
    return kept.length ? [`${m[1]}: ${kept.join(', ')}`] : [];
  });
  return lines.join('\r\n') + (end >= 0 ? message.slice(end) : '');
}

/** Contact values split on commas outside <…> and quotes (§7.3.1). */
function splitContacts(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (ch === '"' && value[i - 1] !== '\\') quoted = !quoted;
    else if (!quoted && ch === '<') depth++;
    else if (!quoted && ch === '>') depth--;
    else if (!quoted && depth === 0 && ch === ',') {
      out.push(value.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(value.slice(start).trim());
  return out.filter((c) => c.length > 0);
}
