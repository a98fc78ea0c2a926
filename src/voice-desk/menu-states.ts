import { IllegalTransitionError } from '../call-model';
import type { Logger } from '../log';

/**
 * One voice desk call (docs/telephony.md "Voice desk"), as session.ts drives it. Every change goes
 * through `transition()`, which throws on an edge not drawn here and logs each edge.
 *
 *   greeting ──> pin ──right PIN──> menu ──1/3──> acting ──done──> menu
 *                 │ ^                │ │ └──0──> transferring ──refused──> menu
 *                 │ └─wrong PIN──────┘ │              │
 *                 │   (tries left)     │              └──the target answered──> ending
 *                 └─wrong PIN, no tries left / locked out / silence──> ending
 *                                      └──*, silence, max length──> ending ──BYE──> ended
 *
 * The caller hanging up moves any state to `ended`. Keys 2 (next) and 9 (repeat) stay in
 * `menu`; they are the menu's own reading, not edges.
 */
export const MENU_STATES = ['greeting', 'pin', 'menu', 'acting', 'transferring', 'ending', 'ended'] as const;
export type MenuState = (typeof MENU_STATES)[number];

export const MENU_EDGES: Record<MenuState, readonly MenuState[]> = {
  greeting: ['pin', 'ending', 'ended'],
  pin: ['pin', 'menu', 'ending', 'ended'],
  menu: ['acting', 'transferring', 'ending', 'ended'],
  acting: ['menu', 'ended'],
  transferring: ['menu', 'ending', 'ended'],
  ending: ['ended'],
  ended: [],
};

export interface MenuMachine {
  readonly state: MenuState;
  /** Moves to `to`, logging the edge and why; an edge not drawn above throws IllegalTransitionError. */
  transition(to: MenuState, why: string): void;
}

export function createMenuMachine(log: Logger): MenuMachine {
  let state: MenuState = 'greeting';
  return {
    get state() {
      return state;
    },
    transition(to, why) {
      if (!MENU_EDGES[state].includes(to)) throw new IllegalTransitionError('voice desk', state, to);
      log.debug({ from: state, to, why }, 'voice desk state');
      state = to;
    },
  };
}
