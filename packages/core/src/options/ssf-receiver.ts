/** The CAEP events the transmitter emits, by their short name (the event type URI's last segment). */
export const CAEP_EVENT_NAMES = ['session-revoked', 'credential-change'] as const;
export type CaepEventName = (typeof CAEP_EVENT_NAMES)[number];

/**
 * One Shared Signals stream: a receiver the transmitter pushes SETs to (RFC 8935). Streams are
 * the operator's configuration (code or `JWT_SSF_RECEIVERS`), not created over HTTP: a stream
 * is a promise to send a user's session events to a third party, which is a deployment
 * decision, not a runtime one.
 */
export interface SsfReceiver {
  /** The stream's id (`stream_id`): 1-64 of `A-Z a-z 0-9 _ -`; unique. */
  readonly streamId: string;
  /** Where SETs are POSTed: `https:`, or `http:` to a loopback address (development, tests). */
  readonly endpointUrl: string;
  /** The `aud` of every SET of this stream (the receiver checks it). */
  readonly audience: string;
  /** Sent as the `Authorization` header of each push (the receiver's credential); never logged. */
  readonly authorizationHeader?: string;
  /** The events the receiver asked for; default both. */
  readonly events?: readonly CaepEventName[];
  /** Shown as the stream's `description`. */
  readonly description?: string;
}
