import { panelTasksAt, WIDE } from './panel-tasks';

/** docs/panel.md "Where each task lives" at 1366 px (test/e2e/panel-tasks.ts). */
panelTasksAt(WIDE);
