import type { PanelUser } from '../../../store';
import { htmlResponse } from '../html';
import type { Messages } from '../i18n';
import { Layout } from './layout';
import { CsrfField } from './parts';

export interface ConfirmPageProps {
  t: Messages;
  user: PanelUser;
  csrf: string;
  /** What will break, in plain words: the page's whole point. */
  consequences: string;
  /** The same POST again, now with `confirm=1`. */
  action: string;
  /** The first POST's other fields, carried over unchanged. */
  fields?: Record<string, string>;
  cancelHref: string;
}

/**
 * The second step of a destructive action (revoke, rotate, disable, reset). The first POST
 * lands here instead of acting; the button repeats it with `confirm=1`. A page, not a
 * script dialog: the CSP forbids inline script, and this works without any script.
 */
export function confirmPage(p: ConfirmPageProps): Response {
  const { t } = p;
  return htmlResponse(
    <Layout t={t} title={t.confirmTitle} user={p.user} csrf={p.csrf}>
      <p class="notice error" role="alert" safe>
        {p.consequences}
      </p>
      <form id="confirm" method="post" action={p.action}>
        <CsrfField csrf={p.csrf} />
        {Object.entries(p.fields ?? {}).map(([name, value]) => (
          <input type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="confirm" value="1" />
        <button type="submit" class="danger">
          {t.confirmButton}
        </button>{' '}
        <a href={p.cancelHref}>{t.cancel}</a>
      </form>
    </Layout>,
    200,
  );
}

/** True when the POST is the confirmed second step. */
export const confirmed = (form: Record<string, string>) => form.confirm === '1';
