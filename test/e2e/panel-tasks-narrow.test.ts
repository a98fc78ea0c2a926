import { NARROW, panelTasksAt } from './panel-tasks';

/** docs/panel.md "Where each task lives" at 390 px (test/e2e/panel-tasks.ts). */
panelTasksAt(NARROW);
