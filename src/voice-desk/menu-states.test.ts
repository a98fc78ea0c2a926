import { describe, expect, it } from 'vitest';
import { IllegalTransitionError } from '../call-model';
import { silentLogger } from '../log';
import { createMenuMachine, MENU_EDGES, MENU_STATES } from './menu-states';

describe('voice desk menu states', () => {
  it('walks greeting → pin → menu → acting → menu → transferring → menu → ending → ended', () => {
    const m = createMenuMachine(silentLogger());
    for (const to of ['pin', 'pin', 'menu', 'acting', 'menu', 'transferring', 'menu', 'ending', 'ended'] as const) {
      m.transition(to, 'test');
      expect(m.state).toBe(to);
    }
  });

  it('refuses every edge not drawn, and leaves the state as it was', () => {
    for (const from of MENU_STATES) {
      for (const to of MENU_STATES) {
        if (MENU_EDGES[from].includes(to)) continue;
        const m = createMenuMachine(silentLogger());
        // Reach `from` by drawn edges only.
        const path: Record<string, string[]> = {
          greeting: [],
          pin: ['pin'],
          menu: ['pin', 'menu'],
          acting: ['pin', 'menu', 'acting'],
          transferring: ['pin', 'menu', 'transferring'],
          ending: ['ending'],
          ended: ['ended'],
        };
        for (const step of path[from]!) m.transition(step as never, 'setup');
        expect(() => m.transition(to, 'illegal')).toThrow(IllegalTransitionError);
        expect(m.state).toBe(from);
      }
    }
  });

  it('no state can skip the PIN: the menu is reached only from pin', () => {
    const into = MENU_STATES.filter((s) => MENU_EDGES[s].includes('menu'));
    expect(into.sort()).toEqual(['acting', 'pin', 'transferring']);
    expect(MENU_EDGES.greeting).not.toContain('menu');
  });
});
