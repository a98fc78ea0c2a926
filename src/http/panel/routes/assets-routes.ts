import { Elysia } from 'elysia';
import { loadPanelAssets } from '../assets';

/** GET /panel/assets/:name: the embedded files, cacheable for an hour (they change only with the binary). */
export function assetsRoutes() {
  return new Elysia({ name: 'panel-assets' }).get('/panel/assets/:name', async ({ params }) => {
    const assets = await loadPanelAssets();
    const asset = Object.hasOwn(assets, params.name) ? assets[params.name] : undefined;
    if (!asset) return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    return new Response(asset.body, {
      headers: { 'content-type': asset.type, 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' },
    });
  });
}
