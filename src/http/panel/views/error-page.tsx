import type { PanelUser } from '../../../store';
import { htmlResponse } from '../html';
import type { Messages } from '../i18n';
import { Layout } from './layout';
import { Notice } from './parts';

/** A whole page for 401/403/404 so a person lands somewhere useful, not on raw JSON. */
export function errorPage(t: Messages, status: number, text: string, user?: PanelUser, csrf?: string): Response {
  return htmlResponse(
    <Layout t={t} title={t.errorTitle} user={user} csrf={csrf}>
      <Notice kind="error" text={text} />
      <p>
        <a href="/panel">{t.backHome}</a>
      </p>
    </Layout>,
    status,
  );
}
