import { afterEach, describe, expect, it } from 'vitest';
import { panelApp } from '../../test/helpers/panel-app';
import type { Store } from '../store';

let store: Store | undefined;
afterEach(() => store?.close());

describe('createHttpApp', () => {
  it('GET / sends a browser to the panel with the panel\'s own redirect (303), which then asks for a login', async () => {
    const ctx = await panelApp();
    store = ctx.store;
    const root = await ctx.app.handle(new Request('http://localhost/'));
    expect(root.status).toBe(303);
    expect(root.headers.get('location')).toBe('/panel');
    expect(root.headers.get('x-request-id')).toBeTruthy();
    const panel = await ctx.app.handle(new Request(`http://localhost${root.headers.get('location')}`));
    expect(panel.status).toBe(303);
    expect(panel.headers.get('location')).toBe('/panel/login');
    // `/` is a route now: another method is 405 with the JSON answer, not 404.
    const post = await ctx.app.handle(new Request('http://localhost/', { method: 'POST' }));
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });

  it('what every request runs asks Elysia for no headers object, body or cookies: the alert routes read the Request itself', async () => {
    const ctx = await panelApp();
    store = ctx.store;
    // Elysia builds the context fields its hooks name (elysia/dist/sucrose.mjs), starting every
    // route from this field (protected in its types); a hook given the whole context makes
    // every route build all of them.
    const { inference } = ctx.app as unknown as { inference: Record<string, boolean> };
    expect(inference).toMatchObject({ headers: false, body: false, cookie: false });
  });
});
