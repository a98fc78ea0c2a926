import { afterEach, describe, expect, it, vi } from 'vitest';
import { createResponseRoutes } from './response-routes';

const req = (method: string, branch: string) =>
  `${method} sip:va@127.0.0.1 SIP/2.0\r\nVia: SIP/2.0/TCP 127.0.0.1:5999;branch=${branch}\r\nFrom: <sip:pbx@h>;tag=p\r\nTo: <sip:va@h>;tag=v\r\nCall-ID: c1\r\nCSeq: 2 ${method}\r\nContent-Length: 0\r\n\r\n`;
const res = (status: number, method: string, branch: string) =>
  `SIP/2.0 ${status} X\r\nVia: SIP/2.0/TCP 127.0.0.1:5999;branch=${branch}\r\nFrom: <sip:pbx@h>;tag=p\r\nTo: <sip:va@h>;tag=v\r\nCall-ID: c1\r\nCSeq: 2 ${method}\r\nContent-Length: 0\r\n\r\n`;

afterEach(() => vi.useRealTimers());

describe('responses go back on the connection of their request (RFC 3261 §18.2.2)', () => {
  it('routes by top Via branch and method; unknown responses take the default connection', () => {
    const routes = createResponseRoutes<string>({ t1Ms: 500 });
    routes.requestArrived(req('BYE', 'z9hG4bKb'), 'B');
    routes.requestArrived(req('INVITE', 'z9hG4bKi'), 'A');
    routes.requestArrived(req('CANCEL', 'z9hG4bKi'), 'C');
    expect(routes.routeFor(res(200, 'BYE', 'z9hG4bKb'))).toBe('B');
    expect(routes.routeFor(res(200, 'INVITE', 'z9hG4bKi'))).toBe('A');
    expect(routes.routeFor(res(200, 'CANCEL', 'z9hG4bKi'))).toBe('C');
    expect(routes.routeFor(res(200, 'BYE', 'z9hG4bKother'))).toBeNull();
    expect(routes.routeFor(req('BYE', 'z9hG4bKb'))).toBeNull(); // our own requests are not routed here
    routes.close();
  });

  it('does not remember ACKs, which have no response', () => {
    const routes = createResponseRoutes<string>({ t1Ms: 500 });
    routes.requestArrived(req('ACK', 'z9hG4bKa'), 'A');
    expect(routes.size()).toBe(0);
  });

  it('forgets a route 64*T1 after the final response, and one never answered 64*T1 after its request', () => {
    vi.useFakeTimers();
    const routes = createResponseRoutes<string>({ t1Ms: 100 });
    routes.requestArrived(req('BYE', 'z9hG4bKb'), 'B');
    routes.requestArrived(req('INFO', 'z9hG4bKn'), 'B');
    vi.advanceTimersByTime(5000);
    expect(routes.routeFor(res(200, 'BYE', 'z9hG4bKb'))).toBe('B'); // final: 6.4 s from now
    vi.advanceTimersByTime(1500); // INFO never answered: gone 6.4 s after it came
    expect(routes.size()).toBe(1);
    expect(routes.routeFor(res(200, 'BYE', 'z9hG4bKb'))).toBe('B'); // a retransmitted final still finds it
    vi.advanceTimersByTime(6400);
    expect(routes.size()).toBe(0);
  });

  it('forgets every route of a connection when it closes', () => {
    const routes = createResponseRoutes<string>({ t1Ms: 500 });
    routes.requestArrived(req('BYE', 'z9hG4bKb'), 'B');
    routes.requestArrived(req('INFO', 'z9hG4bKn'), 'B');
    routes.requestArrived(req('OPTIONS', 'z9hG4bKo'), 'A');
    routes.connectionClosed('B');
    expect(routes.size()).toBe(1);
    expect(routes.routeFor(res(200, 'BYE', 'z9hG4bKb'))).toBeNull();
    routes.close();
    expect(routes.size()).toBe(0);
  });
});
