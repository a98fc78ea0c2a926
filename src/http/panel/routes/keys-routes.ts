import { Elysia } from 'elysia';
import type { IssuedCredential } from '../../../store';
import type { PanelCtx, PanelEnv } from '../env';
import { baseUrlFor, buildExamples } from '../examples';
import { guarded } from '../guard';
import { htmlResponse, redirect } from '../html';
import { KeysPage, type KeysPageProps } from '../views/keys-page';

/** API keys of one account: create (shown once), revoke, rotate the webhook key, signature flag. */
export function keysRoutes(env: PanelEnv) {
  const { store, config } = env.deps;
  const render = (c: PanelCtx, status: number, extra: Partial<KeysPageProps> = {}) => {
    const credentials = store.credentials.listForAccount(c.account.id).reverse();
    const apiKey = extra.issued?.apiKey ?? extra.rotated?.apiKey ?? credentials.find((k) => k.revokedAt === null)?.apiKey ?? '$API_KEY';
    const examples = buildExamples({
      baseUrl: baseUrlFor(c.request, config.panel.public_url, config.http.trust_proxy),
      apiKey,
      apiSecret: extra.issued?.apiSecret,
      webhookKey: extra.issued?.webhookKey ?? extra.rotated?.webhookKey,
    });
    return htmlResponse(
      KeysPage({ t: c.t, fmt: c.fmt, user: c.user, csrf: c.csrf, account: c.account, credentials, examples, ...extra }),
      status,
    );
  };
  // An API key in the path must belong to the account in the path, or it is not found.
  const owned = (c: PanelCtx) => store.credentials.listForAccount(c.account.id).find((k) => k.apiKey === c.params.apiKey && k.revokedAt === null);
  const path = '/panel/a/:accountId/keys';

  return new Elysia({ name: 'panel-keys' })
    .get(
      path,
      guarded(env, { account: true }, (c) => render(c, 200, { notice: c.query.ok !== undefined ? c.t.keysUpdated : undefined })),
    )
    .post(
      path,
      guarded(env, { account: true }, async (c) => {
        const issued: IssuedCredential = await store.writes.run(() =>
          store.credentials.create(c.account.id, { requireSignature: c.form.require_signature === '1' }),
        );
        return render(c, 200, { issued });
      }),
    )
    .post(
      `${path}/:apiKey/revoke`,
      guarded(env, { account: true }, async (c) => {
        if (!owned(c)) return render(c, 404, { error: c.t.notFound });
        await store.writes.run(() => store.credentials.revoke(c.params.apiKey!));
        return redirect(`/panel/a/${c.account.id}/keys?ok`);
      }),
    )
    .post(
      `${path}/:apiKey/signature`,
      guarded(env, { account: true }, async (c) => {
        if (!owned(c)) return render(c, 404, { error: c.t.notFound });
        await store.writes.run(() => store.credentials.setRequireSignature(c.params.apiKey!, c.form.required === '1'));
        return redirect(`/panel/a/${c.account.id}/keys?ok`);
      }),
    )
    .post(
      `${path}/:apiKey/rotate`,
      guarded(env, { account: true }, async (c) => {
        if (!owned(c)) return render(c, 404, { error: c.t.notFound });
        const webhookKey = await store.writes.run(() => store.credentials.rotateWebhookKey(c.params.apiKey!));
        if (!webhookKey) return render(c, 404, { error: c.t.notFound });
        return render(c, 200, { rotated: { apiKey: c.params.apiKey!, webhookKey } });
      }),
    );
}
