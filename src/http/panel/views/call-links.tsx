import type { CallRecord } from '../../../store';
import type { Messages } from '../i18n';

/**
 * Where a call belongs: its alert, and the call of the same number it was spoken in
 * (`bundled_into`, per-number pacing). Rendered as <dt>/<dd> pairs for a `dl.facts`.
 */
export function CallAlertFacts({ t, accountId, call }: { t: Messages; accountId: string; call: CallRecord }) {
  const base = `/panel/a/${accountId}`;
  return (
    <>
      {call.alertId ? (
        <>
          <dt>{t.alertOfCall}</dt>
          <dd>
            <a href={`${base}/alerts/${call.alertId}`} data-testid="call-alert" safe>
              {call.alertId}
            </a>
          </dd>
        </>
      ) : (
        ''
      )}
      {call.bundledInto ? (
        <>
          <dt>{t.bundledInto}</dt>
          <dd>
            <a href={`${base}/calls/${call.bundledInto}`} data-testid="bundled-into" safe>
              {call.bundledInto}
            </a>
          </dd>
        </>
      ) : (
        ''
      )}
    </>
  );
}

/** An id as a table shows it: its last characters (enough to tell rows apart), the whole in the title. */
const shortId = (id: string) => `…${id.slice(-6)}`;

/** The same two links in one table cell (the calls page), short so the table fits the screen. */
export function CallAlertCell({ t, accountId, call }: { t: Messages; accountId: string; call: CallRecord }) {
  const base = `/panel/a/${accountId}`;
  if (!call.alertId && !call.bundledInto) return '—';
  return (
    <div>
      {call.alertId ? (
        <a href={`${base}/alerts/${call.alertId}`} data-testid="call-alert" title={call.alertId} safe>
          {shortId(call.alertId)}
        </a>
      ) : (
        ''
      )}
      {call.bundledInto ? (
        <>
          <br />
          <small>
            {`${t.bundledInto}: `}
            <a href={`${base}/calls/${call.bundledInto}`} data-testid="bundled-into" title={call.bundledInto} safe>
              {shortId(call.bundledInto)}
            </a>
          </small>
        </>
      ) : (
        ''
      )}
    </div>
  );
}
