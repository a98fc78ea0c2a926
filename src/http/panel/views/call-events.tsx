import type { CallEvent } from '../../../store';
import type { Formatter } from '../format';
import type { Messages } from '../i18n';
import { answeredByText } from '../i18n/answered-by-words';

/**
 * One call's edges, oldest first, as `GET /api/calls/{id}` `events` has them: time, attempt,
 * from → to, the SIP code, the reason, and on an answer who answered and why (the contract's
 * "Voicemail detection": per answered attempt). Shown on the call's page and the alert's page.
 */
export function eventLine(t: Messages, fmt: Formatter, e: CallEvent): string {
  const by = answeredByText(t, e.answeredBy, e.amdReason);
  return [
    fmt.dateTime(e.at),
    `#${e.attempt}`,
    `${t.states[e.from] ?? e.from} → ${t.states[e.to] ?? e.to}`,
    e.sipCode ? `SIP ${e.sipCode}` : '',
    e.reason ?? '',
    by ?? '',
  ]
    .filter(Boolean)
    .join(' · ');
}

export function CallEvents({ t, fmt, events }: { t: Messages; fmt: Formatter; events: CallEvent[] }) {
  if (events.length === 0) return '';
  return (
    <ol class="events">
      {events.map((e) => (
        <li data-to={e.to} data-sip-code={e.sipCode === null ? undefined : String(e.sipCode)} data-answered-by={e.answeredBy ?? undefined} safe>
          {eventLine(t, fmt, e)}
        </li>
      ))}
    </ol>
  );
}
