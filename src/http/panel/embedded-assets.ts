// Text imports make `bun build --compile` put these files inside the executable;
// only assets.ts loads this module (see there why).
import htmx from 'htmx.org/dist/htmx.min.js' with { type: 'text' };
import css from '../../../assets/panel/panel.css' with { type: 'text' };
import js from '../../../assets/panel/panel.js' with { type: 'text' };
import type { PanelAssets } from './panel-asset';

export const EMBEDDED: PanelAssets = {
  'htmx.min.js': { body: htmx, type: 'text/javascript; charset=utf-8' },
  'panel.js': { body: js, type: 'text/javascript; charset=utf-8' },
  'panel.css': { body: css, type: 'text/css; charset=utf-8' },
};
