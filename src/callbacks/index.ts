export {
  callEventFor,
  emitAlertEvent,
  emitAlertEvents,
  emitCallEvents,
  emitTrunkEvent,
  emitSelfTestEvent,
  emitTextEvent,
  type TextEventType,
  type SelfTestEventType,
  type AlertEventType,
  type CallEventType,
  type CallbackEventType,
  type TrunkEventFields,
  type TrunkEventType,
} from './events';
export { createCallbackSender, fetchPost, type CallbackSender, type CallbackSenderDeps, type PostCallback } from './sender';
export { GIVE_UP_AFTER_MS, nextAttemptAt, RETRY_DELAYS_MS, RETRY_EVERY_MS } from './schedule';
export { callbackHeaders } from './signing';
