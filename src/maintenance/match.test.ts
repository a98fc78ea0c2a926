import { describe, expect, it } from 'vitest';
import { matchesAlert, matchText, parseMatch, type AlertFacts } from './match';

// docs/on-call.md "Maintenance windows": key=<prefix>, source=<name>, label:<name>=<value>.
const alert = (over: Partial<AlertFacts> = {}): AlertFacts => ({ key: 'db-1/disk', source: 'alertmanager', labels: { env: 'staging', team: 'db' }, ...over });
const rules = (...texts: string[]) => texts.map((t) => parseMatch(t)!);

describe('maintenance matches', () => {
  it('reads the three forms and nothing else', () => {
    expect(parseMatch('key=db-')).toEqual({ kind: 'key', prefix: 'db-' });
    expect(parseMatch(' source=AlertManager ')).toEqual({ kind: 'source', name: 'alertmanager' });
    expect(parseMatch('label:env=staging')).toEqual({ kind: 'label', name: 'env', value: 'staging' });
    expect(parseMatch('label:path=/a=b')).toEqual({ kind: 'label', name: 'path', value: '/a=b' });
    for (const bad of ['', 'key=', 'key', 'source=', 'host=db1', 'label:env', 'label:=x', 'label:env=', 'db-']) expect(parseMatch(bad)).toBeNull();
    expect(matchText(parseMatch('label:env=staging')!)).toBe('label:env=staging');
    expect(matchText(parseMatch('source=Grafana')!)).toBe('source=grafana');
  });

  it('no match: every alert, keyed or plain', () => {
    expect(matchesAlert([], alert())).toBe(true);
    expect(matchesAlert([], alert({ key: null, source: 'api', labels: null }))).toBe(true);
  });

  it('key prefix, source and label each decide alone', () => {
    expect(matchesAlert(rules('key=db-'), alert())).toBe(true);
    expect(matchesAlert(rules('key=web-'), alert())).toBe(false);
    expect(matchesAlert(rules('key=db-'), alert({ key: null }))).toBe(false);
    expect(matchesAlert(rules('source=alertmanager'), alert())).toBe(true);
    expect(matchesAlert(rules('source=webhook'), alert())).toBe(false);
    expect(matchesAlert(rules('label:env=staging'), alert())).toBe(true);
    expect(matchesAlert(rules('label:env=prod'), alert())).toBe(false);
    expect(matchesAlert(rules('label:env=staging'), alert({ labels: null }))).toBe(false);
  });

  it('one kind lists alternatives; different kinds must all hold', () => {
    expect(matchesAlert(rules('key=web-', 'key=db-'), alert())).toBe(true);
    expect(matchesAlert(rules('key=db-', 'source=grafana'), alert())).toBe(false);
    expect(matchesAlert(rules('key=db-', 'source=grafana', 'source=alertmanager'), alert())).toBe(true);
    expect(matchesAlert(rules('label:env=staging', 'label:team=web'), alert())).toBe(false);
    expect(matchesAlert(rules('label:env=staging', 'label:env=prod', 'label:team=db'), alert())).toBe(true);
  });
});
