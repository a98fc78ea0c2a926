import { canMoveAlert } from '../../../call-model';
import type { AlertRecord, CallStateCounts } from '../../../store';
import { fill, type Messages } from '../i18n';
import { CsrfField } from './parts';

/** An alert's state as a badge: open waits, acknowledged and resolved are fine, unacknowledged is bad. */
export function AlertStateBadge({ t, state }: { t: Messages; state: string }) {
  const kind = state === 'open' ? 'wait' : state === 'unacknowledged' ? 'bad' : 'ok';
  return (
    <span class={`badge ${kind}`} data-alert-state={state} safe>
      {t.alertStates[state] ?? state}
    </span>
  );
}

/** "2 · Queued 1, Cancelled 1": how many calls the alert has and where they stand. */
export function callStatesText(t: Messages, counts: CallStateCounts): string {
  const parts = Object.entries(counts).map(([state, n]) => `${t.states[state] ?? state} ${n}`);
  const total = Object.values(counts).reduce((a, n) => a + (n ?? 0), 0);
  return parts.length ? `${total} · ${parts.join(', ')}` : '0';
}

/**
 * Acknowledge and Resolve, shown while the alert model lets the alert move (open, or
 * unacknowledged: src/call-model/alert-states.ts). `back` says which page the
 * answer returns to ('list' or 'detail'); the route accepts nothing else, so no open redirect.
 */
export function AlertButtons({ t, csrf, accountId, alert, back }: { t: Messages; csrf: string; accountId: string; alert: AlertRecord; back: 'list' | 'detail' }) {
  if (!canMoveAlert(alert.state, 'acknowledged')) return '';
  const base = `/panel/a/${accountId}/alerts/${alert.id}`;
  return (
    <div class="alert-actions">
      <form class="inline" method="post" action={`${base}/acknowledge`}>
        <CsrfField csrf={csrf} />
        <input type="hidden" name="back" value={back} />
        <button type="submit" data-action="acknowledge">{t.acknowledge}</button>
      </form>
      {' ' /* a space between the inline forms, since the stylesheet gives them no margin */}
      <form class="inline" method="post" action={`${base}/resolve`}>
        <CsrfField csrf={csrf} />
        <input type="hidden" name="back" value={back} />
        <button type="submit" class="secondary" data-action="resolve">{t.resolve}</button>
      </form>
    </div>
  );
}

/** The line a finished action leaves on the page it returns to (`?done=…&n=…`). */
export function alertNoticeText(t: Messages, query: Record<string, string>): string | null {
  const n = Number(query.n ?? 0) || 0;
  if (query.done === 'acknowledged') return fill(t.alertAcknowledged, { n });
  if (query.done === 'resolved') return fill(t.alertResolved, { n });
  if (query.done === 'unchanged') return t.alertAlreadyClosed;
  return null;
}
