export { createSecondPath, type IncomingText, type SecondPath, type SecondPathDeps, type SecondPathStatus, type TextPath, type TextResult } from './second-path';
export { createTextNotifier, randomShortCodes, TEXT_NOTICES_LOOP, type TextNotifierDeps } from './notifier';
export { createReplyHandler, type ReplyDeps, type ReplyOutcome } from './replies';
export { parseReply, senderNumber, REPLY_MAX_CHARS, type ReplyCommand } from './reply';
export { emailFor, textFor } from './notice-text';
