import type { PanelAssets } from './panel-asset';

export type { PanelAsset, PanelAssets } from './panel-asset';

let loaded: Promise<PanelAssets> | undefined;

/**
 * The panel's static files. In the binary they are embedded by `bun build --compile`
 * (embedded-assets.ts imports them as text). Vitest's module loader does not understand
 * import attributes, so under vitest the same files are read from the source tree.
 */
export function loadPanelAssets(): Promise<PanelAssets> {
  loaded ??= '__vitest_worker__' in globalThis ? fromSourceTree() : import('./embedded-assets').then((m) => m.EMBEDDED);
  return loaded;
}

async function fromSourceTree(): Promise<PanelAssets> {
  const root = new URL('../../../', import.meta.url);
  const read = (p: string) => Bun.file(new URL(p, root)).text();
  return {
    'htmx.min.js': { body: await read('node_modules/htmx.org/dist/htmx.min.js'), type: 'text/javascript; charset=utf-8' },
    'panel.js': { body: await read('assets/panel/panel.js'), type: 'text/javascript; charset=utf-8' },
    'panel.css': { body: await read('assets/panel/panel.css'), type: 'text/css; charset=utf-8' },
  };
}
