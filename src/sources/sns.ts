import { record, sentences, str } from './speech';
import type { SourceAdapter } from './types';

/**
 * Amazon SNS over HTTP(S) (docs "HTTP/HTTPS notification JSON format"): the header
 * `x-amz-sns-message-type` names the message; a CloudWatch alarm arrives as JSON inside `Message`.
 */
export const sns: SourceAdapter = {
  name: 'sns',
  matches: ({ header, body }) => header('x-amz-sns-message-type') !== undefined || (typeof body.Type === 'string' && typeof body.TopicArn === 'string'),
  read: ({ header, body }) => {
    const type = header('x-amz-sns-message-type') ?? str(body.Type);
    if (type === 'SubscriptionConfirmation') {
      return { kind: 'sns_confirmation', source: 'sns', subscribeUrl: str(body.SubscribeURL) ?? '', topicArn: str(body.TopicArn) ?? '' };
    }
    const message = str(body.Message);
    const alarm = cloudWatchAlarm(message);
    if (alarm) {
      return {
        kind: 'alert',
        source: 'sns',
        key: str(alarm.AlarmArn) ?? str(alarm.AlarmName),
        texts: [sentences([str(alarm.AlarmName), str(alarm.NewStateReason)])].filter((t) => t !== ''),
        resolved: alarm.NewStateValue === 'OK',
      };
    }
    // Any other topic message: its subject and text; SNS gives no identity to resolve by.
    const text = sentences([str(body.Subject), message]);
    return { kind: 'alert', source: 'sns', key: null, texts: text ? [text] : [], resolved: false };
  },
};

/** The CloudWatch alarm state change inside an SNS `Message`, or null for any other message. */
function cloudWatchAlarm(message: string | null): Record<string, unknown> | null {
  if (!message?.startsWith('{')) return null;
  try {
    const value = record(JSON.parse(message));
    return typeof value.AlarmName === 'string' && typeof value.NewStateValue === 'string' ? value : null;
  } catch {
    return null;
  }
}
