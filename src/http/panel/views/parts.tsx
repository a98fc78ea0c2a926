import { FAILED_STATES, type CallState } from '../../../call-model';
import { dateExample } from '../date-input';
import type { Messages } from '../i18n';
import { fill } from '../i18n';

/** A success or error line, announced to screen readers. */
export function Notice({ kind = 'ok', text }: { kind?: 'ok' | 'error'; text?: string | null }) {
  if (!text) return '';
  return (
    <p class={kind === 'error' ? 'notice error' : 'notice'} role={kind === 'error' ? 'alert' : 'status'} safe>
      {text}
    </p>
  );
}

export function CsrfField({ csrf }: { csrf: string }) {
  return <input type="hidden" name="_csrf" value={csrf} />;
}

/**
 * One action on one thing, as a button: a POST of the CSRF token (and `hidden` fields) to
 * `action`, inline beside the row's other buttons (reset, pause, delete, run now …). `label`
 * and `ariaLabel` are the page's own words; `confirm` is the browser's question before it goes
 * (panel.js, data-confirm).
 */
export function PostButton(p: {
  action: string;
  csrf: string;
  label: string;
  kind?: 'secondary' | 'danger';
  hidden?: Record<string, string>;
  title?: string;
  confirm?: string;
  ariaLabel?: string;
}) {
  return (
    <form class="inline" method="post" action={p.action} title={p.title} data-confirm={p.confirm}>
      <CsrfField csrf={p.csrf} />
      {Object.entries(p.hidden ?? {}).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <button type="submit" class={p.kind} aria-label={p.ariaLabel}>
        {p.label}
      </button>
    </form>
  );
}

/** A value shown once, with a button that copies it (panel.js). */
export function CopyValue({ t, id, label, value }: { t: Messages; id: string; label: string; value: string }) {
  return (
    <div class="secret-row">
      <strong id={`${id}-label`}>{label}:</strong>
      <code id={id} aria-labelledby={`${id}-label`} safe>
        {value}
      </code>
      <button type="button" class="secondary" data-copy={id} data-copied={t.copied} aria-label={`${t.copy}: ${label}`}>
        {t.copy}
      </button>
    </div>
  );
}

/** A code block with a copy button. */
export function CopyBlock({ t, id, label, text }: { t: Messages; id: string; label: string; text: string }) {
  return (
    <div class="example">
      <h3 id={`${id}-label`} safe>
        {label}
      </h3>
      <pre id={id} aria-labelledby={`${id}-label`} safe>
        {text}
      </pre>
      <button type="button" class="secondary" data-copy={id} data-copied={t.copied} aria-label={`${t.copy}: ${label}`}>
        {t.copy}
      </button>
    </div>
  );
}

/** Previous/next links that keep the current filters. */
export function Pager({ t, path, query, page, pageSize, total }: {
  t: Messages;
  path: string;
  query: Record<string, string>;
  page: number;
  pageSize: number;
  total: number;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const link = (p: number) => {
    const q = new URLSearchParams({ ...query, page: String(p) });
    return `${path}?${q.toString()}`;
  };
  return (
    <nav class="pager" aria-label={t.pagination}>
      {page > 1 ? <a href={link(page - 1)} rel="prev">{`← ${t.previous}`}</a> : ''}
      <span>{fill(t.pageOf, { page, pages, total })}</span>
      {page < pages ? <a href={link(page + 1)} rel="next">{`${t.next} →`}</a> : ''}
    </nav>
  );
}

export function StateBadge({ t, state }: { t: Messages; state: string }) {
  const kind = ['completed', 'acknowledged'].includes(state)
    ? 'ok'
    : FAILED_STATES.includes(state as CallState)
      ? 'bad'
      : state === 'cancelled'
        ? 'done' // final but neither good nor bad: the plain badge
        : 'wait';
  return (
    <span class={`badge ${kind}`} data-state={state} safe>
      {t.states[state] ?? state}
    </span>
  );
}

/**
 * The from/to date fields and the submit button that end the calls and history filters: days
 * typed as the panel shows them (`25.11.2026`) or in ISO, as text fields since a `date` field
 * shows the browser's order (docs/panel.md "Typing dates"); the placeholder is the example.
 */
export function DateRangeAndApply({ t, from, to }: { t: Messages; from?: string; to?: string }) {
  return (
    <>
      <div class="field">
        <label for="f-from">{t.from}</label>
        <input id="f-from" name="from" type="text" autocomplete="off" maxlength="20" size="10" placeholder={dateExample(t.locale)} value={from ?? ''} />
      </div>
      <div class="field">
        <label for="f-to">{t.to}</label>
        <input id="f-to" name="to" type="text" autocomplete="off" maxlength="20" size="10" placeholder={dateExample(t.locale)} value={to ?? ''} />
      </div>
      <button type="submit">{t.apply}</button>
    </>
  );
}
