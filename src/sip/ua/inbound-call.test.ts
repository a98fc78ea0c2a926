import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { IllegalTransitionError } from '../../call-model';
import {
  createInboundCallMachine,
  inboundEdge,
  INBOUND_EDGES,
  INBOUND_EVENTS,
  INBOUND_REACTIONS,
  INBOUND_STATES,
  type InboundEvent,
  type InboundState,
} from './inbound-call';

/** A call brought to `state` by events, as answer-call.ts feeds them (every state is reachable from offered). */
function callIn(state: InboundState, lines: Record<string, unknown>[] = []) {
  const log = pino({ level: 'debug' }, { write: (l: string) => lines.push(JSON.parse(l)) });
  const m = createInboundCallMachine(log);
  const path: Record<InboundState, InboundEvent[]> = {
    offered: [],
    answering: ['accepted'],
    up: ['accepted', 'media_up'],
    playing: ['accepted', 'media_up', 'prompt'],
    cut: ['accepted', 'media_up', 'prompt', 'key'],
    transferring: ['accepted', 'media_up', 'refer'],
    hanging_up: ['accepted', 'media_up', 'hang_up'],
    ended: ['refused'],
  };
  for (const event of path[state]) m.on(event, 'setup');
  expect(m.state).toBe(state);
  lines.length = 0;
  return m;
}

const drawn = INBOUND_STATES.flatMap((from) => INBOUND_EDGES[from].map((to) => [from, to] as const));
const undrawn = INBOUND_STATES.flatMap((from) => INBOUND_STATES.filter((to) => !INBOUND_EDGES[from].includes(to)).map((to) => [from, to] as const));

describe('the inbound call state machine', () => {
  it('draws the edges of the diagram and no more', () => {
    // Read off the diagram in inbound-call.ts, arrow by arrow.
    expect(drawn.map(([f, t]) => `${f}->${t}`).sort()).toEqual(
      [
        'offered->answering',
        'offered->ended',
        'answering->up',
        'answering->ended',
        'up->playing',
        'up->transferring',
        'up->hanging_up',
        'up->ended',
        'playing->up',
        'playing->cut',
        'playing->hanging_up',
        'playing->ended',
        'cut->up',
        'cut->hanging_up',
        'cut->ended',
        'transferring->up',
        'transferring->hanging_up',
        'transferring->ended',
        'hanging_up->ended',
      ].sort(),
    );
    expect(undrawn).toHaveLength(8 * 8 - 19);
  });

  it.each(drawn)('%s -> %s is taken by an event, and the edge is logged', (from, to) => {
    const events = INBOUND_EVENTS.filter((e) => INBOUND_REACTIONS[from][e] === to);
    expect(events.length).toBeGreaterThan(0); // no drawn edge is left that nothing takes
    for (const event of events) {
      const lines: Record<string, unknown>[] = [];
      const m = callIn(from, lines);
      expect(m.on(event, 'because')).toBe(true);
      expect(m.state).toBe(to);
      expect(lines).toEqual([expect.objectContaining({ msg: 'inbound call state', from, to, why: 'because', event })]);
    }
  });

  it.each(undrawn)('refuses %s -> %s: the edge check throws', (from, to) => {
    let thrown: unknown;
    try {
      inboundEdge(from, to);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(IllegalTransitionError);
    expect(thrown).toMatchObject({ machine: 'inbound call', from, to });
  });
});

describe('events fed to the inbound call (what sip.js, the stream and the desk report)', () => {
  it('every reaction is a drawn edge or an explicit ignore', () => {
    for (const from of INBOUND_STATES) {
      for (const to of Object.values(INBOUND_REACTIONS[from])) if (to !== 'ignore') expect(INBOUND_EDGES[from]).toContain(to);
    }
  });

  it('reads the call as the machine: barge-in once, keys queued while nothing plays, crossing BYEs, the first word on the end kept', () => {
    const a = callIn('up');
    expect(a.on('key', '1')).toBe(false); // nothing plays: the key only waits for nextKey
    expect(a.on('prompt', 'prompt')).toBe(true);
    expect(a.on('key', '2')).toBe(true); // barge-in: the prompt is cut
    expect(a.on('key', '3')).toBe(false); // cut already
    expect(a.state).toBe('cut');
    expect(a.on('prompt_end', 'stopped')).toBe(true);
    expect(a.state).toBe('up');
    expect(a.on('hang_up', 'desk call over')).toBe(true);
    expect([a.on('far_end_bye', 'caller hung up'), a.state]).toEqual([true, 'ended']); // their BYE crossed ours
    expect([a.on('bye_done', 'BYE done'), a.on('terminated', 'ended by the appliance'), a.on('hang_up', 'again')]).toEqual([false, false, false]);
    expect(a.endedBy).toBe('desk call over');

    const b = callIn('transferring');
    expect(b.on('key', '5')).toBe(false);
    expect(b.on('far_end_bye', 'caller hung up')).toBe(true);
    expect([b.on('transfer_done', 'the call ended during the transfer'), b.on('prompt', 'prompt'), b.on('refer', 'again')]).toEqual([false, false, false]);
    expect(b.endedBy).toBe('caller hung up');

    const c = callIn('answering');
    expect(c.endedBy).toBeNull();
    expect(c.on('terminated', 'ended by the appliance')).toBe(true); // no ACK by 64·T1
    expect(c.on('no_media', 'no usable media by the ACK')).toBe(false);
    expect(c.endedBy).toBe('ended by the appliance');
  });

  const unlisted = INBOUND_STATES.flatMap((from) => INBOUND_EVENTS.filter((e) => INBOUND_REACTIONS[from][e] === undefined).map((e) => [from, e] as const));
  it('leaves some events unlisted (the bugs it refuses)', () => {
    expect(unlisted.length).toBeGreaterThan(0);
  });
  it.each(unlisted)('an event not listed for the state is refused: %s on %s throws, stays, and logs one line naming both', (from, event) => {
    const lines: Record<string, unknown>[] = [];
    const m = callIn(from, lines);
    let thrown: unknown;
    try {
      m.on(event, 'a bug');
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(IllegalTransitionError);
    expect(thrown).toMatchObject({ machine: 'inbound call', from, to: event });
    expect(m.state).toBe(from);
    expect(lines).toEqual([expect.objectContaining({ level: 50, msg: 'illegal inbound call event', state: from, event })]);
  });
});
